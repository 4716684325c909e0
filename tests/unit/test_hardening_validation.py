"""Hardening, part 3: validation patterns match the whole value.

``re.match`` with ``^...$`` accepts a value with a trailing newline (``$`` matches before a
final ``\\n``): ``trace_id="abc\\n"`` went out as a header, ``locale="en\\n"`` into a request.
"""

import pytest
import responses
from fixture_backends import HtmlTestBackend

import websearch_sync as ws
from websearch_sync.contract.recording import record_case
from websearch_sync.engine.registry import register, unregister
from websearch_sync.net.urls import dedupe_key


@pytest.mark.parametrize(
    "option, value",
    [
        ("trace_id", "abc\n"),
        ("trace_id", "abc\r\n"),
        ("locale", "en\n"),
        ("lang", "de-DE\n"),
        ("site_filter", "example.com\n"),
        ("site_filter", "example.com/docs\n"),
    ],
)
def test_a_trailing_newline_is_invalid_input_before_sending(option, value):
    settings = ws.Settings(providers={"service": {"url": "https://gw.example/search", "api_key": "k-123456"}})
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        mock.add(responses.POST, "https://gw.example/search", json={"search_results": []})
        with pytest.raises(ws.InvalidInput) as info:
            ws.search("q", backend="service", settings=settings, retries=0, **{option: value})
        assert len(mock.calls) == 0
    assert info.value.detail_code == "bad_%s" % ("locale" if option == "lang" else option)


@pytest.mark.parametrize(
    "option, value", [("trace_id", "abc-123"), ("locale", "en-US"), ("site_filter", "example.com/docs")]
)
def test_the_same_values_without_the_newline_still_pass(option, value):
    settings = ws.Settings(providers={"service": {"url": "https://gw.example/search", "api_key": "k-123456"}})
    with responses.RequestsMock() as mock:
        mock.add(responses.POST, "https://gw.example/search", json={"search_results": []})
        assert ws.search("q", backend="service", settings=settings, retries=0, **{option: value})["items"] == []


def test_a_case_name_with_a_trailing_newline_is_refused(tmp_path):
    register(HtmlTestBackend)
    try:
        with pytest.raises(ws.InvalidInput) as info:
            record_case("testhtml", "q", fixtures_dir=tmp_path, name="one\n")
    finally:
        unregister(HtmlTestBackend.name)
    assert info.value.detail_code == "bad_case_name"
    assert not any(tmp_path.iterdir())


def test_a_tracking_parameter_name_is_matched_whole():
    assert dedupe_key("https://a.example/p?utm_source=x") == dedupe_key("https://a.example/p")
    assert dedupe_key("https://a.example/p?utm_source%0A=x") != dedupe_key("https://a.example/p")
