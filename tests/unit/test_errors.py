"""The error taxonomy."""

import pickle

import pytest

import websearch_sync as ws
from websearch_sync.errors import ERROR_CLASSES, error_from_code, redact

CODES = [
    "InvalidInput",
    "Timeout",
    "NetworkError",
    "WebBlocked",
    "AuthError",
    "BadGateway",
    "WebParseError",
    "WebProviderError",
    "ToolNotFound",
]


def test_one_subclass_per_code_exported_under_its_name():
    assert sorted(ERROR_CLASSES) == sorted(CODES)
    for code in CODES:
        cls = getattr(ws, code)
        assert issubclass(cls, ws.WebSearchError)
        assert cls.code == code


def test_attributes_and_to_dict():
    error = ws.WebBlocked("blocked", provider="ddg_html", detail_code="captcha_required", status=202)
    assert (error.code, error.message, error.provider, error.detail_code, error.status) == (
        "WebBlocked",
        "blocked",
        "ddg_html",
        "captcha_required",
        202,
    )
    assert error.to_dict() == {
        "type": "WebBlocked",
        "message": "blocked",
        "retryable": False,
        "detail_code": "captcha_required",
        "provider": "ddg_html",
    }


@pytest.mark.parametrize(
    "cls, detail, retryable",
    [
        (ws.Timeout, None, True),
        (ws.NetworkError, None, True),
        (ws.BadGateway, "http_502", True),
        (ws.WebBlocked, "http_429", True),
        (ws.WebBlocked, "captcha_required", False),
        (ws.WebBlocked, "http_403", False),
        (ws.AuthError, None, False),
        (ws.InvalidInput, None, False),
        (ws.WebParseError, None, False),
        (ws.WebProviderError, None, False),
        (ws.ToolNotFound, None, False),
    ],
)
def test_retryable_defaults(cls, detail, retryable):
    assert cls("x", detail_code=detail).retryable is retryable


def test_a_plugins_web_provider_error_setting_default_retryable_keeps_it():
    # the class's pdf_reads_busy rule replaced the default: a plugin's retryable subclass was not
    class Overloaded(ws.WebProviderError):
        default_retryable = True
        final_details = ("quota_gone",)

    assert Overloaded("x").retryable and Overloaded("x", detail_code="pdf_reads_busy").retryable
    assert not Overloaded("x", detail_code="quota_gone").retryable
    assert ws.WebProviderError("x", detail_code="pdf_reads_busy").retryable


def test_errors_survive_pickling():
    error = ws.WebBlocked("b", provider="p", detail_code="http_429", status=429, retry_after=3.0)
    copy = pickle.loads(pickle.dumps(error))
    assert (type(copy), copy.message, copy.detail_code, copy.retry_after, copy.retryable) == (
        ws.WebBlocked,
        "b",
        "http_429",
        3.0,
        True,
    )


def test_error_from_code_and_redact():
    assert isinstance(error_from_code("BadGateway", "x"), ws.BadGateway)
    assert isinstance(error_from_code("Nonsense", "x"), ws.WebProviderError)
    assert redact("key=abcd1234 and abcd1234", ["abcd1234", None, "ab"]) == "key=*** and ***"


def test_str_names_the_other_backends_that_failed():
    """A fallback chain's error reads as the whole story in a traceback: the other backends'
    failures follow the message; sub-errors of the same backend (a SearXNG instance's engines)
    are its own message's business, and ``message``/``to_dict()`` stay as they were."""
    others = [
        ws.NetworkError("no dns", provider="bing_html", detail_code="dns_error"),
        ws.WebBlocked("wall", provider="yahoo_html"),
        ws.Timeout("slow engine", provider="ddg_html", detail_code="deadline_exceeded"),
    ]
    error = ws.NetworkError("no dns", provider="ddg_html", detail_code="dns_error", errors=others, hint="try later")
    assert str(error) == "no dns; try later [also failed: bing_html (dns_error), yahoo_html (WebBlocked)]"
    assert error.message == "no dns" and "also failed" not in str(error.to_dict())
    alone = ws.WebProviderError("3 engines failed", provider="searxng", errors=[ws.Timeout("x", provider="searxng")])
    assert str(alone) == "3 engines failed"
