"""A backend's settings are one declaration on its class (``provider_settings``), read by
one function: a plugin's declared setting is read from the environment and from
``Settings.providers``, typed and range-checked, refused when undeclared, and listed by
``websearch-sync backends``; the older ``env_vars``/``required`` spelling still works."""

import logging

import pytest
from backend_kit import registered

import websearch_sync as ws
from websearch_sync.backends import Backend
from websearch_sync.cli.backends_cmd import backend_rows
from websearch_sync.engine import registry
from websearch_sync.engine.setting import Setting, read_settings


class Paged(Backend):
    name = "plugin_paged"
    kind = "json"
    default_endpoint = "https://paged.example/search"
    provider_settings = (
        Setting("api_key", env="PAGED_API_KEY", required=True),
        Setting("page_size", env="PAGED_PAGE_SIZE", kind="int", minimum=10, maximum=100),
        Setting("region", env="PAGED_REGION"),
    )


class Legacy(Backend):
    """A plugin written before ``provider_settings``: ``env_vars`` and ``required``."""

    name = "plugin_legacy"
    kind = "json"
    default_endpoint = "https://legacy.example/search"
    env_vars = {"api_key": "LEGACY_API_KEY", "timeout_ms": "LEGACY_TIMEOUT_MS"}
    required = ("api_key",)


@pytest.fixture
def plugins():
    with registered(Paged, Legacy):
        yield


def refused(call, *words):
    with pytest.raises(ws.InvalidInput) as info:
        call()
    assert info.value.detail_code == "bad_setting", info.value
    for word in words:
        assert word in info.value.message, (word, info.value.message)


def test_a_declared_int_setting_is_read_from_the_environment_as_a_number(plugins):
    environ = {"PAGED_API_KEY": "k-1234", "PAGED_PAGE_SIZE": "25", "PAGED_REGION": " eu "}
    settings = ws.Settings.from_env(environ=environ)
    assert settings.provider("plugin_paged") == {"api_key": "k-1234", "page_size": 25, "region": "eu"}
    assert Paged(settings).is_configured()


@pytest.mark.parametrize("text", ["9", "101", "twenty", "2.5"])
def test_an_int_out_of_its_range_in_the_environment_is_logged_and_ignored(plugins, caplog, text):
    with caplog.at_level(logging.WARNING, logger="websearch_sync"):
        settings = ws.Settings.from_env(environ={"PAGED_PAGE_SIZE": text})
    assert "page_size" not in settings.provider("plugin_paged")
    assert "PAGED_PAGE_SIZE" in caplog.text and "10..100" in caplog.text


@pytest.mark.parametrize("value", [9, 101, "25", 2.5, True])
def test_an_int_of_the_wrong_kind_or_range_in_code_is_refused_naming_where_it_is_set(plugins, value):
    refused(
        lambda: ws.Settings(providers={"plugin_paged": {"page_size": value}}),
        "Settings.providers['plugin_paged']['page_size'] (PAGED_PAGE_SIZE)",
    )


def test_code_beats_the_environment_and_is_checked_too(plugins):
    environ = {"PAGED_PAGE_SIZE": "25"}
    chosen = ws.Settings.from_env(environ=environ, providers={"plugin_paged": {"page_size": 50}})
    assert chosen.provider("plugin_paged")["page_size"] == 50
    refused(
        lambda: ws.Settings.from_env(environ=environ, providers={"plugin_paged": {"page_size": 500}}),
        "in 10..100",
    )


def test_a_text_setting_must_be_a_string(plugins):
    refused(lambda: ws.Settings(providers={"plugin_paged": {"region": 7}}), "['region'] (PAGED_REGION)", "string")


def test_an_undeclared_key_is_refused_with_the_closest_declared_one(plugins):
    refused(
        lambda: ws.Settings(providers={"plugin_paged": {"pagesize": 20}}),
        "no setting 'pagesize'",
        "did you mean 'page_size'",
        "api_key, page_size, region, timeout_ms",
    )


def test_every_backend_reads_its_own_timeout(plugins):
    assert ws.Settings(providers={"plugin_paged": {"timeout_ms": 700}}).provider("plugin_paged") == {"timeout_ms": 700}
    refused(lambda: ws.Settings(providers={"plugin_paged": {"timeout_ms": 10**9}}), "in 1..600000")


