"""What ``register`` says when given something other than a backend class: what it was given,
in words that fit a call (the entry-point syntax ``module:Class`` is for plugins only)."""

import json

import pytest

from websearch_sync.engine.option import Option
from websearch_sync.engine.registry import declaration_problem, register


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


def _paging_plugin(options, results_per_page=3):
    """A plugin's class reading ``results_per_page`` a page, declaring ``options``."""
    from websearch_sync.backends import Backend

    return type(
        "Paging",
        (Backend,),
        {
            "name": "paging_plugin",
            "kind": "json",
            "default_endpoint": "https://plugin.example/search",
            "results_per_page": results_per_page,
            "options": options,
        },
    )


@pytest.mark.parametrize(
    "options", [("max_pages",), (Option("max_pages", "int"),), (Option("max_pages", "int", default=20, maximum=50),)]
)
def test_a_paging_plugin_declaring_max_pages_of_its_own_is_refused(options):
    """Before: its own max_pages replaced the one results_per_page brings; a default of None made
    every default call an internal_error (int < None), a default of 20 read 20 pages past the 8."""
    cls = _paging_plugin(options)
    with pytest.raises(TypeError) as refused:
        register(cls)
    assert str(refused.value).endswith(
        "it declares an option max_pages, which results_per_page brings (1..8): leave it out"
    )
    assert declaration_problem(_paging_plugin(options, results_per_page=None)) is None  # no paging: its own option
    assert declaration_problem(_paging_plugin(())) is None and _paging_plugin(()).option_names()[-1] == "max_pages"
