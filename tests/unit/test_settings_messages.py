"""A malformed ``Settings(providers=...)`` entry is named, with the form it takes, never with
its value: ``{"brave": "<the key>"}`` (the key given where its section belongs) said only
"Settings.providers must be a mapping", which it is; and the value there is often the secret."""

import pytest

import websearch_sync as ws


def test_a_provider_section_that_is_not_a_mapping_is_named_without_its_value():
    with pytest.raises(ws.InvalidInput) as caught:
        ws.Settings(providers={"brave": "sk-secret-123"})
    error = caught.value
    assert error.detail_code == "bad_setting"
    assert error.message == (
        "Settings.providers['brave'] must be a mapping {setting: value}, such as {'api_key': ...}, got a str"
    )
    assert "sk-secret-123" not in str(error)


def test_providers_that_are_not_a_mapping_say_the_whole_form():
    with pytest.raises(ws.InvalidInput, match=r"Settings.providers must be a mapping \{backend: \{setting: value\}\}"):
        ws.Settings(providers=["brave"])


def test_a_backend_without_an_endpoint_says_where_to_set_one():
    """A plugin without ``default_endpoint`` (``endpoint = ...``, misnamed) said only "backend
    demo has no endpoint configured"."""
    from websearch_sync.backends import Backend, ParseResult, RequestSpec

    class NoEndpoint(Backend):
        name = "plugin_no_endpoint"
        kind = "json"

        def build_request(self, params):
            return RequestSpec("GET", self.endpoint_url())

        def parse(self, response, params):
            return ParseResult(items=[])

    with pytest.raises(ws.InvalidInput) as caught:
        NoEndpoint(ws.Settings()).endpoint_url()
    assert caught.value.detail_code == "not_configured"
    assert caught.value.message == (
        "backend plugin_no_endpoint has no endpoint configured: set Settings.endpoints['plugin_no_endpoint'] "
        "or WEB_SEARCH_ENDPOINT_PLUGIN_NO_ENDPOINT (a backend declares its own in default_endpoint)"
    )


@pytest.mark.parametrize("name", ["allow_private", "state_required"])
@pytest.mark.parametrize("value", ["false", "no", "0", 1, None])
def test_a_yes_no_setting_is_true_or_false_not_a_truthy_value(name, value):
    """``Settings(allow_private="false")`` was a true string: fetch read private addresses."""
    with pytest.raises(ws.InvalidInput) as info:
        ws.Settings(**{name: value})
    assert info.value.detail_code == "bad_setting" and name in str(info.value)


def test_a_yes_no_setting_assigned_later_is_checked_too():
    settings = ws.Settings()
    with pytest.raises(ws.InvalidInput) as info:
        settings.allow_private = "false"
    assert info.value.detail_code == "bad_setting" and settings.allow_private is False
    settings.allow_private = True
    assert settings.replace(allow_private=False).allow_private is False
