"""What ``register`` says when given something other than a backend class: what it was given,
in words that fit a call (the entry-point syntax ``module:Class`` is for plugins only)."""

import json

import pytest

from websearch_sync.engine.registry import register


class Engine:
    """A class of the application's own, not a Backend subclass."""


@pytest.mark.parametrize(
    "given, says",
    [
        (json, "the module json"),
        (Engine, "the class Engine"),
        (Engine(), "an Engine"),
        (3, "an int"),
        ("demo", "a str"),
    ],
)
def test_register_says_what_it_was_given_instead_of_a_backend_class(given, says):
    with pytest.raises(TypeError) as refused:
        register(given)
    assert str(refused.value) == "register(%r): not a websearch_sync.backends.Backend subclass: %s" % (given, says)