def test_a_missing_required_secret_names_its_variable(plugins):
    with pytest.raises(ws.AuthError) as info:
        Paged(ws.Settings()).check_configured()
    assert info.value.detail_code == "missing_api_key" and "PAGED_API_KEY" in info.value.message


def test_the_backends_command_lists_the_declared_variables(plugins):
    row = next(row for row in backend_rows(ws.Settings()) if row["name"] == "plugin_paged")
    assert row["env"] == ["PAGED_API_KEY", "PAGED_PAGE_SIZE", "PAGED_REGION", "WEB_SEARCH_ENDPOINT_PLUGIN_PAGED"]
    assert row["missing"] == ["PAGED_API_KEY"] and row["configured"] is False


def test_the_registry_round_trip(plugins, caplog):
    """Registered: its variables are read and its section checked; unregistered: its variables
    are not read, and a section for it is refused (a typo of a backend's name reads the same)."""
    environ = {"PAGED_PAGE_SIZE": "30"}
    assert ws.Settings.from_env(environ=environ).provider("plugin_paged") == {"page_size": 30}
    registry.unregister("plugin_paged")
    try:
        assert ws.Settings.from_env(environ=environ).provider("plugin_paged") == {}
        with pytest.raises(ws.InvalidInput, match="'plugin_paged'") as info:
            ws.Settings(providers={"plugin_paged": {"page_size": 20}})
        assert info.value.detail_code == "unknown_backend" and "register" in info.value.message
    finally:
        registry.register(Paged)


def test_the_older_spelling_becomes_the_same_declaration(plugins):
    declared = {s.name: s for s in Legacy.declared_settings()}
    assert declared["api_key"] == Setting("api_key", env="LEGACY_API_KEY", required=True)
    assert declared["timeout_ms"] == Setting("timeout_ms", env="LEGACY_TIMEOUT_MS", kind="int")
    settings = ws.Settings.from_env(environ={"LEGACY_API_KEY": "k-1234", "LEGACY_TIMEOUT_MS": "900"})
    assert settings.provider("plugin_legacy") == {"api_key": "k-1234", "timeout_ms": 900}
    assert Legacy(settings).timeout_ms() == 900
    refused(lambda: ws.Settings(providers={"plugin_legacy": {"api-key": "x"}}), "did you mean 'api_key'")
    with pytest.raises(ws.AuthError, match="LEGACY_API_KEY"):
        Legacy(ws.Settings()).check_configured()


def test_a_subclass_in_the_older_spelling_overrides_its_parents_declaration():
    class MyBrave(registry.backend_class("brave")):
        name = "plugin_mybrave"
        env_vars = {"api_key": "MY_BRAVE_KEY"}

    assert MyBrave.setting("api_key").env == "MY_BRAVE_KEY"
    assert registry.backend_class("brave").setting("api_key").env == "BRAVE_API_KEY"


@pytest.mark.parametrize(
    "declaration",
    [
        [Setting("api_key")],  # a list, not a tuple
        (Setting("a"), Setting("a", kind="int")),  # one name twice
        ({"name": "api_key"},),  # not a Setting
    ],
)
def test_an_unusable_declaration_is_a_declaration_problem(declaration):
    cls = type("Bad", (Backend,), {"name": "plugin_bad", "provider_settings": declaration})
    assert "provider_settings" in registry.declaration_problem(cls)


@pytest.mark.parametrize("kwargs", [{"kind": "float"}, {"env": ""}, {"name": ""}])
def test_a_malformed_setting_is_refused_when_declared(kwargs):
    with pytest.raises(TypeError):
        Setting(**{"name": "x", **kwargs})


def test_read_settings_is_the_one_reading():
    declared = (Setting("size", env="SIZE", kind="int", maximum=5), Setting("mode", env="MODE"))
    assert read_settings("b", declared, {"mode": "fast"}, {"SIZE": "3", "MODE": "slow"}) == {"size": 3, "mode": "fast"}
    assert read_settings("b", declared, {"size": None}) == {"size": None}
