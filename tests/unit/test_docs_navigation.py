"""Docs a newcomer can find their way in (issue 34.7): ``--help`` names a folder that holds the
pages (pip installs them beside the package), and the architecture page names every layer."""

import configparser
import re
from pathlib import Path

from test_layering import LAYERS

from websearch_sync.cli import INSTALLED_DOCS, build_parser

ROOT = Path(__file__).resolve().parents[2]


def test_help_points_to_a_folder_holding_the_pages():
    """The folder of README.md, whose ``docs/...`` links lead to the pages from there."""
    text = build_parser().format_help()
    folder = Path(re.search(r"^documentation: (\S+) ", text, re.M).group(1))
    for page in ("README.md", "docs/cli.md", "docs/errors.md", "docs/architecture.md"):
        assert (folder / page).is_file(), (folder, page)


def test_pip_installs_every_page_where_help_looks():
    """README.md (with the LICENSE it links) where ``--help`` points, the pages in its ``docs/``:
    the checkout's layout (tests/unit/test_docs_links.py follows every link through it)."""
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg", encoding="utf-8")
    folder = "/".join(INSTALLED_DOCS)
    installed = {
        place: {item.strip() for item in sources.split(",")} for place, sources in config["options.data_files"].items()
    }
    assert installed == {folder: {"README.md", "LICENSE"}, folder + "/docs": {"docs/*.md"}}


def test_the_readme_leads_a_plugin_author_to_the_plugin_sections():
    """A plugin author's first hour starts in the README: its docs table named "writing a
    third-party backend (plugin)" as part of docs/backends.md, whose plugin sections begin some 440
    lines down, past every built-in backend's."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for anchor in ("#writing-a-backend-plugin", "#running-the-conformance-kit-on-your-plugin"):
        assert "](docs/backends.md%s)" % anchor in readme, anchor


def test_the_architecture_page_names_every_layer():
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    missing = [unit for unit in LAYERS if "`%s`" % unit not in page]
    assert not missing, "docs/architecture.md does not name %s" % missing


def test_the_error_table_is_one_short_row_per_detail_code():
    """docs/errors.md's table (issue 34.7): a row per code (two only for a pair told as one), each
    row short enough to read; what a whole type covers is told below the table."""
    page = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` \|(.*)\|\s*$", page, re.M)
    assert len(rows) > 90
    for error_type, row in rows:
        codes = re.findall(r"`([^`]+)`", row.split("|")[-1])
        no_code = row.split("|")[-1].strip() == "—"  # an error that is no WebSearchError: StdoutClaimed
        assert no_code or 1 <= len(codes) <= 2, (error_type, row)
        assert len(row) <= 500, (error_type, len(row))
    for error_type in {error_type for error_type, _ in rows}:
        assert "### `%s`" % error_type in page, "no details below the table for %s" % error_type
