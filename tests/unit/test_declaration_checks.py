"""A plugin's ``Setting`` and ``Option`` declarations that cannot work are refused when
declared, with a ``TypeError`` naming the declaration and what it takes (the registry then
skips the plugin saying so), instead of being accepted and failing later or never: a
``required="yes"`` read as true, an environment variable no shell can set (``demo-api-key``),
a range whose maximum is below its minimum, a default its own kind refuses, a choice list
given as one string (read as its letters)."""

import pytest

from websearch_sync.backends import Option, Setting
from websearch_sync.engine.builtin import BUILT_IN
from websearch_sync.engine.registry import backend_class


@pytest.mark.parametrize(
    "kwargs, says",
    [
        ({"required": "yes"}, "required must be True or False"),
        ({"env": "demo-api-key"}, "env must be an environment variable name"),
        ({"env": "DEMO KEY"}, "env must be an environment variable name"),
        ({"name": "api key"}, "name must be"),
        ({"kind": "int", "minimum": "1"}, "minimum must be an int"),
        ({"kind": "int", "minimum": 5, "maximum": 1}, "maximum 1 is below its minimum 5"),
        (
            {"kind": "int", "maximum": 50, "default": "ten"},
            "default is refused by its own kind: page_size must be an integer in 1..50, got 'ten'",
        ),
        (
            {"kind": "int", "maximum": 50, "default": 51},
            "default is refused by its own kind: page_size must be in 1..50, got 51",
        ),
    ],
)
def test_a_setting_that_cannot_work_is_refused_when_declared(kwargs, says):
    with pytest.raises(TypeError, match="Setting") as caught:
        Setting(**{"name": "page_size", **kwargs})
    assert says in str(caught.value)


@pytest.mark.parametrize(
    "kwargs, says",
    [
        ({"kind": "choice", "choices": "abc"}, "give its choices (strings)"),
        ({"kind": "int", "minimum": 5, "maximum": 1}, "maximum 1 is below its minimum 5"),
        ({"kind": "int", "minimum": True}, "minimum must be an int"),
    ],
)
def test_an_option_that_cannot_work_is_refused_when_declared(kwargs, says):
    with pytest.raises(TypeError, match="Option") as caught:
        Option("mode", **kwargs)
    assert says in str(caught.value)


def test_every_built_in_declaration_is_accepted():
    for row in BUILT_IN:
        cls = backend_class(row.name, row.vertical)
        assert cls.declared_settings() and cls.declared_options() is not None
