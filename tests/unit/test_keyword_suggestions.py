"""``fetch()``, ``Settings()`` and ``SearchClient()`` refuse an unknown keyword argument as ``search()``
refuses an unknown option, naming what was meant: on Python 3.10 and 3.11 they gave the interpreter's
plain ``TypeError`` ("got an unexpected keyword argument 'timeout'", no "did you mean"), and on no
Python another API's name (``mode``, ``proxies``) or a setting given to the wrong place (``proxy=``)."""

import pytest

import websearch_sync as ws


def _refusal(call):
    with pytest.raises(TypeError) as refused:
        call()
    return str(refused.value)


@pytest.mark.parametrize(
    "call, said",
    [
        (lambda: ws.fetch("https://example.com/", timeout=5), "fetch() got unexpected keyword argument(s) timeout "
         "(did you mean 'timeout_ms'?); known arguments: url, extract_mode, max_chars, timeout_ms,"),
        (lambda: ws.fetch("https://example.com/", mode="text"), "mode (did you mean 'extract_mode'?)"),
        (lambda: ws.fetch("https://example.com/", max_length=9), "max_length (did you mean 'max_chars'?)"),
        (lambda: ws.fetch(link="https://example.com/"), "link (did you mean 'url'?)"),  # a result's link, as read
        (lambda: ws.fetch(href="https://example.com/"), "href (did you mean 'url'?)"),
        (lambda: ws.fetch(uri="https://example.com/"), "uri (did you mean 'url'?)"),
        (lambda: ws.fetch("https://example.com/", proxy="http://p:1"), "proxy (it is given as settings=Settings(proxy=...))"),
        (lambda: ws.Settings(timeout=5), "Settings() got unexpected keyword argument(s) timeout (did you mean 'timeout_ms'?)"),
        (lambda: ws.Settings(proxies="http://p:1"), "proxies (did you mean 'proxy'?)"),
        (lambda: ws.Settings(fetch_key="k"), "fetch_key (did you mean 'fetch_service_key'?)"),
        (lambda: ws.Settings.from_env({}, timout_ms=5), "Settings() got unexpected keyword argument(s) timout_ms (did you mean 'timeout_ms'?)"),
        (lambda: ws.Settings().replace(max_result=3), "max_result (did you mean 'max_results'?)"),
        (lambda: ws.SearchClient(timeout=5), "SearchClient() got unexpected keyword argument(s) timeout "
         "(did you mean settings=Settings(timeout_ms=...)?); known arguments: backend, strategy,"),
        (lambda: ws.SearchClient(retires=1), "retires (did you mean 'retries'?)"),
        (lambda: ws.SearchClient(proxy="http://p:1"), "proxy (it is given as settings=Settings(proxy=...))"),
        (lambda: ws.SearchClient(api_key="k"), "api_key (a key is a backend's setting, not an argument of SearchClient(): "
         "settings=Settings(providers={'brave': {'api_key': ...}})"),
    ],
)  # fmt: skip
def test_an_unknown_keyword_names_what_was_meant(call, said):
    assert said in _refusal(call)


def test_the_clients_fetch_names_its_own():
    with ws.SearchClient("stub", settings=ws.Settings()) as client:
        said = _refusal(lambda: client.fetch("https://example.com/", timeout=5))
    assert said.startswith(
        "SearchClient.fetch() got unexpected keyword argument(s) timeout (did you mean 'timeout_ms'?)"
    )


def test_ddgs_names_are_hinted_for_search_only():
    """ddgs's ``region`` is a search option's name (``locale``): ``fetch()`` takes no such thing."""
    assert "ddgs's region" in _refusal(lambda: ws.search("q", backend="stub", region="us-en"))
    assert "ddgs" not in _refusal(lambda: ws.fetch("https://example.com/", region="us-en"))


def test_a_refused_call_runs_nothing(monkeypatch):
    """The check is made before the function runs: no client is built for a refused ``fetch()``."""
    built = []
    monkeypatch.setattr(ws.SearchClient, "close", lambda self: built.append(self))
    _refusal(lambda: ws.fetch("https://example.com/", timeout=5))
    assert built == []


def test_known_keywords_still_reach_the_function():
    settings = ws.Settings(timeout_ms=1234, proxy=None)
    assert settings.timeout_ms == 1234
    assert ws.Settings.from_env({}, timeout_ms=2345).timeout_ms == 2345
    with ws.SearchClient(backend="stub", settings=settings, retries=0) as client:
        assert client.retries == 0


def test_settings_list_the_settings_alone_not_from_envs_bookkeeping():
    """``Settings(bogus=1)`` listed ``from_environment`` and ``env_backend_problem`` among its known arguments,
    fields :meth:`Settings.from_env` sets and the repr leaves out (``from_environment=True`` does not read the
    environment); they are still taken, as ``from_env`` builds through them."""
    with pytest.raises(TypeError) as info:
        ws.Settings(bogus=1)
    listed = str(info.value).split("known arguments: ")[1].split(", ")
    assert listed[:2] == ["backend", "timeout_ms"] and listed[-1] == "min_interval_s"
    assert "from_environment" not in listed and "env_backend_problem" not in listed
    assert ws.Settings(from_environment=True).from_environment is True
