"""What the docs say a name takes is what the code takes: a public callable's signature written
at the head of a list item or paragraph (`` `call_tool(name, arguments, *, client=None)` ``)
names its real parameters, with their real defaults, keyword-only where the code says so; the
per-call keywords docs/client.md lists are the ones ``SearchClient.search`` takes; every flag of
docs/cli.md's synopsis, and every flag written after ``websearch-sync <command>`` anywhere, is
one that command accepts; every public function, class and method of the public modules has a
docstring; the error class a module raises with a detail code is the one docs/errors.md's row
for that code names; docs/verticals.md's tables of who serves what and of each vertical's fields
are the engines' and the item types' own, and the tool values it quotes are read as it says; every extra of setup.cfg, and what it installs, is
named in docs/configuration.md; docs/mcp.md quotes the line a missing SDK gives; a name the docs
spell under a public module is exported by it; and every Python block parses, the library names
it uses exist and its calls of them use keywords they take; each install line of an extra that
the pip of a fresh venv cannot resolve upgrades pip first; docs/agent-tools.md's first block runs
as written (offline, on the stub); docs/configuration.md's rows of the shared settings are the
``Settings`` fields, read from their variables with the defaults and ranges written; the
not-sent table, the plugin section's declarations and the kit's parameter names of
docs/backends.md, and docs/architecture.md's layers, are the code's. Reads the source and the
docs (no search leaves the process)."""

import argparse
import ast
import configparser
import functools
import importlib
import importlib.util
import inspect
import re
import sys
from pathlib import Path

import pytest
from test_public_surface import PUBLIC

import websearch_sync as ws
from websearch_sync import errors, testing, tool
from websearch_sync.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "websearch_sync"
PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))

#: The public callables whose signatures the docs write out, by the name the docs use.
CALLABLES = {
    "search": ws.search,
    "fetch": ws.fetch,
    "tool_definitions": tool.tool_definitions,
    "tool_schema": tool.tool_schema,
    "call_tool": tool.call_tool,
    "format_results": tool.format_results,
    "format_for_model": tool.format_for_model,
    "image_block": tool.image_block,
    "ToolSession": tool.ToolSession,
    "replay_fixtures": testing.replay_fixtures,
    "fake_results": testing.fake_results,
    "assert_contract": testing.assert_contract,
    "contract_problems": testing.contract_problems,
    "error_from_code": errors.error_from_code,
}
#: `name(params)` at the head of a list item or a line; params may hold one level of parentheses.
_HEAD = re.compile(r"^(- )?`(?:[\w.]+\.)?(\w+)\(([^`()]*(?:\([^`()]*\)[^`()]*)*)\)", re.M)


def _written_signatures():
    """Each signature the docs write out: a list item's head, or a line's head with a ``*``
    (``f(a, *, b=None)``); a call shown as an example (``search("q", vertical="news")``) is not one."""
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in _HEAD.finditer(text):
            item, name, params = match.groups()
            if name in CALLABLES and params and "..." not in params and (item or "*" in params):
                line = text[: match.start()].count("\n") + 1
                yield pytest.param(name, params, id="%s:%d:%s" % (page.name, line, name))


def _written_arguments(params: str) -> ast.arguments:
    """The parameters as written, parsed as a ``def``'s (``"text"|"markdown"``: its first value)."""
    plain = re.sub(r'("[^"]*")(?:\|"[^"]*")+', r"\1", params)
    function = ast.parse("def f(%s): pass" % plain).body[0]
    assert isinstance(function, ast.FunctionDef)
    return function.args


def test_the_signatures_were_read():
    read = {param.values[0] for param in _written_signatures()}
    assert read >= {"search", "fetch", "call_tool", "tool_definitions", "format_results", "replay_fixtures"}


