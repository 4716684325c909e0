"""Settings and the environment."""

import copy
import dataclasses
import logging
import pickle
import threading
import types
import weakref

import pytest

import websearch_sync as ws
from websearch_sync.config import _SHOWN_CHARS
from websearch_sync.errors import clipped


def test_defaults_without_environment():
    settings = ws.Settings.from_env(environ={})
    assert (settings.backend, settings.timeout_ms, settings.max_results, settings.proxy) == (None, 15000, 5, None)
    assert ws.search("q", settings=settings)["provider_meta"]["provider_name"] == "stub"


def test_environment_is_read():
    env = {
        "WEB_SEARCH_BACKEND": "stub",
        "WEB_SEARCH_TIMEOUT_MS": "3000",
        "WEB_SEARCH_MAX_RESULTS": "2",
        "WEB_SEARCH_PROXY": "http://user:pw-secret@proxy.example:8080",
        "WEB_SEARCH_USER_AGENT": "agent/1",
        "WEB_SEARCH_ENDPOINT_STUB": "http://mirror.example/stub",
        "WEB_FETCH_SERVICE_URL": "https://reader.example/",
        "WEB_FETCH_SERVICE_KEY": "fetch-secret-key",
        "WEB_FETCH_ALLOW_PRIVATE": "1",
    }
    settings = ws.Settings.from_env(environ=env)
    assert settings.backend == "stub"
    assert settings.timeout_ms == 3000 and settings.max_results == 2
    assert settings.user_agent == "agent/1"
    assert settings.endpoints == {"stub": "http://mirror.example/stub"}
    assert settings.allow_private is True
    assert len(ws.search("q", settings=settings)["items"]) == 2
    shown = repr(settings)
    assert "fetch-secret-key" not in shown and "pw-secret" not in shown


def test_unknown_environment_backend_is_an_error_when_used():
    settings = ws.Settings.from_env(environ={"WEB_SEARCH_BACKEND": "googel"})
    with pytest.raises(ws.InvalidInput) as info:
        settings.default_backend()
    assert info.value.detail_code == "unknown_backend" and "googel" in info.value.message


def test_process_environment_is_the_default(monkeypatch):
    monkeypatch.setenv("WEB_SEARCH_BACKEND", "stub")
    monkeypatch.setenv("WEB_SEARCH_MAX_RESULTS", "1")
    result = ws.search("q")
    assert result["provider_meta"]["provider_name"] == "stub"
    assert len(result["items"]) == 1


@pytest.mark.parametrize("value", ["abc", "0", "-3", "99999999"])
def test_malformed_numbers_warn_and_use_the_default(value, caplog):
    with caplog.at_level(logging.WARNING, logger="websearch_sync"):
        settings = ws.Settings.from_env(environ={"WEB_SEARCH_TIMEOUT_MS": value})
    assert settings.timeout_ms == 15000
    assert "WEB_SEARCH_TIMEOUT_MS" in caplog.text


def test_an_unbounded_number_warning_says_what_it_takes(caplog):
    with caplog.at_level(logging.WARNING, logger="websearch_sync"):
        settings = ws.Settings.from_env(environ={"WEB_SEARCH_MAX_BYTES": "-5"})
    assert settings.max_response_bytes == 5_000_000
    assert "expected a whole number >= 1024" in caplog.text and "inf" not in caplog.text


def test_a_byte_cap_under_fetchs_smallest_is_a_bad_setting(caplog):
    """``max_response_bytes`` is also the byte cap of each page whose content a search adds, and
    fetch reads no page under 1024 bytes: 500 was accepted, then every page failed with an error
    naming ``max_bytes``, an argument the caller never passed."""
    with pytest.raises(ws.InvalidInput) as info:
        ws.Settings(max_response_bytes=500)
    assert info.value.detail_code == "bad_setting"
    assert info.value.message == "Settings.max_response_bytes must be an integer >= 1024, got 500"
    assert ws.Settings(max_response_bytes=1024).max_response_bytes == 1024
    with caplog.at_level(logging.WARNING, logger="websearch_sync"):
        settings = ws.Settings.from_env(environ={"WEB_SEARCH_MAX_BYTES": "500"})
    assert settings.max_response_bytes == 5_000_000
    assert "ignoring WEB_SEARCH_MAX_BYTES='500': expected a whole number >= 1024" in caplog.text


