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


@pytest.mark.parametrize("name", ["fresh-only", "2nd", "from", "a b", "", None, 5])
def test_an_option_named_no_search_keyword_is_refused_when_declared(name):
    """``Option("fresh-only", "bool")`` was accepted: ``search("q", fresh-only=True)`` cannot be written,
    so a caller could give the option only through ``**{"fresh-only": True}``."""
    with pytest.raises(TypeError) as caught:
        Option(name, "bool")
    assert str(caught.value) == (
        "Option.name must be a search() keyword (letters, digits and _, not starting with a digit, no Python"
        " keyword), got %r" % (name,)
    )


@pytest.mark.parametrize("name", ["fresh", "page_size", "_private", "x2"])
def test_an_option_named_as_a_keyword_is_accepted(name):
    assert Option(name, "bool").name == name


def test_every_built_in_declaration_is_accepted():
    for row in BUILT_IN:
        cls = backend_class(row.name, row.vertical)
        assert cls.declared_settings() and cls.declared_options() is not None


def _plugin(**body):
    from websearch_sync.backends import Backend, ParseResult, RequestSpec

    namespace = {
        "name": "plugin_typo",
        "kind": "json",
        "default_endpoint": "https://typo.example/api",
        "build_request": lambda self, params: RequestSpec("GET", self.endpoint_url()),
        "parse": lambda self, response, params: ParseResult(items=[]),
    }
    namespace.update(body)
    return type("Typo", (Backend,), {k: v for k, v in namespace.items() if v is not None})


@pytest.mark.parametrize(
    "body, says",
    [
        # a declaration's name misspelt as a method of Backend: that method is gone (TypeError later)
        (
            {"option": (Option("fresh", "bool"),)},
            "its option is a tuple, which replaces Backend.option (did you mean options?)",
        ),
        # the instance's own attributes, set on the class: the declaration is silently not made
        ({"settings": (Setting("api_key"),)}, "its settings is set on the class (did you mean provider_settings?)"),
    ],
)
def test_a_misnamed_declaration_is_a_declaration_problem(body, says):
    from websearch_sync.engine.registry import declaration_problem

    assert declaration_problem(_plugin(**body)) == says


@pytest.mark.parametrize(
    "body, says",
    [
        # the two functions a backend implements, missing (misnamed): NotImplementedError at the first search
        ({"build_request": None}, "it does not implement build_request(params)"),
        ({"parse": None}, "it does not implement parse(response, params)"),
    ],
)
def test_an_installed_plugin_missing_a_method_is_skipped_saying_which(body, says):
    """Checked for installed plugins (tests register classes of declarations alone)."""
    from websearch_sync.engine.registry import _plugin_problem

    assert _plugin_problem(_plugin(**body)) == says


def test_the_plugin_of_the_docs_has_no_problem():
    from websearch_sync.engine.registry import _plugin_problem

    assert _plugin_problem(_plugin()) is None


def test_a_mixin_before_the_backend_is_read_too():
    from websearch_sync.engine.registry import declaration_problem

    class Mixin:
        option = ("fresh",)

    cls = type("WithMixin", (Mixin, _plugin()), {})
    assert declaration_problem(cls) == "its option is a tuple, which replaces Backend.option (did you mean options?)"
