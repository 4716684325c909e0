"""The package's errors as a batch job or a service handles them: pickled (``multiprocessing`` and
``concurrent.futures`` send a worker's exception back that way), copied and printed. An exception
class whose ``__init__`` takes other arguments than its message is the classic failure: Python's
default pickle calls it with the message alone, so unpickling raises ``TypeError`` or the like, and a
process pool breaks (``BrokenProcessPool``) instead of giving the job its error back. Every class a
caller can get is checked, found as test_error_table finds them; a new one needs an example here."""

import copy
import json
import pickle
import warnings
from typing import Any, Callable

import pytest
from test_error_table import INTERNAL, _exception_classes

import websearch_sync as ws
from websearch_sync import tool
from websearch_sync.backends.searxng_failures import EngineBlocked, EngineError, EngineTimeout
from websearch_sync.backends.stub import OfflineResultsWarning
from websearch_sync.engine.base import Backend
from websearch_sync.engine.registry import register, unregister
from websearch_sync.errors import MAX_MESSAGE_CHARS, RenewalFailed, StdoutClaimed, WebSearchError, error_from_code
from websearch_sync.net.transport import RequestSpec
from websearch_sync.testing import MockResponse, MockWire, fake_results
from websearch_sync.testing.kit import NetworkAccessBlocked


def _chain(cls: type[WebSearchError]) -> WebSearchError:
    """An error of ``cls`` with every attribute set, as a fallback chain raises it."""
    return cls(
        "ddg_html failed",
        provider="ddg_html",
        detail_code="http_503",
        status=503,
        retryable=True,
        retry_after=2.5,
        hint="try later",
        errors=[
            ws.WebBlocked("wall", provider="bing_html", detail_code="captcha_required"),
            EngineTimeout("slow", engine="google", provider="searxng", detail_code="engine_timeout"),
        ],
    )


#: An example of each exception class a caller can get (a row of docs/errors.md or its subclass, a warning).
EXAMPLES: dict[str, Callable[[], BaseException]] = {
    **{cls.__name__: (lambda cls=cls: _chain(cls)) for cls in (WebSearchError, *ws.errors.ERROR_CLASSES.values())},
    "NetworkAccessBlocked": lambda: NetworkAccessBlocked("a test tried to reach example.com"),
    "EngineBlocked": lambda: EngineBlocked("blocked", engine="bing", provider="searxng", retry_after=3600.0),
    "EngineError": lambda: EngineError("failed", engine="qwant", provider="searxng", detail_code="engine_error"),
    "EngineTimeout": lambda: EngineTimeout("slow", engine="google", provider="searxng"),
    "StdoutClaimed": lambda: StdoutClaimed("another thread's command holds stdout"),
    "OfflineResultsWarning": lambda: OfflineResultsWarning("results of the offline stub"),
    "UrlTooLong": lambda: ws.UrlTooLong("url is 8193 characters long; the limit is 8192", detail_code="bad_url"),
    "RenewalFailed": lambda: RenewalFailed([("Cache._lock", OSError(24, "Too many open files")), ("f", KeyError("k"))]),
}


def _state(value: Any) -> Any:
    """What a caller reads of ``value``: an exception's type, ``str``, ``args`` and attributes (those
    that are exceptions compared the same way: exceptions compare by identity), lists and tuples
    item by item."""
    if isinstance(value, BaseException):
        return (type(value), str(value), _state(value.args), {k: _state(v) for k, v in vars(value).items()})
    if isinstance(value, (list, tuple)):
        return type(value)(_state(item) for item in value)
    return value


#: Classes checked where their framework is imported anyway (by name: this process may not import it).
CHECKED_ELSEWHERE = {"WebToolError": "tests/sockets/test_integrations_smolagents.py (needs smolagents)"}


def test_every_error_class_a_caller_can_get_has_an_example():
    imported, from_source = _exception_classes()
    callers = (set(imported) | from_source) - set(INTERNAL) - set(CHECKED_ELSEWHERE)
    assert sorted(callers - set(EXAMPLES)) == []