@pytest.mark.parametrize(
    "searx, endpoint, reader, shown_hosts",
    [
        (
            "https://user:pw-searx@searx.example",
            "https://user:pw-endpoint@mirror.example/html/",
            "https://user:pw-reader@reader.example/?token=tk-reader",
            ("searx.example", "mirror.example", "reader.example"),
        ),
        # without a scheme: shown whole before
        (
            "//user:pw-searx@searx.example",
            "user:pw-endpoint@mirror.example/api",
            "user:pw-reader@reader.example/?token=tk-reader",
            ("//***@searx.example", "***@mirror.example/api", "***@reader.example"),
        ),
    ],
)
def test_repr_shows_no_password_of_any_url_setting(searx, endpoint, reader, shown_hosts):
    # docs/api.md: "repr(settings) never shows a key"; a user name and password in a URL is one
    # (SEARXNG_BASE_URL with Basic auth, docs/configuration.md), in whichever setting it is
    # from the environment: a URL without its scheme is refused at its use, so Settings hold it (in code,
    # it is refused when they are built, and the refusal shows no URL)
    settings = ws.Settings.from_env(
        {"SEARXNG_BASE_URL": searx, "WEB_SEARCH_ENDPOINT_DDG_HTML": endpoint, "WEB_FETCH_SERVICE_URL": reader}
    )
    shown = repr(settings)
    assert not [secret for secret in ("pw-searx", "pw-endpoint", "pw-reader", "tk-reader") if secret in shown], shown
    assert all(host in shown for host in shown_hosts), shown


def test_precedence_argument_over_settings_over_environment():
    settings = ws.Settings.from_env(environ={"WEB_SEARCH_MAX_RESULTS": "1"}, max_results=2)
    assert settings.max_results == 2
    assert len(ws.search("q", settings=settings)["items"]) == 2
    assert len(ws.search("q", settings=settings, max_results=3)["items"]) == 3


def test_explicit_settings_ignore_the_environment(monkeypatch):
    monkeypatch.setenv("WEB_SEARCH_MAX_RESULTS", "1")
    assert len(ws.search("q", settings=ws.Settings())["items"]) == 3


def test_provider_overrides_merge_with_environment():
    settings = ws.Settings.from_env(
        environ={"BRAVE_API_KEY": "k-env"}, providers={"brave": {"timeout_ms": 5}}, endpoints={"stub": "http://e/"}
    )
    assert settings.provider("brave") == {"api_key": "k-env", "timeout_ms": 5}
    assert settings.endpoints == {"stub": "http://e/"}


def test_replace_returns_a_new_object():
    settings = ws.Settings()
    assert settings.replace(timeout_ms=10).timeout_ms == 10
    assert settings.timeout_ms == 15000


def test_secret_header_values_given_as_json_text_are_secrets():
    settings = ws.Settings(providers={"service": {"headers": '{"X-Tenant-Token": "tenant-secret-123"}'}})
    assert "tenant-secret-123" in settings.secrets()
    assert "tenant-secret-123" not in repr(settings)


def test_a_per_backend_variable_naming_no_backend_is_warned_once_with_the_closest(caplog):
    """``WEB_SEARCH_ENDPOINT_DDG`` was ignored without a word: searches went to DuckDuckGo itself."""
    env = {"WEB_SEARCH_ENDPOINT_DDG": "http://mirror.internal/html/", "WEB_SEARCH_MIN_INTERVAL_S_NOSUCH": "2"}
    with caplog.at_level(logging.WARNING, logger="websearch_sync"):
        assert ws.Settings.from_env(env).endpoints == {}
        ws.Settings.from_env(env)
    warned = [record.getMessage() for record in caplog.records]
    assert len(warned) == 2, warned
    assert (
        "ignoring WEB_SEARCH_ENDPOINT_DDG: no backend is named 'ddg'; did you mean WEB_SEARCH_ENDPOINT_DDG_HTML?"
        in warned
    )
    assert "ignoring WEB_SEARCH_MIN_INTERVAL_S_NOSUCH" in caplog.text


