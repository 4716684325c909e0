"""The declared public surface: each public module's ``__all__`` is exactly the names the docs
document, every name there exists and is named in README.md or docs/, and no other module
exports anything (its ``__all__``, if it has one, is empty)."""

import ast
import importlib
import re
from pathlib import Path
from typing import Optional

import pytest
from package_source import parsed, source

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "websearch_sync"

#: Public module -> the names it exports (its ``__all__``, in any order).
PUBLIC: dict[str, list[str]] = {
    "websearch_sync": [
        "search",
        "fetch",
        "backend_names",
        "SearchClient",
        "Settings",
        "WebSearchError",
        "InvalidInput",
        "UrlTooLong",
        "Timeout",
        "NetworkError",
        "WebBlocked",
        "AuthError",
        "BadGateway",
        "WebParseError",
        "WebProviderError",
        "ToolNotFound",
        "SearchResponse",
        "SearchItem",
        "NewsResponse",
        "NewsItem",
        "ImageResponse",
        "ImageItem",
        "VideoResponse",
        "VideoItem",
        "Vertical",
        "VERTICALS",
        "ProviderMeta",
        "ErrorInfo",
        "FetchResult",
        "__version__",
    ],
    "websearch_sync.errors": [
        "WebSearchError",
        "InvalidInput",
        "UrlTooLong",
        "Timeout",
        "NetworkError",
        "WebBlocked",
        "AuthError",
        "BadGateway",
        "WebParseError",
        "WebProviderError",
        "ToolNotFound",
        "StdoutClaimed",
        "RenewalFailed",
        "error_from_code",
    ],
    "websearch_sync.backends": [
        "Backend",
        "RequestSpec",
        "HttpResponse",
        "ParseResult",
        "SearchParams",
        "Setting",
        "Option",
        "PAGENO",
        "pageno_option",
        "HtmlEngine",
        "JsonApiEngine",
        "BotWall",
        "Block",
        "PartTest",
        "HasClass",
        "walk_blocks",
        "parse_fragment",
        "first_of",
        "elements",
        "classes",
        "has_class",
        "attribute",
        "text_of",
        "region",
        "dated_item",
        "leading_date",
        "url_parts",
        "host_in",
        "result_url",
        "page_number",
        "split_locale",
        "dig",
        "register",
        "unregister",
    ],
    "websearch_sync.backends.stub": ["OfflineResultsWarning"],
    "websearch_sync.testing": [
        "replay_fixtures",
        "fake_results",
        "assert_contract",
        "contract_problems",
        "MockWire",
        "MockResponse",
        "conformance_checks",
        "check_conformance",
        "reset",
        "no_network",
        "NetworkAccessBlocked",
    ],
    "websearch_sync.tool": [
        "tool_definitions",
        "tool_schema",
        "query_limit",
        "call_tool",
        "image_block",
        "format_results",
        "format_for_model",
        "ToolSession",
    ],
    "websearch_sync.mcp": ["McpTools", "CancellableClock", "serve_stdio"],
    "websearch_sync.extract": ["extract_html"],
    "websearch_sync.client.default_client": ["default_client", "close_default_client"],
    "websearch_sync.integrations.langchain": ["tools", "images_after_tool_messages", "move_tool_images"],
    "websearch_sync.integrations.llama_index": ["tools"],
    "websearch_sync.integrations.openai_agents": ["tools"],
    "websearch_sync.integrations.pydantic_ai": ["tools"],
    "websearch_sync.integrations.smolagents": ["tools", "WebToolError"],
}
#: Conventional module attributes that need no prose.
CONVENTIONAL = {"__version__"}


def _module_files() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


#: The line of a module that exports nothing: ``__all__: list[str] = []``.
_EMPTY_ALL = re.compile(r"^__all__(?:\s*:\s*list\[str\])?\s*=\s*\[\]", re.M)