@pytest.mark.parametrize("name, params", list(_written_signatures()))
def test_a_written_signature_is_the_real_one(name, params):
    real = inspect.signature(CALLABLES[name]).parameters
    by_position = [p for p in real.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    written = _written_arguments(params)
    positional = [arg.arg for arg in written.posonlyargs + written.args]
    keyword_only = [arg.arg for arg in written.kwonlyargs]
    # written before `*`: taken by position (a placeholder name such as `dir` is fine); after it, by name
    assert len(positional) <= len(by_position), "%s takes %s by position" % (name, [p.name for p in by_position])
    takes_more = any(p.kind is p.VAR_KEYWORD for p in real.values())
    for parameter in keyword_only:
        assert parameter in real or takes_more, "%s has no parameter %r: %s" % (name, parameter, list(real))
    required = [p.name for p in by_position if p.default is p.empty]
    assert len(positional) >= len(required), "%s: the required %s are not all written" % (name, required)
    defaults = dict(zip(positional[len(positional) - len(written.defaults) :], written.defaults))
    defaults.update({arg.arg: default for arg, default in zip(written.kwonlyargs, written.kw_defaults) if default})
    for parameter, default in defaults.items():
        if parameter in real:
            assert real[parameter].default == ast.literal_eval(default), "%s: %s defaults to %r" % (
                name,
                parameter,
                real[parameter].default,
            )


def test_the_per_call_keywords_of_the_client_page_are_the_ones_search_takes():
    text = " ".join((ROOT / "docs" / "client.md").read_text(encoding="utf-8").split())
    sentence = re.search(r"The constructor arguments (.*?) can be overridden per call.*?the others \((.*?)\)", text)
    per_call = set(re.findall(r"`(\w+)`", sentence.group(1)))
    others = set(re.findall(r"`(\w+)`", sentence.group(2)))
    constructor = set(inspect.signature(ws.SearchClient).parameters)
    per_search = set(inspect.signature(ws.SearchClient.search).parameters)
    assert per_call | others == constructor
    assert per_call == constructor & per_search


# -- docs/cli.md's synopsis ---------------------------------------------------------------------


@functools.cache
def _parsers() -> dict[str, argparse.ArgumentParser]:
    """``{"search": parser, ..., "state clear": parser}``: each command's parser."""
    found: dict[str, argparse.ArgumentParser] = {}

    def walk(parser: argparse.ArgumentParser, prefix: str) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    found[(prefix + " " + name).strip()] = sub
                    walk(sub, prefix + " " + name)

    walk(build_parser(), "")
    return found


def _synopsis_flags():
    """``(command, flag)`` of every flag the synopsis block of docs/cli.md writes."""
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    block = re.search(r"^```\n(websearch-sync .*?)^```", text, re.S | re.M).group(1)
    commands = sorted(_parsers(), key=len, reverse=True)
    command = None
    for line in block.splitlines():
        written = line.split("#", 1)[0]
        head = re.match(r"websearch-sync ([a-z -]+)", written)
        if head:
            command = next((name for name in commands if head.group(1).startswith(name)), None)
        if command is not None:
            for flag in re.findall(r"(?<![\w-])(--?[a-z][\w-]*)", written):
                yield command, flag


@pytest.mark.parametrize("command, flag", sorted(set(_synopsis_flags())))
def test_every_flag_of_the_synopsis_exists(command, flag):
    parser = _parsers()[command]
    assert flag in parser._option_string_actions, "websearch-sync %s has no %s" % (command, flag)


def test_the_synopsis_was_read():
    assert {command for command, _ in _synopsis_flags()} >= {"search", "fetch", "backends", "state clear", "verify"}


def _written_commands():
    """``(page:line, command, flag)`` of each flag written after ``websearch-sync <command>`` on
    one line of the docs (a code span, a block, a table cell)."""
    commands = sorted(_parsers(), key=len, reverse=True)
    for page in PAGES:
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            for written in re.findall(r"websearch-sync ([^`|#]*)", line):
                command = next((name for name in commands if (written + " ").startswith(name + " ")), None)
                written = (written + " ").split(" -- ")[0]  # after `--`, the words of a query: no flags
                for flag in re.findall(r"(?<![\w-])(--?[a-z][\w-]*)", written) if command else ():
                    yield "%s:%d" % (page.name, number), command, flag


def test_every_flag_written_after_a_command_exists():
    written = list(_written_commands())
    assert len(written) > 50  # the commands were read
    unknown = [
        (where, command, flag)
        for where, command, flag in written
        if flag not in _parsers()[command]._option_string_actions
    ]
    assert not unknown


# -- docstrings ---------------------------------------------------------------------------------------


def _public_objects():
    """``(module, qualified name, object)`` of each public function, class and method."""
    for module_name, names in PUBLIC.items():
        if module_name.startswith("websearch_sync.integrations"):
            continue  # importing the agent frameworks takes seconds: read from the source below
        module = importlib.import_module(module_name)
        for name in names:
            value = getattr(module, name)
            if inspect.isfunction(value) or inspect.isclass(value):
                yield module_name, name, value
            if inspect.isclass(value):
                for attribute, member in vars(value).items():
                    function = member.fget if isinstance(member, property) else getattr(member, "__func__", member)
                    if not attribute.startswith("_") and inspect.isfunction(function):
                        yield module_name, "%s.%s" % (name, attribute), function


def _integration_objects():
    """``(module, name, docstring)`` of the integrations' public names, read from their source."""
    for module_name, names in PUBLIC.items():
        if module_name.startswith("websearch_sync.integrations"):
            path = ROOT / (module_name.replace(".", "/") + ".py")
            for node in ast.parse(path.read_text(encoding="utf-8")).body:
                if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name in names:
                    yield module_name, node.name, ast.get_docstring(node)


def test_every_public_function_class_and_method_has_a_docstring():
    missing = [(module, name) for module, name, value in _public_objects() if not (value.__doc__ or "").strip()]
    missing += [(module, name) for module, name, doc in _integration_objects() if not (doc or "").strip()]
    assert not missing


def test_the_public_objects_were_read():
    assert len(list(_public_objects())) > 100
    assert len(list(_integration_objects())) == sum(
        len(names) for module, names in PUBLIC.items() if module.startswith("websearch_sync.integrations")
    )


# -- docs/errors.md: the class of each code ------------------------------------------------------

_CLASSES = [name for name in errors.__all__ if name != "error_from_code"]
_CALL = re.compile(r"\b(%s)\(" % "|".join(_CLASSES))
_CODE = re.compile(r"detail_code=(?:errors\.)?([A-Z][A-Z0-9_]*)\b")


def _raised(source: str):
    """``(class, code, offset)`` of each ``ErrorClass(..., detail_code=CONSTANT, ...)`` (the
    keyword of that call, not of a call inside it). A scan of the text, not a parse of every
    module: ten times cheaper, and the same calls."""
    for call in _CALL.finditer(source):
        depth, index, quote = 1, call.end(), ""
        while depth and index < len(source):
            char = source[index]
            if quote:
                index += char == "\\"
                quote = "" if char == quote else quote
            elif char in "\"'":
                quote = char
            elif char in "()":
                depth += 1 if char == "(" else -1
            elif depth == 1 and (found := _CODE.match(source, index)):
                code = getattr(errors, found.group(1), None)
                if isinstance(code, str):
                    yield call.group(1), code, call.start()
            index += 1


def test_each_code_is_raised_with_the_class_its_row_names():
    documented: dict[str, set] = {}
    text = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
    for cls, rest in re.findall(r"^\| `(\w+)` \|(.*)\|\s*$", text, re.M):
        for token in re.findall(r"`([^`]+)`", rest.split("|")[-1]):
            documented.setdefault(token, set()).add(cls)
    raised = [
        (path, cls, code, offset)
        for path in sorted(PACKAGE.rglob("*.py"))
        for cls, code, offset in _raised(path.read_text(encoding="utf-8"))
    ]
    assert len({code for _, _, code, _ in raised}) > 60  # the calls were found
    wrong = [
        "%s: %s(detail_code=%s), which the table gives to %s"
        % (path.relative_to(ROOT), cls, code, documented.get(code))
        for path, cls, code, _ in raised
        if not any(issubclass(getattr(errors, cls), getattr(errors, row)) for row in documented.get(code, ()))
    ]  # a row's class or its subclass (UrlTooLong is an InvalidInput, bad_url)
    assert not wrong


# -- docs/verticals.md: who serves what ----------------------------------------------------------


def test_the_verticals_table_is_what_the_engines_serve():
    from websearch_sync.engine.builtin import BUILT_IN
    from websearch_sync.models import VERTICALS

    served: dict[str, set] = {}
    for row in BUILT_IN:
        served.setdefault(row.name, set()).add(row.vertical)
    text = (ROOT / "docs" / "verticals.md").read_text(encoding="utf-8")
    header = "| backend | %s |" % " | ".join(VERTICALS)
    table = text.split(header, 1)[1].split("\n\n", 1)[0]
    rows = re.findall(r"^\| `(\w+)`[^|]*\|(.*)\|$", table, re.M)
    assert len(rows) >= 8  # the table was read
    written = {
        name: {v for v, cell in zip(VERTICALS, cells.split("|")) if cell.strip() == "yes"} for name, cells in rows
    }
    assert written == {name: served[name] for name in written}


# -- every Python block of the docs --------------------------------------------------------------


def _python_blocks():
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in re.finditer(r"^```python\n(.*?)^```", text, re.S | re.M):
            line = text[: match.start()].count("\n") + 1
            yield pytest.param(match.group(1), id="%s:%d" % (page.name, line))


def _resolves(dotted: str) -> bool:
    """Whether ``websearch_sync.a.b`` names a module or an attribute of one (nothing else is imported)."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for part in parts[cut:]:
            if not hasattr(found, part):
                return False
            found = getattr(found, part)
        return True
    return False


@pytest.mark.parametrize("block", list(_python_blocks()))
def test_a_python_block_parses_and_its_library_names_exist(block):
    tree = ast.parse(block)  # a block that is no Python (a typo, a stray "...") fails here
    named = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("websearch_sync"):
            named += ["%s.%s" % (node.module, alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            named += [alias.name for alias in node.names if alias.name.startswith("websearch_sync")]
    named += ["websearch_sync." + found for found in re.findall(r"\bws\.(\w+)", block)]
    named += re.findall(r"\b(websearch_sync(?:\.\w+)+)", block)
    missing = [name for name in named if "integrations" not in name and not _resolves(name)]
    assert not missing
    assert not _unknown_keywords(tree)


@functools.cache
def _search_keywords() -> frozenset:
    """The keywords ``search()`` takes besides its parameters: the options, the client's per-call ones."""
    from websearch_sync.engine import registry
    from websearch_sync.validate import COMMON_OPTIONS

    return (
        frozenset(COMMON_OPTIONS)
        | frozenset(registry.backend_options())
        | frozenset(inspect.signature(ws.SearchClient.search).parameters)
    )


def _unknown_keywords(tree: ast.AST) -> list:
    """``name(keyword=...)`` of the calls of library callables (``ws.X``, names imported from the
    package, ``client.search``/``client.fetch``) whose keyword the callable does not take."""
    imported = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("websearch_sync"):
            if "integrations" not in node.module:
                module = importlib.import_module(node.module)
                imported.update({a.asname or a.name: getattr(module, a.name, None) for a in node.names})
    unknown = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        called, target = node.func, None
        if isinstance(called, ast.Attribute) and isinstance(called.value, ast.Name):
            if called.value.id == "ws":
                target = getattr(ws, called.attr, None)
            elif called.value.id == "client" and called.attr in ("search", "fetch"):
                target = getattr(ws.SearchClient, called.attr)
        elif isinstance(called, ast.Name):
            target = imported.get(called.id)
        if not callable(target):
            continue
        parameters = inspect.signature(target).parameters
        takes_any = any(p.kind is p.VAR_KEYWORD for p in parameters.values())
        searches = target in (ws.search, ws.SearchClient.search)
        for keyword in node.keywords:
            name = keyword.arg
            if name and name not in parameters and (not takes_any or (searches and name not in _search_keywords())):
                unknown.append("%s(%s=...)" % (ast.unparse(called), name))
    return unknown


def test_every_ws_name_of_the_prose_exists():
    """``ws.X`` in the text outside code blocks too (`` `ws.Settings.from_env()` ``)."""
    text = " ".join(page.read_text(encoding="utf-8") for page in PAGES)
    named = {"websearch_sync." + name for name in re.findall(r"\bws\.(\w+(?:\.\w+)?)", text)}
    missing = sorted(name for name in named if not _resolves(name))
    assert not missing


# -- docs/configuration.md: the extras ---------------------------------------------------------------


def test_every_extra_and_what_it_installs_is_in_the_dependencies_section():
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg", encoding="utf-8")
    extras = {name: value.split() for name, value in config["options.extras_require"].items()}
    section = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8").split("\n## Dependencies\n", 1)[1]
    assert len(extras) > 10  # setup.cfg was read
    unnamed = [name for name in extras if name != "test" and "`%s`" % name not in section]
    uninstalled = [
        requirement
        for requirements in extras.values()
        for requirement in requirements
        if re.split(r"[<>=!~;\[ ]", requirement)[0].lower() not in section.lower()
    ]
    assert not unnamed and not uninstalled


# -- docs/configuration.md: the proxy schemes -----------------------------------------------------


def test_the_proxy_row_names_every_scheme_a_proxy_url_may_have():
    with pytest.raises(ws.InvalidInput) as refused:
        ws.Settings(proxy="ftp://proxy.example:3128")
    accepted = re.search(r"must be one of ([a-z0-9, ]+)", refused.value.message).group(1).strip().split(", ")
    row = next(
        line
        for line in (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8").splitlines()
        if line.startswith("| `WEB_SEARCH_PROXY` |")
    )
    named = re.findall(r"`([a-z0-9]+)://`", row)
    assert len(accepted) > 3 and set(named) == set(accepted)


# -- docs/mcp.md: the line a missing extra prints --------------------------------------------------


def test_the_missing_mcp_extra_line_is_the_one_the_command_prints(monkeypatch):
    from websearch_sync.mcp import require_mcp

    monkeypatch.setitem(sys.modules, "mcp", None)  # the SDK not installed: its import fails
    with pytest.raises(errors.InvalidInput) as caught:
        require_mcp()
    text = (ROOT / "docs" / "mcp.md").read_text(encoding="utf-8")
    written = re.search(r"`` (error: InvalidInput/missing_mcp_extra: .*?) ``", text).group(1)
    assert written == "error: %s/%s: %s" % (caught.value.code, caught.value.detail_code, caught.value.message)


def _is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:  # its parent is a module, not a package
        return False


def test_every_dotted_name_of_a_public_module_is_exported():
    """``websearch_sync.testing.no_network`` in the docs is in ``websearch_sync.testing.__all__``
    (what ``import *`` and the API reference give), unless it names a module."""
    text = " ".join(page.read_text(encoding="utf-8") for page in PAGES)
    dotted = set(re.findall(r"(?<![\w/])websearch_sync(?:\.\w+)+", text))  # not in a URL
    unexported = [
        name
        for name in sorted(dotted)
        for module, _, last in [name.rpartition(".")]
        if module in PUBLIC and last not in PUBLIC[module] and not _is_module(name)
    ]
    assert len(dotted) > 20 and not unexported


def test_the_item_fields_of_each_vertical_are_its_item_types():
    """docs/verticals.md's table of each vertical's fields is its item type's fields, besides the
    ones every item has (said above the table) and ``content``/``content_by``/``content_truncated_by``/``providers``
    (told below it, and in docs/api.md)."""
    text = (ROOT / "docs" / "verticals.md").read_text(encoding="utf-8")
    table = text.split("| vertical | fields |", 1)[1].split("\n\n", 1)[0]
    rows = re.findall(r"^\| (\w+) \|(.*)\|$", table, re.M)
    told = {"title", "url", "provider", "rank", "content", "content_by", "content_truncated_by", "providers"}
    written = {vertical: set(re.findall(r"`(\w+)`", fields)) - told for vertical, fields in rows}
    types = {"news": ws.NewsItem, "images": ws.ImageItem, "videos": ws.VideoItem}
    assert written == {vertical: set(item.__annotations__) - told for vertical, item in types.items()}


# -- install lines: the pip a fresh venv ships ------------------------------------------------------


def _clashing_extras() -> set:
    """The extras that bring trafilatura (jusText asks for ``lxml[html_clean]``, readability-lxml for
    ``lxml[html-clean]``): with them, the pip of a fresh Python 3.10 to 3.12 venv (23.0.1, 23.2.1) stops on an
    ``AssertionError`` (README, Quickstart)."""
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg", encoding="utf-8")
    return {name for name, value in config["options.extras_require"].items() if "trafilatura" in value}


def test_every_install_of_an_extra_that_clashes_upgrades_pip_first():
    """A newcomer copies the line as written: each ``pip install`` of the checkout with the test or
    trafilatura extra upgrades pip first in the same line, as the Quickstart's second command does."""
    extras = _clashing_extras()
    assert {"test", "trafilatura"} <= extras  # setup.cfg was read
    spelled = re.compile(r"pip install (?:-e )?'?\.\[([\w,-]+)\]")
    unsafe = [
        "%s: %s" % (page.name, line.strip())
        for page in PAGES
        for line in page.read_text(encoding="utf-8").splitlines()
        for match in spelled.finditer(line)
        if extras & set(match.group(1).split(",")) and "pip install -U pip &&" not in line[: match.start()]
    ]
    assert not unsafe


# -- docs/agent-tools.md: the first example runs as written ---------------------------------------


def test_the_agent_tools_first_example_runs_as_written():
    """Copied into a script, the page's first block runs (before, it used a ``client`` and
    ``arguments`` it never defined): offline, the default backend's results, numbered."""
    page = (ROOT / "docs" / "agent-tools.md").read_text(encoding="utf-8")
    block = page.split("```python\n", 1)[1].split("```", 1)[0]
    names: dict = {}
    exec(compile(block, "agent-tools.md", "exec"), names)  # the default backend: the offline stub
    assert names["result"]["provider_meta"]["provider_name"] == "stub" and len(names["result"]["items"]) == 3
    assert names["reply"].startswith("1. python requests timeout - Overview\n")
    assert [t["function"]["name"] for t in names["tools"]] == ["web_search", "web_fetch"]


# -- docs/verticals.md: what the tools do with a filter's value -------------------------------------


def test_the_tool_values_the_verticals_page_quotes_are_read_as_it_says():
    """The page said a tool's filter value was exact (``Large`` refused as ``bad_arguments``) while the
    tools read every listed value in any case (``test_an_enum_value_is_read_in_any_case``): an agent
    builder reading it normalised values the tool already took. Each example the paragraph quotes is
    checked against ``call_tool``: a refused one names the closest value written, an accepted one answers."""
    page = (ROOT / "docs" / "verticals.md").read_text(encoding="utf-8")
    paragraph = page.split("The agent tools offer them as well", 1)[1].split("\n\n", 1)[0]
    refused = re.findall(r'`(\w+): "(\w+)"`:\s*`\'(\w+)\'`', paragraph)
    read = re.findall(r'`(\w+): "(\w+)"` is `(\w+)`', paragraph)
    assert len(refused) >= 2 and read, paragraph
    client = ws.SearchClient("stub")
    for name, value, closest in refused:
        arguments = {"query": "red panda", "vertical": "images", name: value}
        error = tool.call_tool("web_search", arguments, client=client)["error"]
        assert error["detail_code"] == "bad_arguments" and "(did you mean %r?)" % closest in error["message"]
    for name, value, as_value in read:
        response = tool.call_tool(
            "web_search", {"query": "red panda", "vertical": "images", name: value}, client=client
        )
        assert "error" not in response, response
        assert (
            tool.validate_arguments("web.search", {"query": "q", "vertical": "images", name: value})[name] == as_value
        )
    client.close()


# -- docs/api.md: the API reference without the agent frameworks ------------------------------------


def test_the_api_reference_command_leaves_out_an_integration_whose_framework_is_missing(monkeypatch):
    """docs/api.md's command after ``pip install -e '.[docs]'`` (no framework installed) stopped on
    pdoc's "Error importing websearch_sync.integrations.langchain"; now that module is left out,
    saying why, and every other one is built."""
    import docs_scripts

    script = docs_scripts.load("api_reference")
    monkeypatch.setattr(sys, "version_info", (3, 11, 7, "final", 0))  # where the extra installs: its pip line is named
    for name in ["langchain_core"] + [name for name in sys.modules if name.startswith("langchain_core.")]:
        monkeypatch.setitem(sys.modules, name, None)  # not installed (nor imported before): its import fails
    monkeypatch.delitem(sys.modules, "websearch_sync.integrations.langchain", raising=False)
    assert "websearch_sync.integrations.langchain" in script.PUBLIC_MODULES
    # (not the other integrations: importing their frameworks takes seconds)
    kept, left_out = script.without_missing_frameworks(["websearch_sync", "websearch_sync.integrations.langchain"])
    assert kept == ["websearch_sync"]
    assert len(left_out) == 1 and "pip install -e '.[langchain]'" in left_out[0]
    page = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    assert "pip install -e '.[docs]' && python docs/api_reference.py build/api" in page  # the newcomer's line
    assert 'api_reference.py "$(mktemp -d)/api" --all' in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_the_api_reference_still_fails_on_a_module_that_does_not_import():
    import docs_scripts

    script = docs_scripts.load("api_reference")
    with pytest.raises(ModuleNotFoundError):  # a public module gone (a defect, not a missing extra)
        script.without_missing_frameworks(["websearch_sync", "websearch_sync.no_such_module"])


# -- docs/configuration.md: the settings every backend shares ---------------------------------------

#: A value of each shared variable that ``from_env`` keeps as it reads it (a file that exists for the
#: CA bundle; the state URL and prefix are only checked when a client is built).
_SAMPLES = {
    "backend": "stub",
    "proxy": "http://proxy.example:3128",
    "user_agent": "agent/1",
    "impersonate": "off",
    "ca_bundle": __file__,
    "fetch_service_url": "https://reader.example/",
    "fetch_service_key": "key-1",
    "allow_private": "1",
    "state_url": "redis://127.0.0.1:6379/0",
    "state_prefix": "app",
    "state_required": "1",
    "min_interval_s": "2.5",
    "max_response_bytes": "4096",
}


def _shared_rows() -> dict:
    """``{field: (variable, meaning)}`` of docs/configuration.md's rows naming a ``Settings`` field."""
    text = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([A-Z0-9_]+)` \| `(\w+)` \|(.*)\|$", text, re.M)
    return {field: (variable, meaning) for variable, field, meaning in rows}


def test_every_settings_field_has_its_row_and_its_variable_sets_it():
    """Each field a caller sets (not ``from_env``'s bookkeeping) has a row, besides the two
    mappings (``endpoints``, ``providers``: the per-backend rows); the row's variable is the one
    ``from_env`` reads into that field."""
    import dataclasses

    rows = _shared_rows()
    fields = {field.name for field in dataclasses.fields(ws.Settings) if field.repr} - {"endpoints", "providers"}
    assert set(rows) == fields
    for field, (variable, _) in rows.items():
        sample = _SAMPLES.get(field, "7")
        read = getattr(ws.Settings.from_env({variable: sample}), field)
        assert read not in (None, False, "") and read != getattr(ws.Settings(), field), (variable, field, read)


@pytest.mark.parametrize("field", ["timeout_ms", "max_results", "tool_max_results", "max_pages", "max_response_bytes"])
def test_a_numbers_row_states_its_default_and_range(field, caplog):
    """The row's default is the field's; its range is the one the variable is read in (an edge
    value is kept, one past it logged and left at the default) and the one ``Settings`` checks."""
    variable, meaning = _shared_rows()[field]
    default = getattr(ws.Settings(), field)
    assert int(re.search(r"default (\d+)", meaning).group(1)) == default
    bounds = re.search(r"(\d+)\.\.(\d+)|max (\d+)|at least (\d+)", meaning).groups()
    low = int(bounds[0] or bounds[3] or 1)
    high = int(bounds[1] or bounds[2]) if (bounds[1] or bounds[2]) else None
    edges = [(low, low), (low - 1, default)] + ([(high, high), (high + 1, default)] if high else [])
    for given, kept in edges:
        assert getattr(ws.Settings.from_env({variable: str(given)}), field) == kept, (variable, given)
        if kept != given:
            with pytest.raises(ws.InvalidInput):
                ws.Settings(**{field: given})


def test_the_pace_row_states_its_range():
    """``min_interval_s``'s row: the range ``Settings`` checks (a number or a per-backend mapping)
    and the environment keeps (the edges kept, a half second past them ignored)."""
    variable, meaning = _shared_rows()["min_interval_s"]
    low, high = map(int, re.search(r"outside (\d+)\.\.(\d+) is `InvalidInput\(bad_min_interval_s\)`", meaning).groups())
    for edge in (low, high):
        assert ws.Settings(min_interval_s=edge).min_interval_s == edge
        assert ws.Settings(min_interval_s={"searxng": edge}).min_interval_s == {"searxng": edge}
        assert ws.Settings.from_env({variable: str(edge)}).min_interval_s == edge
    for past in (low - 0.5, high + 0.5):
        for given in (past, {"searxng": past}):
            with pytest.raises(ws.InvalidInput) as refused:
                ws.Settings(min_interval_s=given)
            assert refused.value.detail_code == "bad_min_interval_s"
        for read in (variable, variable + "_SEARXNG"):
            assert ws.Settings.from_env({read: str(past)}).min_interval_s is None, (read, past)  # ignored


#: What the pace row calls a group of backends, by what they declare.
_PACED_GROUPS = {"the HTML scrapers": lambda cls: cls.kind == "html"}


def test_the_pace_row_states_each_backends_own_pace():
    """``Unset: each backend's own (1 s for ..., 1.5 s for Jina, ..., else none``: each backend's
    declared ``min_interval_s``, a group (the HTML scrapers) by what its backends declare."""
    from websearch_sync.engine import registry

    _, meaning = _shared_rows()["min_interval_s"]
    own = re.search(r"Unset: each backend's own \((.*?), else none;", meaning).group(1)
    written: dict = {}
    for seconds, subjects in re.findall(r"(\d+(?:\.\d+)?) s for (.*?)(?=, \d|$)", own):
        for subject in re.split(r", | and ", subjects):
            group = _PACED_GROUPS.get(subject)
            named = [
                n
                for n in registry.backend_names()
                if (group(registry.backend_class(n)) if group else n == subject.lower())
            ]
            assert named, subject  # a backend or a group the test knows
            written.update(dict.fromkeys(named, float(seconds)))
    declared = {name: registry.backend_class(name).min_interval_s for name in registry.backend_names()}
    assert len(written) > 8
    assert {name: written.get(name, 0.0) for name in declared} == declared


def test_the_state_prefix_row_states_its_length_and_characters():
    """``1..64 of `A-Z a-z 0-9 _ . : -```: the lengths and characters the prefix is checked for."""
    from websearch_sync.config import check_state_prefix

    _, meaning = _shared_rows()["state_prefix"]
    low, high, characters = re.search(r"(\d+)\.\.(\d+) of `([^`]*)`", meaning).groups()
    listed = characters.split()
    assert listed[:3] == ["A-Z", "a-z", "0-9"]
    every = "AZaz09" + "".join(listed[3:])
    assert check_state_prefix(every) == every
    for length in (int(low), int(high)):
        assert check_state_prefix("p" * length) == "p" * length
    for refused in ("p" * (int(high) + 1), "p/q", "p q"):
        with pytest.raises(ws.InvalidInput) as caught:
            check_state_prefix(refused)
        assert caught.value.detail_code == "bad_state_prefix"


# -- docs/backends.md: the inputs a backend does not send -------------------------------------------


#: A clause of the not-sent table naming one input an engine never sends (``Backend.unsent``), as
#: the table spells it: ``time_range="year"`` for one value, a region-only locale parameter's phrase.
_NEVER_SENT = re.compile(r'^`(\w+(?:\.\w+)?)(?:="(\w+)")?`$|^a locale without a country$')


def _never_sent(clause: str) -> str | None:
    """The ``Backend.unsent`` entry a clause of the table names, or None for a clause that says
    when (``… when the region is no country``, ``max_results over 20``, ``such a part``)."""
    found = _NEVER_SENT.match(clause)
    if found is None:
        return None
    if found.group(1) is None:
        return "locale=language-only"
    return found.group(1) + ("=" + found.group(2) if found.group(2) else "")


def _clauses_of(cell: str) -> list[str]:
    """A cell's clauses, its parenthesized remarks left out: ``a; b, c`` is ``[a, b, c]``."""
    while re.search(r"\([^()]*\)", cell):
        cell = re.sub(r"\s*\([^()]*\)", "", cell)
    return [clause.strip() for clause in re.split(r"[;,]", cell) if clause.strip()]


def test_the_not_sent_table_names_what_each_engine_declares_unsent():
    """Each engine's row of the table (by name and vertical) names as never sent exactly the inputs
    it declares unsent (``Backend.unsent``), both ways; a clause saying when (a value, a limit) is
    an engine's :meth:`~Backend.dropped` or its ``max_results_limit``. An engine without a row
    declares none."""
    from websearch_sync.engine import registry
    from websearch_sync.engine.base import Backend

    text = (ROOT / "docs" / "backends.md").read_text(encoding="utf-8")
    table = text.split("| backend | vertical | not sent |", 1)[1].split("\n\n", 1)[0]
    cells: dict = {}
    for names, verticals, cell in re.findall(r"^\| (`[^|]*`) \| ([a-z, ]+) \| (.*) \|$", table, re.M):
        for name in re.findall(r"`(\w+)`", names):
            for vertical in verticals.split(", "):
                cells[name, vertical] = _clauses_of(cell)
    engines = {
        (name, vertical): registry.backend_class(name, vertical)
        for name in registry.backend_names()
        for vertical in registry.verticals_of(name)
    }
    assert len(cells) > 20 and sum(bool(engine.unsent) for engine in engines.values()) > 15  # both were read
    assert {name for name, _ in cells} <= set(registry.backend_names())  # a row of two names: each's verticals
    wrong = {}
    for key, engine in engines.items():
        clauses = cells.get(key, [])
        written = {_never_sent(clause) for clause in clauses} - {None}
        if written != set(engine.unsent):
            wrong[key] = (sorted(written), sorted(engine.unsent))
        for clause in (clause for clause in clauses if _never_sent(clause) is None):
            limit = re.fullmatch(r"`max_results` over (\d+)", clause)
            if limit is not None:
                assert engine.max_results_limit == int(limit.group(1)), (key, clause)
            else:
                assert engine.dropped is not Backend.dropped, (key, clause)  # says when: the engine decides
    assert not wrong


# -- docs/architecture.md: the layers ------------------------------------------------------------------


def test_the_layer_table_is_the_one_the_layering_test_holds():
    """docs/architecture.md's table names every unit of ``test_layering.LAYERS`` at its layer (a
    row of a range, ``0-3``, holds units of those layers), and no other unit."""
    from test_layering import LAYERS

    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    table = text.split("| layer | unit | what it does |", 1)[1].split("\n\n", 1)[0]
    written = {}
    for low, high, units in re.findall(r"^\| (\d+)(?:-(\d+))? \| ([^|]*) \|", table, re.M):
        for unit in re.findall(r"`(\w+)`", units):
            written[unit] = range(int(low), int(high or low) + 1)
    assert set(written) == set(LAYERS)
    assert not [(unit, layer) for unit, layer in LAYERS.items() if layer not in written[unit]]


def test_every_declaration_a_plugin_makes_is_in_the_plugin_section():
    """Each class attribute the registry reads as a backend's declaration (and checks, skipping a
    plugin whose value is unusable) is named in docs/backends.md's "Writing a backend" section, or
    set in its example: docs/client.md sends readers there for ``auto_rank`` and ``auto_languages``."""
    from websearch_sync.engine import registry

    section = (ROOT / "docs" / "backends.md").read_text(encoding="utf-8").split("\n## Writing a backend", 1)[1]
    declared = [name for name, _, _ in registry._DECLARATIONS + registry.JSON_DECLARATIONS + registry.HTML_DECLARATIONS]
    assert len(declared) > 20  # the declarations were read
    # in the prose, or set in the example's class
    unnamed = [
        name for name in declared if not re.search(r"`(?:Backend\.)?%s\b|^ +%s = " % (name, name), section, re.M)
    ]
    assert not unnamed


def test_the_kit_and_backend_methods_are_written_with_their_parameters():
    """Where docs/backends.md writes a function of ``websearch_sync.backends`` or a method of a
    backend with plain parameter names (`` `dig(data, path, provider)` ``), they are its own, in
    order: a plugin author reads ``page_number(params, name)`` as an option's name, where the
    function takes the backend's, for its errors."""
    from websearch_sync import backends
    from websearch_sync.backends import HtmlEngine, JsonApiEngine

    kit = {name: getattr(backends, name) for name in backends.__all__ if inspect.isfunction(getattr(backends, name))}
    methods = {
        name: member
        for cls in (JsonApiEngine, HtmlEngine)
        for name in dir(cls)
        if not name.startswith("_") and inspect.isroutine(member := getattr(cls, name))
    }
    text = (ROOT / "docs" / "backends.md").read_text(encoding="utf-8")
    checked, wrong = 0, []
    for name, written in re.findall(r"`(?:self\.|Backend\.)?(\w+)\(([\w, ]+)\)`", text):
        function = kit.get(name) or methods.get(name)
        if function is None:
            continue
        real = list(inspect.signature(function).parameters)
        if name not in kit and real[:1] in (["self"], ["cls"]):
            real = real[1:]
        written_names = [part.strip() for part in written.split(",")]
        checked += 1
        if real[: len(written_names)] != written_names:
            wrong.append("%s(%s): takes %s" % (name, written, real))
    assert checked > 15  # the names were read
    assert not wrong


def test_the_state_prefix_row_names_every_kind_of_key():
    """A prefix part named like a kind of shared key is refused: the row lists those kinds."""
    from websearch_sync.client.state.server import KINDS

    _, meaning = _shared_rows()["state_prefix"]
    written = re.search(r"named like a kind of key \(([^)]*)\)", meaning).group(1)
    assert re.findall(r"`(\w+)`", written) == list(KINDS)


def test_every_provider_setting_without_a_variable_is_named():
    """A backend setting settable in code only (``env=None``: no row of the table) is named in
    docs/configuration.md's text, beside the backend that reads it."""
    from websearch_sync.engine import registry

    text = " ".join((ROOT / "docs" / "configuration.md").read_text(encoding="utf-8").split())
    code_only = {
        (name, setting.name)
        for name in registry.backend_names()
        for setting in registry.backend_class(name).declared_settings()
        if setting.env is None and setting.name != "timeout_ms"
    }
    assert code_only and "plus `timeout_ms` for every backend" in text  # the declarations were read
    assert not [(name, key) for name, key in code_only if "`%s` for `%s`" % (key, name) not in text]


def test_every_option_search_takes_is_named_in_the_python_api_page():
    """``search()``'s common options (``validate.COMMON_OPTIONS``) are each named in docs/api.md; the
    backend-specific ones are in the option table docs/backend_tables.py writes."""
    from websearch_sync.validate import COMMON_OPTIONS

    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    assert len(COMMON_OPTIONS) > 10 and not [name for name in COMMON_OPTIONS if "`%s`" % name not in text]


@pytest.mark.parametrize(
    "shape, pages",
    [
        (ws.SearchResponse, ["api.md"]),
        (ws.SearchItem, ["api.md"]),
        (ws.ProviderMeta, ["api.md"]),
        (ws.ErrorInfo, ["api.md", "fetch.md"]),
        (ws.FetchResult, ["fetch.md"]),
    ],
    ids=lambda value: getattr(value, "__name__", ""),
)
def test_every_key_of_a_result_type_is_named_where_its_shape_is_told(shape, pages):
    """A key a result can hold (its ``TypedDict``'s) is named, as `` `key` ``, ``"key"`` or
    `` `provider_meta.key` ``, on the page that tells that shape."""
    text = " ".join((ROOT / "docs" / page).read_text(encoding="utf-8") for page in pages)
    keys = list(shape.__annotations__)
    assert len(keys) >= 3 and not [key for key in keys if not re.search(r'[`".]%s[`"]' % key, text)]


def test_the_backends_giving_one_request_only_are_the_ones_named():
    """docs/backends.md names the engines whose one request is all a search reads
    (``Backend.max_results_limit``), each backend with its verticals and that limit, as
    ``backends --json``'s ``max_results_limits`` lists them (a vertical's engine too: Startpage's images)."""
    from websearch_sync.cli.backends_cmd import results_limits
    from websearch_sync.engine import registry

    limited = {
        (name, vertical, limit) for name in registry.backend_names() for vertical, limit in results_limits(name).items()
    }
    text = " ".join((ROOT / "docs" / "backends.md").read_text(encoding="utf-8").split())
    said = re.search(r"\(`Backend\.max_results_limit`, each vertical's in [^:]*`max_results_limits`: ([^)]*)\)", text)
    named = {
        (name, vertical, int(limit))
        for name, verticals, limit in re.findall(r"`(\w+)` ([\w ]+?), (\d+)", said.group(1))
        for vertical in verticals.split(" and ")
    }
    assert named == limited and ("startpage_html", "images", 50) in named


def test_the_auto_chain_the_client_page_writes_is_the_declared_order():
    """docs/client.md's ``auto``: the API backends in their order, and the keyless chain, are the
    backends' ``auto_rank`` order (the engines for one language only, ``auto_languages``, aside)."""
    from websearch_sync.engine import registry

    ranked = sorted(
        (cls.auto_rank, name)
        for name in registry.backend_names()
        for cls in [registry.backend_class(name)]
        if cls.auto_rank is not None and not cls.auto_languages
    )
    text = " ".join((ROOT / "docs" / "client.md").read_text(encoding="utf-8").split())
    apis = re.search(r"the configured API backends \(([\w, ]+), in that order\)", text).group(1).split(", ")
    keyless = re.search(r"`auto` is the keyless chain alone: ((?:`\w+`(?: → )?)+)", text).group(1)
    assert apis + re.findall(r"`(\w+)`", keyless) == [name for _, name in ranked]


def test_every_flag_of_a_benchmark_command_is_the_scripts():
    """A ``python bench/<script>.py --flag`` the docs write names a flag that script declares
    (its argparse ``"--flag"``): a renamed flag would leave the reader with an argparse error."""
    written = set()
    for page in PAGES:
        for script, rest in re.findall(r"python (bench/\w+\.py)([^`|;)\n]*)", page.read_text(encoding="utf-8")):
            written.update((script, flag) for flag in re.findall(r"(?<![\w-])--[a-z][\w-]*", rest))
    assert len(written) > 8  # the commands were read
    assert not [(s, f) for s, f in sorted(written) if '"%s"' % f not in (ROOT / s).read_text(encoding="utf-8")]


def test_every_attribute_of_a_public_class_the_docs_write_exists():
    """`` `Class.attribute` `` in the docs, for a public class of the package (``Settings``,
    ``SearchClient``, ``Backend`` and the kit's), names an attribute it has (a field, a method, a
    declaration, a key of a result type): a renamed one would send the reader to nothing."""
    import dataclasses

    from websearch_sync import backends, models
    from websearch_sync.engine.base import Backend

    classes = {"Backend": Backend}
    for module in (ws, backends, errors, models):
        public = [getattr(module, name) for name in getattr(module, "__all__", ())]
        classes.update({value.__name__: value for value in public if inspect.isclass(value)})
    text = " ".join(page.read_text(encoding="utf-8") for page in PAGES)
    written = {pair for pair in re.findall(r"`(?:ws\.)?([A-Z]\w+)\.([a-z_]\w*)", text) if pair[0] in classes}
    assert len(written) > 10  # the names were read

    def has(cls: type, attribute: str) -> bool:
        fields = {field.name for field in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else set()
        return hasattr(cls, attribute) or attribute in fields or attribute in getattr(cls, "__annotations__", {})

    assert not ["%s.%s" % pair for pair in sorted(written) if not has(classes[pair[0]], pair[1])]


def test_the_contract_checks_default_bound_is_told_as_the_search_takes_it():
    """``assert_contract``'s default bound is the most a search of the result's vertical takes
    (``most_results``): its docstring and docs/contract.md said "50", though images take 100 (and
    videos 60)."""
    from websearch_sync.models import VERTICALS
    from websearch_sync.testing.kit import assert_contract
    from websearch_sync.validate import most_results

    bounds = {most_results(vertical) for vertical in VERTICALS}
    for text in (assert_contract.__doc__, (ROOT / "docs" / "contract.md").read_text(encoding="utf-8")):
        told = " ".join(text.split())
        said = re.search(r"`max_results`+ items? \(default([^)]*)\)|more than `max_results` \(default([^)]*)\)", told)
        assert {int(n) for n in re.findall(r"\d+", "".join(filter(None, said.groups())))} == bounds


def test_the_docs_name_the_ddg_html_engine_that_does_not_take_pageno():
    """Where docs/api.md and docs/backends.md give ``pageno`` from ``ddg_html`` as an option not
    taken, they name its web search: its news, images and videos take it now."""
    from websearch_sync.engine import registry

    untaken = [
        vertical
        for vertical in registry.verticals_of("ddg_html")
        if "pageno" not in registry.backend_class("ddg_html", vertical).option_names()
    ]
    assert untaken == ["web"]
    for page in ("api.md", "backends.md"):
        told = " ".join((ROOT / "docs" / page).read_text(encoding="utf-8").split())
        mentions = re.findall(r"`\"?pageno\"?` from `ddg_html`(\S* \w+ \w+)", told)
        assert mentions and all(mention == "'s web search" for mention in mentions), (page, mentions)
