"""The impersonate setting (issue 21 points 1 and 3): which values exist, where they come from,
and the clear error without the browser extra. (tests/unit runs as without the extra.)"""

import pytest

import websearch_sync as ws
from websearch_sync.net import browser
from websearch_sync.net.browser import resolve_impersonate


def test_without_the_extra_the_default_is_the_requests_transport():
    assert resolve_impersonate(None) == "off"
    assert resolve_impersonate("off") == "off"


@pytest.mark.parametrize("source", ["setting", "environment"])
def test_asking_for_a_browser_without_the_extra_names_the_extra(source, monkeypatch):
    monkeypatch.setenv("WEB_SEARCH_IMPERSONATE", "chrome")
    settings = ws.Settings(impersonate="chrome") if source == "setting" else ws.Settings.from_env()
    assert settings.impersonate == "chrome"
    with pytest.raises(ws.InvalidInput) as info:
        ws.SearchClient("stub", settings=settings)
    assert info.value.detail_code == "missing_browser_extra"
    # the packages as any installation can install them (the package is on no index), and a checkout's spelling
    assert "pip install 'curl_cffi>=" in info.value.message
    assert "(from a checkout: pip install -e '.[browser]')" in info.value.message
    # said once ("needs the browser extra: install the browser extra: ..."), with the command line's spelling
    assert info.value.message.count("`browser` extra") == 1 and "--impersonate off" in info.value.message


@pytest.mark.parametrize("value", ["firefox", "safari", "edge", "Chrome99"])
def test_profiles_the_lab_did_not_find_consistent_are_refused(value, monkeypatch):
    monkeypatch.setattr(browser, "browser_available", lambda: True)
    with pytest.raises(ws.InvalidInput) as info:
        resolve_impersonate(value)
    assert info.value.detail_code == "bad_impersonate"
    assert "one of chrome, off" in info.value.message  # what to give instead (a refused profile said only why not)


def test_an_unknown_profile_in_the_environment_is_refused_naming_the_variable(monkeypatch):
    monkeypatch.setenv("WEB_SEARCH_IMPERSONATE", "chrom")
    with pytest.raises(ws.InvalidInput, match=r"WEB_SEARCH_IMPERSONATE.* must be one of chrome, off, got 'chrom'"):
        resolve_impersonate(None)


def test_the_environment_switch_reaches_settings_built_in_code(monkeypatch):
    monkeypatch.setattr(browser, "browser_available", lambda: True)
    assert resolve_impersonate(None) == "chrome"
    monkeypatch.setenv("WEB_SEARCH_IMPERSONATE", "off")
    assert resolve_impersonate(ws.Settings().impersonate) == "off"
    assert resolve_impersonate("chrome") == "chrome"  # an explicit value wins


def test_a_non_string_setting_is_refused():
    with pytest.raises(ws.InvalidInput) as info:
        ws.Settings(impersonate=True)
    assert info.value.detail_code == "bad_setting"
