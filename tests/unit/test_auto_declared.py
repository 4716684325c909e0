"""``auto`` is declared by the backends themselves (``auto_rank``, ``auto_languages``), so a
third-party backend takes its place in the chain like a built-in one."""

import pytest
from backend_kit import registered

import websearch_sync as ws
from websearch_sync.backends import Backend
from websearch_sync.client.selection import auto_backends


@pytest.fixture
def declared():
    class Keyless(Backend):
        name = "plugin_keyless"
        default_endpoint = "https://keyless.example/search"
        auto_rank = 115  # between DuckDuckGo html (110) and Bing (120)

    class Keyed(Backend):
        name = "plugin_keyed"
        default_endpoint = "https://keyed.example/search"
        env_vars = {"api_key": "PLUGIN_KEYED_API_KEY"}
        required = ("api_key",)
        auto_rank = 5  # an API backend: first, but only when configured

    class Korean(Backend):
        name = "plugin_korean"
        default_endpoint = "https://ko.example/search"
        auto_rank = 101
        auto_languages = ("ko",)

    with registered(Keyless, Keyed, Korean):
        yield


def test_a_declared_backend_takes_its_rank_in_auto(declared):
    chain = auto_backends(ws.Settings())
    assert chain[:3] == ["ddg_html", "plugin_keyless", "bing_html"]
    assert "plugin_keyed" not in chain and "plugin_korean" not in chain and "wikipedia" not in chain


def test_a_configured_api_backend_comes_first(declared):
    chain = auto_backends(ws.Settings(providers={"plugin_keyed": {"api_key": "k-1234"}}))
    assert chain[0] == "plugin_keyed"


def test_a_language_bound_backend_joins_only_for_its_language(declared):
    assert auto_backends(ws.Settings(), "ko-KR")[0] == "plugin_korean"
    assert "plugin_korean" not in auto_backends(ws.Settings(), "en-US")
    assert auto_backends(ws.Settings(), "zh-CN")[0] == "baidu_html"