@pytest.mark.parametrize("name", sorted(EXAMPLES))
@pytest.mark.parametrize("protocol", [2, pickle.HIGHEST_PROTOCOL])
def test_an_error_comes_back_from_a_pickle_as_it_was(name, protocol):
    error = EXAMPLES[name]()
    assert type(error).__name__ == name
    if hasattr(error, "add_note"):  # Python 3.11: notes are kept as an attribute
        error.add_note("seen by the worker")
    again = pickle.loads(pickle.dumps(error, protocol))
    assert _state(again) == _state(error)
    if isinstance(error, WebSearchError):
        assert (again.code, again.retryable, again.to_dict()) == (error.code, error.retryable, error.to_dict())


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_an_errors_copies_are_the_same_error(name):
    error = EXAMPLES[name]()
    for made in (copy.copy(error), copy.deepcopy(error)):
        assert type(made) is type(error) and _state(made) == _state(error)


def test_an_error_form_with_the_errors_of_a_chain_is_built_back_into_the_same_error():
    """``error_from_code`` turns every key of an error form back (docs/errors.md): the chain's other
    failures were kept as dicts, so ``str(error)`` raised ``AttributeError`` and ``to_dict()`` too,
    and a SearXNG engine's ``engine`` (or a response entry's ``url``, ``page``) was a ``TypeError``."""
    error = _chain(ws.WebProviderError)
    error.errors.append(EngineBlocked("blocked", engine="bing", provider="searxng", retry_after=3600.0))
    form = error.to_dict()
    again = error_from_code(
        form["type"], form["message"], **{k: v for k, v in form.items() if k not in ("type", "message")}
    )
    error.hint = None  # str() shows a hint, which no form carries
    assert (again.to_dict(), str(again)) == (form, str(error))
    assert [type(other) for other in again.errors] == [ws.WebBlocked, ws.Timeout, ws.WebBlocked]
    entry = {
        "type": "WebParseError",
        "message": "pages 3 and 4 left out",
        "retryable": False,
        "detail_code": "pdf_pages_left_out",
        "provider": "fetch",
        "url": "https://example.com/a.pdf",
        "page": 2,
    }
    rest = {k: v for k, v in entry.items() if k not in ("type", "message")}
    assert error_from_code(entry["type"], entry["message"], **rest).to_dict() == entry


@pytest.mark.parametrize(
    "call",
    [
        lambda huge: ws.Settings(backend=huge),
        lambda huge: ws.Settings(providers={"brave": {huge: 1}}),
        lambda huge: ws.SearchClient(strategy=huge),
    ],
    ids=["backend", "provider_setting", "strategy"],
)
def test_a_message_quoting_a_huge_value_is_bounded(call):
    """A hundred kilobytes the caller gave, quoted back (twice, for ``Settings.backend``), made a message, a
    ``repr``, a log line and a pickle as large; the message keeps its start and its end."""
    huge = "x" * 100_000
    with pytest.raises(ws.InvalidInput) as caught:
        call(huge)
    error = caught.value
    assert MAX_MESSAGE_CHARS - 1 <= len(error.message) <= MAX_MESSAGE_CHARS
    assert (str(error), error.args, error.to_dict()["message"]) == (error.message, (error.message,), error.message)
    assert len(repr(error)) < MAX_MESSAGE_CHARS + 150 and "characters left out" in error.message


def test_a_huge_extract_mode_is_quoted_by_its_start():
    """extract_mode is checked as every enumerated value is (``check_choice``): a refused value is
    quoted by its start, so the message stays short, under the bound the other messages are cut to."""
    with pytest.raises(ws.InvalidInput) as caught:
        ws.fetch("https://example.com/", extract_mode="x" * 100_000)
    assert caught.value.message.startswith("extract_mode must be one of markdown, text, got 'xxxx")
    assert len(caught.value.message) < 200 and len(repr(caught.value)) < 400


def test_a_long_message_keeps_its_start_its_end_and_says_how_much_is_left_out():
    """A message of 2,001 characters came out 2,033 long: the cut text is at most the cap (2,000),
    its two ends as long as the marker leaves room for; a text that fits is left alone."""
    text = "start " + "y" * 10_000 + " end"
    assert ws.WebProviderError(text).message == text[:981] + " ... [8048 characters left out] ... " + text[-981:]
    one_over = "z" * (MAX_MESSAGE_CHARS + 1)
    assert ws.WebProviderError(one_over).message == "z" * 982 + " ... [37 characters left out] ... " + "z" * 982
    assert ws.WebProviderError(text[:MAX_MESSAGE_CHARS]).message == text[:MAX_MESSAGE_CHARS]


