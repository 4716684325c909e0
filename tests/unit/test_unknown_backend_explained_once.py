"""Every unknown-backend message explains the name the same way: the registry's (a backend class
asked for by name) and configuration's (settings, the command line, a search's ``backend=``) once
ran two chains of explanations written side by side, which could drift apart."""

import re

import pytest

import websearch_sync as ws
from websearch_sync import config
from websearch_sync.engine.registry import backend_class, did_you_mean

NAMES = ["brvae", "stub;ddg_html", "https://searx.example/", "nonesuch", "ddgg", "duckduckgo"]


def _explanation(message: str, name: str) -> str:
    found = re.search(r"%s \((.*)\); known backends" % re.escape(repr(name)), message)
    assert found, message
    return found.group(1)


@pytest.mark.parametrize("name", NAMES)
def test_the_registry_and_the_settings_explain_an_unknown_name_alike(name):
    with pytest.raises(ws.InvalidInput) as by_registry:
        backend_class(name)
    with pytest.raises(ws.InvalidInput) as by_settings:
        ws.Settings(backend=name)
    said = _explanation(by_registry.value.message, name)
    assert said == _explanation(by_settings.value.message, name)
    assert said == config.why_unknown_backend(name) and did_you_mean(name) == " (%s)" % said


def test_auto_is_suggested_only_where_auto_may_be_named():
    assert config.why_unknown_backend("atuo", auto=True) == "did you mean auto?"
    assert "auto" not in config.why_unknown_backend("atuo")