def test_a_variable_of_the_librarys_prefix_it_does_not_read_is_warned_once_with_the_closest(caplog):
    """``WEB_SEARCH_BACKENDS=ddg_html`` (a plural's ``S``) was ignored without a word: every search went
    on to the offline stub, whose note says to set ``WEB_SEARCH_BACKEND``, which looks set."""
    from websearch_sync.backends import JsonApiEngine, Setting, register

    @register
    class Prefixed(JsonApiEngine):  # a plugin may name its variables with the library's prefix
        name = "prefixed_plugin"
        default_endpoint = "https://prefixed.example/api"
        provider_settings = (Setting("api_key", env="WEB_SEARCH_PREFIXED_TOKEN"),)
        results_at = "hits"
        result_fields = {"title": "t", "url": "u"}

    env = {
        "WEB_SEARCH_BACKENDS": "ddg_html",
        "WEB_FETCH_ALLOW_PRIVAT": "1",
        "WEB_SEARCH_WHOLLY_UNLIKE_ANY": "x",
        "WEB_SEARCH_SERVICE_URL": "https://service.example/search",  # the service backend's: read
        "WEB_SEARCH_PREFIXED_TOKEN": "k",  # the plugin's: read
        "WEB_SEARCH_TIMEOUT_MS": "900",
    }
    with caplog.at_level(logging.WARNING, logger="websearch_sync"):
        assert ws.Settings.from_env(env).timeout_ms == 900
        ws.Settings.from_env(env)
    assert sorted(record.getMessage() for record in caplog.records) == [
        "ignoring WEB_FETCH_ALLOW_PRIVAT: websearch_sync reads no such variable; did you mean WEB_FETCH_ALLOW_PRIVATE?",
        "ignoring WEB_SEARCH_BACKENDS: websearch_sync reads no such variable; did you mean WEB_SEARCH_BACKEND?",
        "ignoring WEB_SEARCH_WHOLLY_UNLIKE_ANY: websearch_sync reads no such variable"
        " (docs/configuration.md lists those it reads)",
    ]


def test_a_variable_read_but_written_in_another_case_is_warned_once_naming_the_one_read(caplog):
    """``web_search_backend=ddg_html`` (a manifest written in lower case) was ignored without a word:
    names are case-sensitive on Linux, and every search went on to the offline stub."""
    env = {
        "web_search_backend": "ddg_html",
        "Brave_Api_Key": "k",  # a backend's variable
        "web_search_endpoint_ddg_html": "https://mirror.example/html/",  # a per-backend one
        "web_search_nothing_read": "x",  # no variable read in any case: not the library's to judge
        "path": "/usr/bin",
        "WEB_SEARCH_TIMEOUT_MS": "900",
    }
    with caplog.at_level(logging.WARNING, logger="websearch_sync"):
        assert ws.Settings.from_env(env).timeout_ms == 900
        ws.Settings.from_env(env)
    assert sorted(record.getMessage() for record in caplog.records) == [
        "ignoring Brave_Api_Key: environment variable names are case-sensitive; did you mean BRAVE_API_KEY?",
        "ignoring web_search_backend: environment variable names are case-sensitive; did you mean WEB_SEARCH_BACKEND?",
        "ignoring web_search_endpoint_ddg_html: environment variable names are case-sensitive;"
        " did you mean WEB_SEARCH_ENDPOINT_DDG_HTML?",
    ]


def test_two_clients_built_at_once_from_one_settings_both_hold_it(monkeypatch):
    """Two threads building a client from one new ``Settings`` at the same moment: each found it had
    no set of users and made one, and the second replaced the first's, so that its client's settings
    could be assigned while it was open. The interleaving is made here: the other thread's ``hold``
    runs while this one makes its set."""
    from websearch_sync import config

    class Client:
        _closed = False

    settings, first, second = ws.Settings(), Client(), Client()
    interleaved = []

    def weak_set():
        made = weakref.WeakSet()
        if not interleaved:
            interleaved.append(second)
            config.hold(settings, second)  # the other thread, meanwhile
        return made

    monkeypatch.setattr(config, "weakref", types.SimpleNamespace(WeakSet=weak_set))
    config.hold(settings, first)
    first._closed = True
    with pytest.raises(dataclasses.FrozenInstanceError, match="open SearchClient"):
        settings.timeout_ms = 1000  # the second client is open


def test_a_client_being_built_holds_its_settings_before_it_reads_them(monkeypatch):
    """A client held its settings at the end of its making: a field assigned meanwhile, after the
    client had read it, reached the settings and not the client (its transport kept the old value)."""
    from websearch_sync.client import search_client

    settings, built, go = ws.Settings(), threading.Event(), threading.Event()
    transport = search_client.HttpTransport

    def paused(**arguments):
        made = transport(**arguments)
        built.set()
        assert go.wait(30)
        return made

    monkeypatch.setattr(search_client, "HttpTransport", paused)
    clients = []
    making = threading.Thread(target=lambda: clients.append(ws.SearchClient("stub", settings=settings)))
    making.start()
    try:
        assert built.wait(30)
        with pytest.raises(dataclasses.FrozenInstanceError, match="open SearchClient"):
            settings.allow_private = True
    finally:
        go.set()
        making.join(30)
    assert clients[0]._transport.allow_private is settings.allow_private is False
    clients[0].close()


