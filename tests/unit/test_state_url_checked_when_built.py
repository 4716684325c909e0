"""``Settings.state_url`` and ``Settings.impersonate`` are checked when the settings are built.

Before: ``Settings(state_url="notaurl")`` and ``Settings(impersonate="firefox")`` were accepted, and
refused only when a client was built from them (``bad_state_url``, ``bad_impersonate``), far from the
line that set them, while a bad ``proxy`` or endpoint was refused at once. Now both are refused at
construction, naming the field; read from the environment they are still left to the client, which a
``state_url=`` (or ``--state-url``, ``--impersonate``) of its own may replace."""

import pytest

import websearch_sync as ws


@pytest.mark.parametrize(
    "url, said",
    [
        ("notaurl", "its scheme must be redis://, rediss:// or unix://"),
        ("http://127.0.0.1:6379/0", "its scheme must be redis://, rediss:// or unix://"),
        ("redis://h/0?bogus=1", "unknown option 'bogus'"),
        ("redis://h/zero", "its path must be a database number"),
        ("redis://h:0/0", "port 0 names no server"),
        ("redis://h/0?ssl_cert_reqs=none", "ssl_cert_reqs needs TLS"),
        # redis-py connects to localhost when the host is empty: redis://${REDIS_HOST}:6379/0 with the
        # variable unset sent each container to its own (absent) Redis, with one warning, its pace its own
        ("redis://:6379/0", "it names no host (redis-py would connect to localhost instead)"),
        ("rediss:///0", "it names no host"),
        ("redis://:pw@:6379/0", "it names no host"),
        # redis-py uses ?db= over the path, and the first of a repeated option: the other was dropped unseen
        ("redis://h:6379/0?db=3", "database 0 in its path and 3 in ?db= (redis-py would use 3)"),
        ("redis://h/0?socket_timeout=0.1&socket_timeout=5", "option socket_timeout is given twice"),
    ],
)
def test_a_state_url_no_client_can_use_is_refused_when_built(url, said):
    with pytest.raises(ws.InvalidInput) as info:
        ws.Settings(state_url=url)
    assert info.value.detail_code == "bad_state_url"
    assert info.value.message.startswith("Settings.state_url (WEB_SEARCH_STATE_URL) must be a redis://")
    assert said in info.value.message


def test_replace_checks_the_state_url():
    with pytest.raises(ws.InvalidInput) as info:
        ws.Settings().replace(state_url="localhost:6379")
    assert info.value.detail_code == "bad_state_url"


def test_a_refused_state_url_quotes_no_password():
    with pytest.raises(ws.InvalidInput) as info:
        ws.Settings(state_url="redis://:s3cr3tPa/ss@state.internal:6379/0")
    assert "s3cr3t" not in str(info.value) and "ss@" not in str(info.value)


@pytest.mark.parametrize(
    "url",
    [
        None,
        "",
        "redis://localhost:6379/0",
        "rediss://h/1",
        "unix:///tmp/redis.sock",
        "redis://h/2?db=2",
        "redis://h?db=2",
    ],
)
def test_a_usable_state_url_is_kept(url):
    assert ws.Settings(state_url=url).state_url == url


def test_a_state_url_from_the_environment_is_left_to_the_client():
    """A client given a state URL of its own (``""``: none) still works beside a bad variable."""
    settings = ws.Settings.from_env({"WEB_SEARCH_STATE_URL": "notaurl"})
    assert settings.replace(max_results=3).state_url == "notaurl"
    with pytest.raises(ws.InvalidInput) as info:
        ws.SearchClient("stub", settings=settings)
    assert info.value.detail_code == "bad_state_url" and "WEB_SEARCH_STATE_URL" in info.value.message
    ws.SearchClient("stub", settings=settings, state_url="").close()


@pytest.mark.parametrize(
    "value, said",
    [
        ("firefox", "firefox is not offered"),
        ("safari", "safari is not offered"),
        ("edge", "must be one of chrome, off, got 'edge'"),
        ("chrom", "must be one of chrome, off, got 'chrom'"),
    ],
)
def test_an_impersonate_value_no_client_takes_is_refused_when_built(value, said):
    with pytest.raises(ws.InvalidInput) as info:
        ws.Settings(impersonate=value)
    assert info.value.detail_code == "bad_impersonate"
    assert info.value.message.startswith("Settings.impersonate (WEB_SEARCH_IMPERSONATE)")
    assert said in info.value.message


@pytest.mark.parametrize("value", [None, "", "off", "chrome", " Chrome "])
def test_an_impersonate_value_a_client_takes_is_kept(value):
    """``chrome`` without the ``browser`` extra too: whether it is installed is asked by the client."""
    assert ws.Settings(impersonate=value).impersonate == value


def test_an_impersonate_value_from_the_environment_is_left_to_the_client():
    """``websearch-sync backends --impersonate off`` replaces the variable's value after ``from_env``."""
    settings = ws.Settings.from_env({"WEB_SEARCH_IMPERSONATE": "edge"})
    assert settings.replace(impersonate="off").impersonate == "off"
    with pytest.raises(ws.InvalidInput) as info:
        ws.SearchClient("stub", settings=settings)
    assert info.value.detail_code == "bad_impersonate"


@pytest.mark.parametrize(
    "argv, said",
    [
        (["search", "-b", "stub", "q", "--impersonate", "edge"], "impersonate (WEB_SEARCH_IMPERSONATE, --impersonate)"),
        (["mcp", "--state-url", "notaurl"], "state_url (WEB_SEARCH_STATE_URL, --state-url) must be a redis://"),
    ],
)
def test_a_command_names_the_flag_not_the_settings_field(capsys, argv, said):
    """A command builds its settings with the flag's value: the refusal names the flag and the
    variable, as the client's did, not ``Settings.impersonate``, which the user did not write."""
    from websearch_sync.cli import main

    assert main(argv) == 2
    err = capsys.readouterr().err
    assert said in err and "Settings." not in err, err
