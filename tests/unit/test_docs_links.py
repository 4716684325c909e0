"""The README stays short and every relative link in it and in docs/ resolves
(the file exists and, for ``#anchor`` links, so does the heading)."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
README_LIMIT = 15 * 1024

_LINK = re.compile(r"\[[^\]\n]*\]\(([^)\s]+)\)")
_FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def _anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _anchors(page: Path) -> set:
    text = _FENCE.sub("", page.read_text(encoding="utf-8"))
    return {_anchor(line.lstrip("#")) for line in text.splitlines() if line.startswith("#")}


def _links(page: Path):
    text = _FENCE.sub("", page.read_text(encoding="utf-8"))
    for target in _LINK.findall(text):
        if not re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto: are not checked
            yield target


def test_the_readme_is_short():
    assert len((ROOT / "README.md").read_bytes()) <= README_LIMIT


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(page):
    broken = []
    for target in _links(page):
        path_part, _, anchor = target.partition("#")
        destination = (page.parent / path_part).resolve() if path_part else page
        if not destination.exists():
            broken.append(target)
        elif anchor and destination.suffix == ".md" and anchor not in _anchors(destination):
            broken.append(target)
    assert not broken, broken


def test_the_readme_links_every_docs_page():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    missing = [p.name for p in (ROOT / "docs").glob("*.md") if "(docs/%s)" % p.name not in readme]
    assert not missing, missing


def _installed_pages() -> dict:
    """``{path under the prefix: the checkout's file}`` as ``pip install .`` lays the pages out: each
    ``[options.data_files]`` entry of setup.cfg, a folder and its files (globs), each file by its name."""
    import configparser

    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg", encoding="utf-8")
    installed = {}
    for folder, sources in config["options.data_files"].items():
        for source in (item.strip() for item in sources.split(",") if item.strip()):
            for path in sorted(ROOT.glob(source)):
                installed["%s/%s" % (folder, path.name)] = path
    return installed


def test_every_relative_link_resolves_where_pip_installs_the_pages():
    """Before: pip put README.md and docs/*.md side by side in share/doc/websearch-sync, where
    ``--help`` points; the README's ``docs/cli.md`` links led nowhere there. Each relative link of
    every installed page must lead to an installed file (and heading) from where that page is installed."""
    import posixpath

    installed = _installed_pages()
    assert any(name.endswith("/README.md") for name in installed), installed
    broken = []
    for name, source in installed.items():
        if source.suffix != ".md":
            continue
        for target in (link for link in _links(source) if not link.startswith("/")):  # `[Home](/)`: a quoted page's
            path_part, _, anchor = target.partition("#")
            where = posixpath.normpath(posixpath.join(posixpath.dirname(name), path_part)) if path_part else name
            found = installed.get(where)
            if found is None or (anchor and found.suffix == ".md" and anchor not in _anchors(found)):
                broken.append("%s: %s" % (name, target))
    assert not broken, broken