def test_a_fields_check_and_assignment_are_one_step_for_a_client_being_built(monkeypatch):
    """A client built between an assignment's check (no open client) and its write read the old
    value: the settings then said one thing and the client did another."""
    from websearch_sync import config

    checking, go, contended, done = threading.Event(), threading.Event(), threading.Event(), threading.Event()

    class Closed:
        """A user of the settings, closed, whose check pauses the assignment between its check and its write."""

        @property
        def _closed(self):
            checking.set()
            assert go.wait(30)
            return True

    class Watched:
        """The lock, saying when a second thread waits for it."""

        def __init__(self):
            self.lock = threading.RLock()

        def __enter__(self):
            if not self.lock.acquire(blocking=False):
                contended.set()
                self.lock.acquire()

        def __exit__(self, *exc_info):
            self.lock.release()

    monkeypatch.setattr(config, "_HOLD_LOCK", Watched(), raising=False)
    settings, user, clients, refused = ws.Settings(), Closed(), [], []
    config.hold(settings, user)

    def assign():
        try:
            settings.allow_private = True
        except dataclasses.FrozenInstanceError as error:
            refused.append(error)

    def build():
        clients.append(ws.SearchClient("stub", settings=settings))
        done.set()

    assigning, making = threading.Thread(target=assign), threading.Thread(target=build)
    assigning.start()
    try:
        assert checking.wait(30)
        making.start()
        for _ in range(3000):  # until the client is made, or waits for the assignment to end
            if contended.wait(0.01) or done.is_set():
                break
    finally:
        go.set()
        assigning.join(30)
        making.join(30)
    assert refused or clients[0]._transport.allow_private is settings.allow_private is True
    clients[0].close()


def test_settings_pickled_or_copied_are_equal_and_free_of_the_clients_holding_them():
    """What a batch job does with its settings: pickle them to its workers, copy them. A copy is the
    same settings (``==``, the same masked ``repr``) that no client holds yet, so it can be edited."""
    settings = ws.Settings(providers={"brave": {"api_key": "BSA-not-a-real-key"}}, proxy="http://u:pw@proxy:8080")
    with ws.SearchClient(settings=settings):
        for made in (
            pickle.loads(pickle.dumps(settings, 2)),
            pickle.loads(pickle.dumps(settings, pickle.HIGHEST_PROTOCOL)),
            copy.copy(settings),
            copy.deepcopy(settings),
        ):
            assert (made, repr(made), made.secrets()) == (settings, repr(settings), settings.secrets())
            made.timeout_ms = 1000  # no open client uses the copy
        with pytest.raises(dataclasses.FrozenInstanceError):
            settings.timeout_ms = 1000
    assert "BSA-not-a-real-key" not in repr(settings) and ":pw@" not in repr(settings)


def test_repr_shows_a_huge_field_by_its_start_and_end_and_no_part_of_a_secret():
    """A User-Agent or an endpoint of a megabyte made a ``repr`` (a log line) of a megabyte. A field is
    cut after its secrets are masked: a cut through a secret would have shown the part before it."""
    key = "k" * 40
    total = 1200  # fetch_service_url's length: the cut's place depends on it alone
    kept = clipped("r" * total, _SHOWN_CHARS).index(" ")  # the characters kept before the marker
    url = "https://reader.example/" + "r" * (kept - 10 - len("https://reader.example/")) + key
    settings = ws.Settings(
        user_agent="agent " * 100_000,
        providers={"brave": {"api_key": key}},
        endpoints={"brave": "https://api.example/" + "p" * 100_000 + "?key=" + key},
        fetch_service_url=url + "x" * (total - len(url)),  # the key straddles the cut
    )
    shown = repr(settings)
    assert len(shown) < 3000 and shown.count("characters left out") == 3
    assert "kkkk" not in shown and "user_agent='agent agent" in shown and "?key=***'}" in shown