def test_a_cut_message_extended_later_counts_what_the_whole_leaves_out():
    """``error.message += ...`` read the cut message and cut it again: the count said 51, not 8,065."""
    text = "start " + "y" * 10_000 + " end"
    error = ws.WebProviderError(text)
    error.message += "; not asked: bing"
    assert error.message == text[:981] + " ... [8065 characters left out] ... " + (text + "; not asked: bing")[-981:]


def test_an_error_built_again_from_a_cut_messages_form_gives_the_same_form():
    """The cut message was cut again (a count of 37 where the first said 98,010)."""
    error = ws.WebProviderError("start " + "y" * 100_000 + " end", provider="p")
    form = dict(error.to_dict())
    again = error_from_code(form.pop("type"), form.pop("message"), **form)
    assert again.to_dict() == error.to_dict() and "[98048 characters left out]" in again.message


def test_a_message_quoting_a_value_with_line_breaks_is_one_line(tmp_path):
    """A cache path with a line break was quoted as it is: the error took two lines of a log or a
    batch job's report. Every break ``str.splitlines`` knows is written as ``repr`` writes it."""
    with pytest.raises(ws.InvalidInput) as caught:
        ws.SearchClient(cache_path=str(tmp_path / "missing\nfolder" / "cache.db"))
    assert str(caught.value).splitlines() == [str(caught.value)] and "missing\\nfolder" in str(caught.value)
    breaks = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"
    assert ws.WebProviderError("a%sb" % breaks).message == "a%sb" % repr(breaks)[1:-1]


def test_a_message_assigned_later_is_one_line_too():
    """Backends reword an error after making it (``error.message += upstream``): the rule held in
    ``__init__`` only, so those messages kept their line breaks, and ``args`` lagged behind."""
    error = ws.BadGateway("gateway failed")
    error.message += ": upstream said\r\nbusy"
    line = "gateway failed: upstream said\\r\\nbusy"
    assert (error.message, error.args, str(error)) == (line, (line,), line)


@pytest.mark.parametrize("cls", [WebSearchError, *ws.errors.ERROR_CLASSES.values()], ids=lambda cls: cls.__name__)
def test_an_errors_repr_is_the_call_that_makes_it(cls):
    """``repr`` named the message, provider, detail code and status only: a batch job's list of
    failures did not show ``retry_after``, a ``retryable`` that is not the default, the ``hint`` nor
    the chain's other failures (nor an engine's name)."""
    error = _chain(cls)
    assert _state(eval(repr(error), {**vars(ws), "EngineTimeout": EngineTimeout})) == _state(error)
    assert repr(cls("m")) == "%s('m')" % cls.__name__


class _LegacyError(ws.BadGateway):
    """A plugin's error written before WebSearchError's keyword arguments: it sets the documented
    attributes itself and never calls ``super().__init__``."""

    def __init__(self, message: str) -> None:
        Exception.__init__(self, message)
        self.message = message
        self.provider = "legacy"
        self.detail_code = "http_503"
        self.status = 503
        self.retryable = True
        self.retry_after = None
        self.errors = []
        self.hint = None


class _BareError(ws.BadGateway):
    """A plugin's error that sets nothing but Exception's arguments."""

    def __init__(self, message: str) -> None:
        Exception.__init__(self, message)


class _Legacy(Backend):
    name = "legacy"
    kind = "json"
    summary = "plugin raising its own error class"
    default_endpoint = "https://api.legacy.example/s"
    error_class: type[Exception] = _LegacyError

    def build_request(self, params):
        return RequestSpec("GET", self.endpoint_url(), params={"q": params.full_query})

    def parse(self, response, params):
        raise self.error_class("down\nhard")


@pytest.mark.parametrize(
    "error_class, detail_code", [(_LegacyError, "http_503"), (_BareError, None)], ids=["own_attributes", "none"]
)
def test_a_plugins_error_that_skips_the_base_init_is_reported_in_the_response(error_class, detail_code):
    """AttributeError (no ``_form_only``, then no ``provider``) escaped search() instead of the
    fallback chain going on to the next backend and listing the failure."""
    register(type("Legacy", (_Legacy,), {"error_class": error_class}))
    try:
        wire = MockWire(lambda request: MockResponse(200, {"Content-Type": "application/json"}, b"{}"))
        with ws.SearchClient(["legacy", "stub"], wire=wire, retries=0) as client:
            with warnings.catch_warnings():  # the stub's, said once a process
                warnings.simplefilter("ignore", OfflineResultsWarning)
                response = client.search("q", max_results=1)
    finally:
        unregister(_Legacy.name)
    assert response["errors"] == [
        {
            "type": "BadGateway",
            "message": "down\\nhard",
            "retryable": True,
            "detail_code": detail_code,
            "provider": "legacy",
        }
    ]