def _declared_all(path: Path) -> Optional[list[str]]:
    """The module's ``__all__`` as written (read from the source: nothing is imported). A
    module whose every ``__all__`` is an empty one's line exports nothing whether that line is
    code or text, and is not parsed (most modules: parsing them all cost 0.5 s)."""
    text = source(path)
    if text.count("__all__") == len(_EMPTY_ALL.findall(text)):
        return [] if text.count("__all__") else None
    for node in parsed(path).body:
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        )
        if any(isinstance(target, ast.Name) and target.id == "__all__" for target in targets):
            return list(ast.literal_eval(node.value))
    return None


def _documented_tokens() -> set:
    text = "\n".join(
        path.read_text(encoding="utf-8") for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    )
    code = re.findall(r"```.*?```", text, re.S) + re.findall(r"`[^`\n]+`", text)
    return set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", " ".join(code)))


def test_public_modules_export_exactly_the_documented_names() -> None:
    files = _module_files()
    declared = {name: sorted(_declared_all(files[name]) or []) for name in PUBLIC}
    assert declared == {name: sorted(names) for name, names in PUBLIC.items()}


def test_every_other_module_exports_nothing() -> None:
    exporting = {
        name: names for name, path in _module_files().items() if name not in PUBLIC and (names := _declared_all(path))
    }
    assert exporting == {}


def test_every_public_name_is_documented() -> None:
    tokens = _documented_tokens()
    undocumented = [
        (module, name) for module, names in PUBLIC.items() for name in names if name not in tokens | CONVENTIONAL
    ]
    assert undocumented == []


@pytest.mark.parametrize("module", sorted(PUBLIC))
def test_every_public_name_exists(module: str) -> None:
    try:
        imported = importlib.import_module(module)
    except ImportError as error:  # an integration whose framework (an optional extra) is not installed
        pytest.skip("%s needs an optional extra: %s" % (module, error))
    assert [name for name in PUBLIC[module] if not hasattr(imported, name)] == []


def test_every_guarded_tools_builder_defaults_to_the_one_max_repeats():
    """``max_repeats: int = 2`` was written seven times beside the shared ``DEFAULT_REPEAT_WINDOW_S``:
    each signature taking ``max_repeats`` (every integration's, ``ToolSession``'s, the MCP server's)
    defaults to ``config.DEFAULT_MAX_REPEATS``, and so does ``mcp --max-repeats`` (read from the
    sources: importing the frameworks costs seconds)."""
    from websearch_sync.cli import build_parser
    from websearch_sync.config import DEFAULT_MAX_REPEATS

    defaults = {}
    for path in sorted(path for path in PACKAGE.rglob("*.py") if "max_repeats" in source(path)):
        for node in ast.walk(parsed(path)):
            if isinstance(node, ast.FunctionDef):
                arguments = node.args
                for argument, default in zip(arguments.kwonlyargs, arguments.kw_defaults):
                    if argument.arg == "max_repeats":
                        defaults["%s:%s" % (path.relative_to(PACKAGE), node.name)] = ast.unparse(default)
    assert len(defaults) == 8, defaults  # six tool builders, ToolSession and McpTools
    assert set(defaults.values()) == {"DEFAULT_MAX_REPEATS"}, defaults
    assert build_parser().parse_args(["mcp"]).max_repeats == DEFAULT_MAX_REPEATS


def test_a_public_name_of_another_module_read_from_the_package_says_where_it_is():
    """``ws.OfflineResultsWarning`` (the README names the warning; a newcomer filters it so) was
    ``module 'websearch_sync' has no attribute 'OfflineResultsWarning'``: the error names its module, and
    every name so pointed to is exported by the module named (the map cannot drift from the surface)."""
    import websearch_sync as ws

    with pytest.raises(AttributeError) as info:
        ws.OfflineResultsWarning  # noqa: B018
    assert str(info.value) == (
        "module 'websearch_sync' has no attribute 'OfflineResultsWarning' (it is"
        " websearch_sync.backends.stub.OfflineResultsWarning: from websearch_sync.backends.stub import OfflineResultsWarning)"
    )
    for name, module in ws._ELSEWHERE.items():
        assert name in PUBLIC[module], (name, module)
        assert name not in PUBLIC["websearch_sync"]
