"""A plugin backend's errors reach a caller, a response's ``errors``, a tool or MCP result: neither a
long message's cut nor a plugin's own attributes may show the backend's key there."""

import json
import warnings

import pytest

import websearch_sync as ws
from websearch_sync.backends.stub import OfflineResultsWarning
from websearch_sync.engine.base import Backend
from websearch_sync.engine.registry import register, unregister
from websearch_sync.errors import MAX_MESSAGE_CHARS, clipped
from websearch_sync.net.transport import RequestSpec
from websearch_sync.testing import MockResponse, MockWire

KEY = "sk-LIVE-0123456789abcdefghijklmnopqrstuv"


class _KeyedPlugin(Backend):
    kind = "json"
    summary = "plugin sending a key"
    default_endpoint = "https://api.plugin.example/s"

    def build_request(self, params):
        return RequestSpec("GET", self.endpoint_url(), params={"q": params.full_query, "key": self.config["api_key"]})


class Quoting(_KeyedPlugin):
    """Quotes its upstream's answer, which echoes the refused key, in its error."""

    name = "quoting"
    env_vars = {"api_key": "QUOTING_API_KEY"}

    def parse(self, response, params):
        raise ws.AuthError("upstream said: " + response.content.decode(), provider=self.name)


class SignedLinkExpired(ws.BadGateway):
    """A plugin's own error keeping its request's signed URL and a page object as ``url`` and ``page``."""

    def __init__(self, message, *, url, page, **details):
        super().__init__(message, **details)
        self.url = url
        self.page = page


class Signed(_KeyedPlugin):
    name = "signed"
    env_vars = {"api_key": "SIGNED_API_KEY"}

    def parse(self, response, params):
        raise SignedLinkExpired(
            "link expired", url=response.url, page=object(), provider=self.name, detail_code="http_503", status=503
        )


@pytest.fixture
def plugins():
    register(Quoting)
    register(Signed)
    yield ws.Settings(providers={"quoting": {"api_key": KEY}, "signed": {"api_key": KEY}})
    unregister(Quoting.name)
    unregister(Signed.name)


def _wire(body: bytes) -> MockWire:
    return MockWire(lambda request: MockResponse(200, {"Content-Type": "application/json"}, body))


def test_a_long_message_quoting_the_key_is_masked_before_it_is_cut(plugins):
    """The cut came first, where the key stood, and the redaction of whole keys then missed its start
    (``sk-LIVE-012345678 ... [524 characters left out]``). The key is placed across the cut's start,
    wherever :func:`~websearch_sync.errors.clipped` puts it."""
    total = 3 * MAX_MESSAGE_CHARS  # the message's length: the cut's place depends on it alone
    kept = clipped("x" * total, MAX_MESSAGE_CHARS).index(" ")  # the characters kept before the marker
    said, words = "upstream said: ", " invalid key "
    body = "x" * (kept - 10 - len(said) - len(words)) + words + KEY + " "
    body += "y" * (total - len(said) - len(body))
    assert (said + body).index(KEY) == kept - 10  # the key straddles the cut
    with ws.SearchClient("quoting", settings=plugins, wire=_wire(body.encode()), retries=0) as client:
        with pytest.raises(ws.AuthError) as caught:
            client.search("q")
    message = caught.value.message
    assert "sk-" not in message and KEY[:8] not in repr(caught.value)
    assert message.startswith("upstream said: xxx") and message.endswith("yyy") and len(message) <= MAX_MESSAGE_CHARS


def test_a_plugin_errors_own_url_and_page_stay_out_of_its_form_and_repr(plugins):
    """to_dict() and repr() read any attribute named url, page or engine: a signed URL holding the key
    reached a response's ``errors``, and a page object broke ``json.dumps`` of the response."""
    with ws.SearchClient(["signed", "stub"], settings=plugins, wire=_wire(b"{}"), retries=0) as client:
        with warnings.catch_warnings():  # the stub's, said once a process
            warnings.simplefilter("ignore", OfflineResultsWarning)
            response = client.search("q", max_results=1)
        with ws.SearchClient("signed", settings=plugins, wire=_wire(b"{}"), retries=0) as alone:
            with pytest.raises(SignedLinkExpired) as caught:
                alone.search("q")
    assert [sorted(entry) for entry in response["errors"]] == [
        ["detail_code", "message", "provider", "retryable", "type"]
    ]
    assert KEY not in json.dumps(response) and KEY not in repr(caught.value)
    assert (
        repr(caught.value) == "SignedLinkExpired('link expired', provider='signed', detail_code='http_503', status=503)"
    )


@pytest.mark.parametrize("key, value", [("page", "2"), ("page", True), ("url", 5), ("engine", None)])
def test_an_error_form_with_a_wrong_typed_key_is_refused(key, value):
    """A form's engine and url are text, its page a number: they are what to_dict() gives back."""
    with pytest.raises(TypeError, match=key):
        ws.errors.error_from_code("BadGateway", "m", **{key: value})