def test_a_pickled_error_sends_its_message_as_shown_not_its_whole_text():
    """A worker's error sends its message as shown, once: the whole text would send a megabyte back
    to the pool's caller, and the message read twice (arguments and state) was pickled twice."""
    error = ws.WebProviderError("start " + "y" * 100_000 + " end")
    sent = pickle.dumps(error)
    assert len(sent) < 3000 and pickle.loads(sent).message == error.message


def test_an_errors_copy_has_its_own_form_keys():
    """copy.copy shared the original's mapping of a form's keys: changing the copy's changed both."""
    error = error_from_code("WebProviderError", "m", url="https://a.example/", page=2)
    made = copy.copy(error)
    made._form_only["url"] = "https://b.example/"
    assert error.to_dict()["url"] == "https://a.example/" and made.to_dict()["url"] == "https://b.example/"


class _VendorError(ws.WebProviderError):
    """A plugin's error with a property whose getter has a bug (it reads an attribute never set)."""

    @property
    def vendor_code(self):
        return self.raw["code"]


@pytest.mark.parametrize("made", [_VendorError("m", provider="x"), _VendorError.__new__(_VendorError)])
def test_an_attribute_error_inside_an_errors_property_is_its_own(made):
    """The defaults' ``__getattr__`` hid it: a bug inside the property read as "no attribute 'vendor_code'"."""
    with pytest.raises(AttributeError, match="has no attribute 'raw'"):
        made.vendor_code  # noqa: B018
    with pytest.raises(AttributeError, match="has no attribute 'nothing'"):
        made.nothing  # noqa: B018
    assert (made.retryable, made.errors) == (False, [])  # the defaults a subclass skipping __init__ reads


@pytest.mark.parametrize(
    "given, message",
    [(None, "WebParseError"), (KeyError("rows"), "'rows'"), (ValueError("bad\nrow"), "bad\\nrow"), (5, "5")],
)
def test_a_message_that_is_no_text_is_made_text(given, message):
    """Before: a plugin's ``raise WebParseError(exc)`` or ``WebParseError(None)`` kept the object as its
    message: ``str(error)`` raised ``TypeError`` (``__str__ returned non-string``) for ``None``, and
    ``call_tool``'s result held the exception, which ``json.dumps`` refused. Now it is text, as ``str()``
    makes it (``None``: the class's name), one line, in the tool's result too."""
    error = ws.WebParseError(given, provider="ddg_html")
    assert error.message == message and str(error) == message
    assert error.to_dict()["message"] == message and error.args == (message,)
    assert pickle.loads(pickle.dumps(error)).message == message
    with fake_results({"ddg_html": error}):
        result = tool.call_tool("web_search", {"query": "q"}, client=ws.SearchClient("ddg_html"))
    assert json.loads(json.dumps(result))["error"]["message"] == message


class _KeyedParser(Backend):
    """A plugin with a secret setting whose parser wraps the exception it met: ``raise WebParseError(exc)``."""

    name = "keyed_parser"
    kind = "json"
    default_endpoint = "https://api.keyed.example/search"
    env_vars = {"api_key": "KEYED_PARSER_API_KEY"}
    required = ("api_key",)

    def build_request(self, params):
        return RequestSpec("GET", self.endpoint_url(), params={"q": params.full_query})

    def parse(self, response, params):
        raise ws.WebParseError(KeyError("hits of sk-KEYED-1"), provider=self.name)


def test_a_plugins_error_of_no_text_is_redacted_and_raised_as_itself():
    """Before: with a secret set, ``search()`` raised ``TypeError: expected string or bytes-like object, got
    'KeyError'`` out of the redaction of the message, a traceback instead of the plugin's error."""
    register(_KeyedParser)
    try:
        settings = ws.Settings(providers={"keyed_parser": {"api_key": "sk-KEYED-1"}})
        wire = MockWire(lambda request: MockResponse(200, {"Content-Type": "application/json"}, b"{}"))
        with ws.SearchClient("keyed_parser", settings=settings, wire=wire, retries=0) as client:
            with pytest.raises(ws.WebParseError) as raised:
                client.search("q")
    finally:
        unregister(_KeyedParser.name)
    assert raised.value.message == "'hits of ***'"
