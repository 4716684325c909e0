"""Build the API reference (HTML) from the docstrings of the public modules, with pdoc.

    python docs/api_reference.py [OUTPUT_DIR] [--all]        # default: build/api

pdoc is in the ``docs`` and ``test`` extras. An integration whose agent framework is not
installed (``pip install -e '.[docs]'`` installs none) is left out, saying so; ``--all`` builds
every public module (`.ci/run`: the test extra installs them all). A public module that does not
import otherwise, or one pdoc writes no page for, fails the build (exit status 1), so `.ci/run`
and ``tests/unit/test_api_reference.py`` keep it from rotting.
"""

import importlib
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path

#: The public modules, as docs/ and tests/unit/test_public_surface.py name them (a test checks both agree).
PUBLIC_MODULES = (
    "websearch_sync",
    "websearch_sync.errors",
    "websearch_sync.backends",
    "websearch_sync.backends.stub",
    "websearch_sync.testing",
    "websearch_sync.tool",
    "websearch_sync.mcp",
    "websearch_sync.extract",
    "websearch_sync.client.default_client",
    "websearch_sync.integrations.langchain",
    "websearch_sync.integrations.llama_index",
    "websearch_sync.integrations.openai_agents",
    "websearch_sync.integrations.pydantic_ai",
    "websearch_sync.integrations.smolagents",
)


def without_missing_frameworks(modules: Sequence[str]) -> tuple[list[str], list[str]]:
    """``modules`` split into those that import and why each other one cannot: a package it
    needs is not installed (an integration without its extra; its ``ImportError`` names the
    extra). A module failing for another reason raises."""
    kept, left_out = [], []
    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError as error:
            cause = error.__cause__
            if not isinstance(cause, ModuleNotFoundError) or (cause.name or "").startswith("websearch_sync"):
                raise
            left_out.append("%s: %s" % (module, error))
        else:
            kept.append(module)
    return kept, left_out


def build(output: Path, modules: Sequence[str] = PUBLIC_MODULES, *, show_source: bool = True) -> list[Path]:
    """Write the reference of ``modules`` under ``output``; the HTML page of each. Without
    ``show_source``, the pages leave out each member's highlighted source: the test that
    checks every public name has its entry builds them so (the highlighting is 40% of a build)."""
    import pdoc
    import pdoc.render

    pdoc.render.configure(docformat="google", footer_text="websearch-sync API reference", show_source=show_source)
    with warnings.catch_warnings():  # pdoc cannot tell where a TypedDict's fields come from: noise here
        warnings.filterwarnings("ignore", message="Cannot determine where", category=UserWarning)
        pdoc.pdoc(*modules, output_directory=output)
    return [output.joinpath(*module.split(".")).with_suffix(".html") for module in modules]


if __name__ == "__main__":
    arguments = [argument for argument in sys.argv[1:] if argument != "--all"]
    modules, left_out = (
        (list(PUBLIC_MODULES), []) if "--all" in sys.argv[1:] else without_missing_frameworks(PUBLIC_MODULES)
    )
    for why in left_out:
        print("left out %s" % why)
    pages = build(Path(arguments[0] if arguments else "build/api"), modules)
    missing = [page for page in pages if not page.is_file()]
    if missing:
        raise SystemExit("pdoc wrote no page for %s" % ", ".join(map(str, missing)))
    print("API reference: %d module pages under %s" % (len(pages), pages[0].parent))