def test_repr_shows_an_ordinary_configuration_whole():
    """The cut applied to a whole field's ``repr``: a few providers' settings (a ``providers`` of
    about 500 characters) lost the entries in its middle. Each text is cut, not the field."""
    providers = {
        "brave": {"api_key": "BSA-not-a-real-key", "timeout_ms": 8000},
        "searxng": {"base_url": "https://searx.internal.example/", "timeout_ms": 8000},
        "service": {
            "api_key": "svc-not-a-real-key",
            "url": "https://gateway.internal.example/v1/search",
            "request_id_header": "X-Request-Id",
            "timeout_ms": 8000,
        },
        "jina": {"api_key": "jina-not-a-real-key", "reader_url": "https://reader.internal.example/"},
    }
    shown = repr(ws.Settings(backend=["brave", "searxng", "service", "jina"], providers=providers))
    masked = {name: {k: "***" if k == "api_key" else v for k, v in sub.items()} for name, sub in providers.items()}
    assert "providers=%r," % masked in shown and "left out" not in shown


def test_a_malformed_variable_is_said_once_per_process_not_at_every_call(caplog):
    """``ws.search`` reads the environment at each call: a loop of searches with ``WEB_SEARCH_TIMEOUT_MS=abc``
    logged "ignoring WEB_SEARCH_TIMEOUT_MS='abc'" at every one. Once per value; ``reset()`` says it again."""
    from websearch_sync.testing import reset

    environ = {"WEB_SEARCH_TIMEOUT_MS": "abc", "WEB_SEARCH_MIN_INTERVAL_S": "-3"}
    with caplog.at_level(logging.WARNING, logger="websearch_sync"):
        for _ in range(3):
            ws.Settings.from_env(environ=environ)
        ws.Settings.from_env(environ={"WEB_SEARCH_TIMEOUT_MS": "xyz"})
        reset()
        ws.Settings.from_env(environ=environ)
    said = [r.getMessage() for r in caplog.records if r.getMessage().startswith("ignoring ")]
    timeout = "ignoring WEB_SEARCH_TIMEOUT_MS='abc': expected an integer in 1..600000; using the default"
    pace = "ignoring WEB_SEARCH_MIN_INTERVAL_S='-3': expected a number of seconds in 0..86400; using the default"
    other = "ignoring WEB_SEARCH_TIMEOUT_MS='xyz': expected an integer in 1..600000; using the default"
    assert said == [timeout, pace, other, timeout, pace]


def test_reset_says_a_mistyped_variable_again(caplog):
    """``reset()`` forgets the variables said to be ignored, as its docstring says: a mistyped name
    (``WEB_SEARCH_BACKNED``, ``WEB_SEARCH_ENDPOINT_BRAV``) was said in the first test that set it only,
    while a malformed value was said again in each."""
    from websearch_sync.testing import reset

    env = {
        "WEB_SEARCH_BACKNED": "ddg_html",
        "WEB_SEARCH_ENDPOINT_BRAV": "https://b.example/",
        "WEB_SEARCH_TIMEOUT_MS": "x",
    }
    said = []
    with caplog.at_level(logging.WARNING, logger="websearch_sync"):
        for _ in range(2):
            reset()
            caplog.clear()
            ws.Settings.from_env(env)
            said.append(sorted(record.getMessage().split(":")[0] for record in caplog.records))
    assert (
        said[0]
        == said[1]
        == [
            "ignoring WEB_SEARCH_BACKNED",
            "ignoring WEB_SEARCH_ENDPOINT_BRAV",
            "ignoring WEB_SEARCH_TIMEOUT_MS='x'",
        ]
    )


def test_reset_says_again_every_warning_said_once_but_the_offline_stubs():
    """One mechanism forgets what is said once per process (each was forgotten by its own function, and
    most were not: a key sent over plain http, a locale's hint, an answer too long to share...): every
    module-level ``Once`` of the package is one ``reset()`` forgets, the stub's warning alone outlives it."""
    import importlib
    import pkgutil

    import websearch_sync
    from websearch_sync import once
    from websearch_sync.testing import reset

    sayings = []
    for module in pkgutil.walk_packages(websearch_sync.__path__, "websearch_sync."):
        if module.name.startswith(("websearch_sync.integrations.", "websearch_sync.mcp.")):
            continue  # their frameworks may be missing; they say nothing once
        found = importlib.import_module(module.name)
        sayings += [(module.name, name, value) for name, value in vars(found).items() if type(value) is once.Once]
    assert len(sayings) >= 12
    outliving = [(module, name) for module, name, value in sayings if value not in once._SAYINGS]
    assert outliving == [("websearch_sync.backends.stub", "_WARNED")]
    probe = once.Once()
    assert probe.first("said")
    reset()
    assert probe.first("said")  # said again
