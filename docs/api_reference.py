"""Build the API reference (HTML) from the docstrings of the public modules, with pdoc.

    python docs/api_reference.py [OUTPUT_DIR]        # default: build/api

pdoc is in the ``docs`` and ``test`` extras. A public module that does not import, or one
pdoc writes no page for, fails the build (exit status 1), so `.ci/run` and
``tests/unit/test_api_reference.py`` keep it from rotting.
"""

import sys
import warnings
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


def build(output: Path) -> list[Path]:
    """Write the reference under ``output``; the HTML page of each public module."""
    import pdoc
    import pdoc.render

    pdoc.render.configure(docformat="google", footer_text="websearch-sync API reference")
    with warnings.catch_warnings():  # pdoc cannot tell where a TypedDict's fields come from: noise here
        warnings.filterwarnings("ignore", message="Cannot determine where", category=UserWarning)
        pdoc.pdoc(*PUBLIC_MODULES, output_directory=output)
    return [output.joinpath(*module.split(".")).with_suffix(".html") for module in PUBLIC_MODULES]


if __name__ == "__main__":
    pages = build(Path(sys.argv[1] if len(sys.argv) > 1 else "build/api"))
    missing = [page for page in pages if not page.is_file()]
    if missing:
        raise SystemExit("pdoc wrote no page for %s" % ", ".join(map(str, missing)))
    print("API reference: %d module pages under %s" % (len(pages), pages[0].parent))
