"""``Settings.state_prefix`` and ``Settings.user_agent`` are checked when the settings are built.

Before: ``Settings(state_prefix="a b")`` was accepted unless a state URL was given (checked only when a
client opened the shared state), and ``Settings(user_agent="a\\nb")`` was refused only at the first
request, as ``bad_header``, far from the line that set it. Now both are refused at construction, as the
other fields are, naming the field (or the variable they were read from)."""

import pytest

import websearch_sync as ws


@pytest.mark.parametrize("prefix", ["a b", "x" * 65, "a/b", "\n", "cooldown", "app:cache", 5])
def test_a_prefix_that_cannot_name_keys_is_refused_without_a_state_url(prefix):
    with pytest.raises(ws.InvalidInput) as info:
        ws.Settings(state_prefix=prefix)
    assert info.value.detail_code == "bad_state_prefix"
    assert info.value.message.startswith("Settings.state_prefix (WEB_SEARCH_STATE_PREFIX) ")


def test_the_prefix_message_says_what_is_allowed_and_clips_a_long_one():
    with pytest.raises(ws.InvalidInput) as info:
        ws.Settings(state_prefix="a b" * 10_000)
    assert "must be 1..64 characters among A-Z a-z 0-9 _ . : -" in info.value.message
    assert len(info.value.message) < 250


@pytest.mark.parametrize("prefix, kept", [("", ""), (None, ""), ("crawler", "crawler"), ("a.b:c-d_1", "a.b:c-d_1")])
def test_a_prefix_that_names_keys_is_kept(prefix, kept):
    assert ws.Settings(state_prefix=prefix).state_prefix == kept
    assert ws.Settings(state_prefix=prefix).replace(max_results=3).state_prefix == kept


def test_a_prefix_from_the_environment_is_refused_naming_the_variable():
    with pytest.raises(ws.InvalidInput) as info:
        ws.Settings.from_env({"WEB_SEARCH_STATE_PREFIX": "my app"})
    assert info.value.detail_code == "bad_state_prefix"
    assert "WEB_SEARCH_STATE_PREFIX" in info.value.message


def test_replace_checks_the_prefix():
    with pytest.raises(ws.InvalidInput) as info:
        ws.Settings().replace(state_prefix="a b")
    assert info.value.detail_code == "bad_state_prefix"


@pytest.mark.parametrize(
    "agent, said",
    [
        ("a\nb", "the control character '\\n'"),
        ("a\r\nX-Injected: 1", "the control character '\\r'"),
        ("bot\x00", "the control character '\\x00'"),
        ("bot\x01", "the control character '\\x01'"),
        ("bot\tv1", "the control character '\\t'"),
        ("bot\x7f", "the control character '\\x7f'"),
        ("bot \u20ac", "the character U+20AC at position 4, outside Latin-1"),
    ],
)
def test_a_user_agent_no_header_can_carry_is_refused_when_built(agent, said):
    with pytest.raises(ws.InvalidInput) as info:
        ws.Settings(user_agent=agent)
    assert info.value.detail_code == "bad_setting"
    assert info.value.message.startswith("Settings.user_agent cannot be sent as a User-Agent header")
    assert said in info.value.message


@pytest.mark.parametrize("agent", [b"bot", 5, ["bot"]])
def test_a_user_agent_that_is_not_text_is_refused_when_built(agent):
    with pytest.raises(ws.InvalidInput) as info:
        ws.Settings(user_agent=agent)
    assert info.value.detail_code == "bad_setting"
    assert info.value.message.startswith("Settings.user_agent must be a string")


@pytest.mark.parametrize("agent", [None, "", "my-bot/1.0 (+https://example.com/bot)", "caf\u00e9-bot/1"])
def test_a_user_agent_a_header_carries_is_kept(agent):
    assert ws.Settings(user_agent=agent).user_agent == agent


def test_a_user_agent_from_the_environment_is_refused_naming_the_variable():
    with pytest.raises(ws.InvalidInput) as info:
        ws.Settings.from_env({"WEB_SEARCH_USER_AGENT": "bot\x01v1"})
    assert info.value.detail_code == "bad_setting"
    assert info.value.message.startswith("WEB_SEARCH_USER_AGENT cannot be sent")
    # an override wins over the variable, which is then not read
    assert ws.Settings.from_env({"WEB_SEARCH_USER_AGENT": "bot\x01v1"}, user_agent="ok").user_agent == "ok"


@pytest.mark.parametrize(
    "field, detail",
    [
        ("state_url", "bad_setting"),
        ("fetch_service_key", "bad_setting"),
        ("fetch_service_url", "bad_endpoint"),  # as a URL setting holding a control character is
        ("ca_bundle", "bad_setting"),
        ("impersonate", "bad_setting"),
    ],
)
@pytest.mark.parametrize("value", [5, b"redis://h/0", ["x"]])
def test_a_text_field_given_another_type_is_refused_naming_it(field, detail, value):
    """``Settings(state_url=5)`` and ``Settings(fetch_service_key=5)`` were accepted, and then
    ``repr(settings)`` (and every error message, which masks the settings' secrets) raised a bare
    ``TypeError``: "argument of type 'int' is not iterable"; ``fetch_service_url=5`` made a fetch raise
    "RequestSpec.url must be a str"."""
    with pytest.raises(ws.InvalidInput) as info:
        ws.Settings(**{field: value})
    assert info.value.detail_code == detail
    assert info.value.message.startswith("Settings.%s " % field)
    assert "got %s" % type(value).__name__ in info.value.message


def test_an_endpoint_that_is_no_string_is_refused_naming_the_backend():
    with pytest.raises(ws.InvalidInput) as info:
        ws.Settings(endpoints={"ddg_html": 5})
    assert info.value.detail_code == "bad_endpoint"
    assert info.value.message.startswith("Settings.endpoints['ddg_html'] ")


@pytest.mark.parametrize("backend", [["stub", 5], ("stub", None)])
def test_a_backend_list_holding_no_string_is_refused_when_built(backend):
    """Accepted before, and refused only at the first search."""
    with pytest.raises(ws.InvalidInput) as info:
        ws.Settings(backend=backend)
    assert info.value.detail_code == "unknown_backend"
    assert info.value.message.startswith("Settings.backend=")
    assert "backend names must be strings" in info.value.message
