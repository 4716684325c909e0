"""Backend registry: maps names to backend classes.

The built-in backends are known from the static table of :mod:`.builtin` (name,
vertical, module, class): listing, suggesting and checking names imports no engine; an
engine's module is imported, and its class checked against the table and
:func:`declaration_problem`, the first time that engine is asked for
(:func:`backend_class`). Third-party backends are plugins: a distribution
declares an entry point in the group ``websearch_sync.backends``
(``name = package.module:Class``) naming a ``Backend`` subclass;
:func:`load_plugins` registers them, the first time the registry is asked about
backends (not when it is imported: a plugin's own imports of ``websearch_sync`` then
find the package complete). A plugin that fails to load (whatever its
import raises, ``sys.exit()`` and ``KeyboardInterrupt`` included), whose class
declarations are unusable (:func:`declaration_problem`) or whose name another plugin
took first is skipped with a logged warning naming it, and an error naming its backend
says why (:func:`skipped_plugin`); it never breaks the library. What a backend's parser returns is
checked too (:func:`checked_result`), so a plugin answering the wrong shape is a
``WebProviderError`` naming it.
"""

import contextlib
import difflib
import importlib
import inspect
import logging
import operator
import re
import sys
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import partial
from itertools import repeat
from types import FrameType
from typing import Any, Callable, Optional, TypeVar, Union, overload

from .. import config
from ..errors import (
    BAD_PARSE_RESULT,
    BAD_VERTICAL,
    INTERNAL_ERROR,
    UNKNOWN_BACKEND,
    UNSUPPORTED_VERTICAL,
    InvalidInput,
    WebBlocked,
    WebProviderError,
    WebSearchError,
)
from ..forks import in_children, module_global
from ..models import MAX_RESULT_NESTING, MEDIA_FILTERS, VERTICALS, ErrorInfo, ParseResult
from ..net.botwall import BotWall, bot_wall_error
from ..net.jsontext import MAX_JSON_DEPTH
from ..net.transport import HttpResponse
from ..once import Once
from ..secrets import is_secret_name, redact, userinfo_hidden
from ..validate import check_choice
from .base import TEXT_FORMATS, Backend
from .builtin import BUILT_IN, ENV_VARS, PACKAGE, BuiltIn
from .code_site import code_site, plugin_package, raised_at, top_package
from .option import Option
from .plugin_slips import entry_point_slip
from .setting import Setting, merged, read_settings, refused_keys
from .unsent import COMMON_INPUTS, LOCALE_PARTS, usable_declaration, usable_filters

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

logger = logging.getLogger("websearch_sync")
T = TypeVar("T")

DEFAULT_BACKEND = "stub"
#: The entry-point group third-party backends are declared in.
PLUGIN_GROUP = "websearch_sync.backends"
#: The kinds of backend: offline, scrapers, APIs (the built-ins are listed in this order).
_KIND_ORDER = ("offline", "html", "json")

#: ``{name: {vertical: class}}``: a service's web engine and its engines for other verticals share its name.
#: A built-in engine is its :class:`~.builtin.BuiltIn` row until first asked for (:func:`_loaded`).
_REGISTRY: dict[str, dict[str, Union[type[Backend], BuiltIn]]] = {
    name: {row.vertical: row for row in BUILT_IN if row.name == name}
    for name in dict.fromkeys(r.name for r in BUILT_IN)
}
#: The built-in backends' names (a plugin may not replace them).
_BUILT_IN = frozenset(_REGISTRY)
#: The registry as installed, before any plugin loads or registration (:func:`forget_registrations`).
_INSTALLED = {name: dict(engines) for name, engines in _REGISTRY.items()}
#: ``{entry-point name: why}`` of the plugins skipped: an error naming one of them says why.
_SKIPPED: dict[str, str] = {}
#: ``{entry-point name: module:Class}`` of the plugins skipped (:func:`plugin_source`).
_SKIPPED_SOURCES: dict[str, str] = {}
#: Those of :data:`_SKIPPED` whose entry-point name cannot be a backend's (``demo-search``).
_SKIPPED_ELSEWHERE: dict[str, str] = {}
#: ``{(name, vertical): why}`` of the skipped plugins whose class declares a usable name and vertical:
#: a backend's engine for another vertical (``demo_news = "demo_search:DemoNews"``, named ``demo``)
#: skipped under its entry point's name, and an error about ``demo``'s news says why.
_SKIPPED_ENGINES: dict[tuple[str, str], str] = {}
_PLUGINS_LOADED = False
_PLUGINS_LOADING = False
#: The entry points (``(name, value)``) loaded or skipped so far: a load an interrupt stopped
#: (Ctrl-C in a long-lived process) resumes at the next question with the others, not again with these.
_PLUGINS_DONE: set[tuple[str, str]] = set()
#: The entry points whose last load an interrupt stopped: tried again at the next question, and
#: skipped when that load is interrupted too (:func:`_load_plugin`), so that a plugin raising
#: ``KeyboardInterrupt`` at import costs two questions, not every one.
_INTERRUPTED_LOADS: set[tuple[str, str]] = set()
#: ``{(name, vertical): entry point}``: which entry point (``(name, value)``) registered each plugin
#: engine, so that loading it again (its load interrupted after it registered) is no conflict with itself.
_PLUGIN_ENGINES: dict[tuple[str, str], tuple[str, str]] = {}
#: The attribute of a ``KeyboardInterrupt`` that came while a plugin loaded: that plugin (:func:`interrupted_plugin`).
_PLUGIN_INTERRUPTED = "websearch_sync_plugin"
#: Held while plugins load: another thread's first question waits for them (re-entrant: a
#: plugin asking the registry while it loads is answered without them); and while the registry
#: changes (readers read :data:`_REGISTRY` anew each time, never a reference kept from before).
_PLUGINS_LOCK = module_global(__name__, "_PLUGINS_LOCK", threading.RLock)


def _loading_forgotten() -> None:
    """In a forked child: a parent's thread loading plugins at the fork is not there to finish, so
    the child's first question loads them (else it never would: they would stay "loading")."""
    global _PLUGINS_LOADING
    _PLUGINS_LOADING = False


in_children(_loading_forgotten)
#: Counts the changes of what is registered (:func:`register`, :func:`unregister`): what is worked
#: out of the registry on every call (:func:`bot_walls`) is kept while it stays the same.
_GENERATION = 0
#: Registrations and unregistrations that outlive the :func:`kept` block they are made in, as
#: ``(name, vertical, class)`` (class ``None``: unregistered; vertical ``None``: every vertical): those an
#: imported module's top level makes (an application's ``@register`` at import: the import is not
#: made again) and those of a :func:`lasting` block (a pytest fixture wider than a test).
_LASTING: list[tuple[str, Optional[str], Optional[type[Backend]]]] = []
#: A backend name: what users type (``backend="ddg_html"``) and what items carry as ``provider``.
_NAME = re.compile(r"[a-z][a-z0-9_]{0,63}")


def _strings(value: object) -> bool:
    return isinstance(value, (tuple, list)) and all(isinstance(item, str) for item in value)


def _optional_int(value: object) -> bool:
    return value is None or (isinstance(value, int) and not isinstance(value, bool))


def _json_path(value: object) -> bool:
    """A place in a JSON answer: a key, or a non-empty tuple (or list) of keys."""
    keys = (value,) if isinstance(value, str) else value
    return isinstance(keys, (tuple, list)) and bool(keys) and all(isinstance(key, str) and key for key in keys)


def _optional_path(value: object) -> bool:
    return value is None or _json_path(value)


_PATH = "a key, a tuple of keys (a path into the JSON) or None"
#: What :func:`declaration_problem` reads of a declaration the class does not have.
_ABSENT = object()
#: Class declarations, each by its name, what a usable value of it is, and the check of that.
Declarations = tuple[tuple[str, str, Callable[[Any], bool]], ...]
#: Each class declaration a backend makes.
_DECLARATIONS: Declarations = (
    (
        "name",
        "lower-case letters, digits and _, starting with a letter, other than auto",
        lambda v: isinstance(v, str) and _NAME.fullmatch(v) is not None and v != "auto",  # backend="auto": the chain
    ),
    ("kind", "one of %s" % ", ".join(_KIND_ORDER), lambda v: v in _KIND_ORDER),
    ("vertical", "one of %s" % ", ".join(VERTICALS), lambda v: v in VERTICALS),
    ("results_per_page", "an int or None", _optional_int),
    ("fills_short_page", "a bool", lambda v: isinstance(v, bool)),
    ("text_format", "one of %s" % ", ".join(TEXT_FORMATS), lambda v: v in TEXT_FORMATS),
    ("summary", "a string", lambda v: isinstance(v, str)),
    ("default_endpoint", "a string or None", lambda v: v is None or isinstance(v, str)),
    (
        "provider_settings",
        "a tuple of Setting with distinct names",
        lambda v: (
            isinstance(v, tuple) and all(isinstance(s, Setting) for s in v) and len({s.name for s in v}) == len(v)
        ),
    ),
    (
        "env_vars",
        "a dict of strings",
        lambda v: isinstance(v, Mapping) and _strings(list(v)) and _strings(list(v.values())),
    ),
    ("required", "a tuple of strings", _strings),
    (
        "options",
        "a tuple of Option (or option names) with distinct names",
        lambda v: (
            isinstance(v, tuple)
            and all(isinstance(o, (Option, str)) for o in v)
            and len({getattr(o, "name", o) for o in v}) == len(v)
        ),
    ),
    ("auto_languages", "a tuple of strings", _strings),
    ("volatile_params", "a tuple of strings", _strings),
    (
        "unsent",
        "a tuple of common inputs (%s), each maybe with =<value>, or parts of the locale (%s)"
        % (", ".join(COMMON_INPUTS), ", ".join(LOCALE_PARTS)),
        usable_declaration,
    ),
    (
        "min_interval_s",
        "a number >= 0",
        lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v < float("inf"),
    ),
    ("max_query_chars", "an int or None", _optional_int),
    ("max_results_limit", "an int or None", _optional_int),
    ("auto_rank", "an int or None", _optional_int),
    ("provides_content", "True or False", lambda v: isinstance(v, bool)),
    (
        "bot_walls",
        "a tuple of BotWall",
        lambda v: isinstance(v, tuple) and all(isinstance(wall, BotWall) for wall in v),
    ),
)

#: A JSON API's declared reading: JsonApiEngine's, checked by its ``reading_problem``
#: (:func:`unusable_value`); another backend has none of them, and a value of its own by those names is its own.
JSON_DECLARATIONS: Declarations = (
    ("results_at", _PATH, _optional_path),
    ("request_id_at", _PATH, _optional_path),
    ("content_field", _PATH, _optional_path),
    (
        "result_fields",
        "a dict of item fields to vendor fields (each %s)" % _PATH.replace(" or None", ""),
        lambda v: isinstance(v, Mapping) and _strings(list(v)) and all(map(_json_path, v.values())),
    ),
)


def _optional_name(value: object) -> bool:
    return value is None or (isinstance(value, str) and bool(value))


#: An HTML engine's declared paging: HtmlEngine's, checked by its ``reading_problem`` (as
#: :data:`JSON_DECLARATIONS`); another backend has none of them.
HTML_DECLARATIONS: Declarations = (
    ("first_result_field", "a non-empty string or None", _optional_name),
    ("query_field", "a non-empty string or None", _optional_name),
    ("first_result_step", "an int >= 1 or None", lambda v: v is None or (_optional_int(v) and v >= 1)),
    ("first_result_base", "an int >= 0", lambda v: v is not None and _optional_int(v) and v >= 0),
)


def _what_it_is(value: object) -> str:
    """What was given where a backend class was wanted, said so that the slip shows: a module
    (an entry point without ``:Class``: :func:`_plugin_problem` says how to name the class) or an
    instance of the class."""
    if inspect.ismodule(value):
        return "the module %s" % value.__name__
    if isinstance(value, Backend):
        return "an instance of %s (name the class, not an instance)" % type(value).__qualname__
    if inspect.isclass(value):
        return "the class %s" % value.__qualname__
    kind = type(value).__name__
    return "%s %s" % ("an" if kind[:1].lower() in "aeiou" else "a", kind)


def declaration_problem(cls: object) -> Optional[str]:
    """What makes ``cls`` unusable as a backend (``None`` when nothing does): not a
    :class:`Backend` subclass, or a class declaration of the wrong kind, e.g. a
    ``text_format`` that is not ``"html"``/``"text"``, ``env_vars=None``, a name with
    capitals (``"MySearch"``: users type names, items carry them, so they are refused
    rather than listed and unusable), or a declaration that raises when read."""
    if not (inspect.isclass(cls) and issubclass(cls, Backend)):
        return "not a websearch_sync.backends.Backend subclass: %s" % _what_it_is(cls)
    problem = (
        unusable_value(cls, _DECLARATIONS)
        or _misnamed(cls)
        or _miscalled(cls)
        or _misspelt(cls)
        or cls.reading_problem()
    )
    if problem is not None:
        return problem
    if not usable_filters(cls.filters, cls.vertical):  # after the loop: vertical is known to be one
        return "its filters are %r, not filters of its vertical %s mapping their values to tokens (%s)" % (
            cls.filters,
            cls.vertical,
            ", ".join(name for name, (vertical, _) in MEDIA_FILTERS.items() if vertical == cls.vertical) or "none",
        )
    try:
        cls.declared_settings()
    except TypeError as exc:  # env_vars naming an empty variable
        return "its settings are unusable: %s" % exc
    try:
        cls.declared_options()
    except TypeError as exc:  # a name in options that is no keyword
        return "its options are unusable: %s" % exc
    return cls.options_problem()


def unusable_value(cls: type[Backend], declarations: Declarations) -> Optional[str]:
    """The first of the ``declarations`` (:data:`_DECLARATIONS`, :data:`JSON_DECLARATIONS`, :data:`HTML_DECLARATIONS`) whose
    value on ``cls`` is of the wrong kind or raises when read."""
    for attribute, expected, usable in declarations:
        try:
            value = getattr(cls, attribute, _ABSENT)
            ok = value is _ABSENT or usable(value)  # absent: a declaration of another kind of backend
        except Exception as exc:  # a property of a third-party class: anything may come out of it
            return "reading its %s raised %s: %s" % (attribute, type(exc).__name__, exc)
        if not ok:
            return "its %s is %r, not %s" % (attribute, value, expected)
    return None


#: What :class:`Backend` sets on each instance: a class attribute of that name is a declaration misnamed.
_INSTANCE_FIELDS = ("settings", "config")


def _did_you_mean_declaration(name: str) -> str:
    declarations = _DECLARATIONS + JSON_DECLARATIONS + HTML_DECLARATIONS
    close = difflib.get_close_matches(name, [declared for declared, _, _ in declarations], n=1)
    return " (did you mean %s?)" % close[0] if close else ""


def _is_code(value: object) -> bool:
    """Whether a class attribute is a method (a function, classmethod, staticmethod or property), not a value."""
    return callable(value) or isinstance(value, (classmethod, staticmethod, property))


#: The modules of the classes a backend is made of (Backend, HtmlEngine, JsonApiEngine): their
#: attributes are the declarations (:func:`_misspelt`).
_KIT_MODULES = PACKAGE.rsplit(".", 1)[0] + ".engine."


def _misspelt(cls: type[Backend]) -> Optional[str]:
    """A class value whose name is a declaration's, misspelt (``result_field`` for ``result_fields``,
    ``min_interval`` for ``min_interval_s``): the declaration meant is not made, and its default
    would be read without a word. A name close to declarations the plugin's own classes all make
    (``names`` beside its ``name``, ``filter`` beside its ``filters``) is a value of its own, no slip."""
    kit = _kit(cls)
    known = {name for klass in kit for name in vars(klass)}
    declarations = sorted(name for name, _ in _values(kit))
    own = [klass for klass in cls.__mro__ if klass not in kit and klass is not object]
    made = {name for klass in own for name in vars(klass)}
    for name, _ in _values(own):
        if name in known:
            continue
        close = [meant for meant in difflib.get_close_matches(name, declarations, cutoff=0.85) if meant not in made]
        if close:
            return "its %s is no declaration (did you mean %s?)" % (name, close[0])
    return None


def _kit(cls: type[Backend]) -> list[type]:
    """The classes of the kit ``cls`` is made of (:data:`_KIT_MODULES`)."""
    return [klass for klass in cls.__mro__ if klass.__module__.startswith(_KIT_MODULES)]


def _values(classes: list[type]) -> Iterator[tuple[str, object]]:
    """The public class values (not methods) the classes define, by name."""
    for klass in classes:
        for name, value in vars(klass).items():
            if not name.startswith("_") and not _is_code(value):
                yield name, value


def _misnamed(cls: type[Backend]) -> Optional[str]:
    """A class attribute that replaces what every backend needs: a method of the kit (:class:`Backend`,
    ``JsonApiEngine``...) made a value (``option = (...)`` for ``options``, ``request_id = "trace"``
    for ``request_id_at``), or an instance field set on the class (``settings = (...)`` for
    ``provider_settings``); the declaration meant is then not made."""
    kit = _kit(cls)
    for klass in cls.__mro__[: cls.__mro__.index(Backend)]:  # the classes above Backend, mixins too
        for name, value in vars(klass).items():
            if name in _INSTANCE_FIELDS:
                return "its %s is set on the class%s" % (name, _did_you_mean_declaration(name))
            owner = next((k for k in kit if inspect.isfunction(vars(k).get(name))), None)
            if name.startswith("_") or owner is None or _is_code(value):
                continue
            return "its %s is a %s, which replaces %s.%s%s" % (
                name,
                type(value).__name__,
                _PUBLIC_NAMES.get(owner.__name__, owner.__name__),
                name,
                _did_you_mean_declaration(name),
            )
    return None


def _miscalled(cls: type[Backend]) -> Optional[str]:
    """A method of the kit the class overrides with one that cannot take the arguments the library
    calls it with (``build_request(self)`` for ``build_request(self, params)``, ``parse(self, response)``):
    else a ``TypeError`` raised inside the library at its first search, an internal error that names
    no line of the plugin's code."""
    kit = _kit(cls)
    for klass in cls.__mro__[: cls.__mro__.index(Backend)]:
        if klass in kit:
            continue
        for name, value in vars(klass).items():
            meant = next((vars(k)[name] for k in kit if inspect.isfunction(vars(k).get(name))), None)
            if name.startswith("_") or meant is None or not inspect.isfunction(value):
                continue
            called = [p for p in inspect.signature(meant).parameters.values() if _required_positional(p)]
            try:
                inspect.signature(value).bind(*[None] * len(called))
            except TypeError:
                return "its %s%s cannot take the arguments it is called with: %s(%s)" % (
                    name,
                    inspect.signature(value),
                    name,
                    ", ".join(p.name for p in called),
                )
    return None


def _required_positional(parameter: inspect.Parameter) -> bool:
    """A parameter every call gives, by its place."""
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return parameter.kind in positional and parameter.default is inspect.Parameter.empty


#: The kit's classes by the names plugins import them under (``websearch_sync.backends``).
_PUBLIC_NAMES = {"JsonApiBackend": "JsonApiEngine"}


def _unimplemented(cls: type[Backend]) -> Optional[str]:
    """Which of the two functions a searching backend implements it lacks (a misnamed
    ``build`` or ``parse_response``): a ``NotImplementedError`` at its first search, else."""
    if cls.kind == "offline" or cls.search is not Backend.search:  # an offline one, or one that searches its own way
        return None
    if cls.build_request is Backend.build_request:
        return "it does not implement build_request(params)"
    return cls.reader_problem()


@overload
def register(cls: type[Backend], *, replace: bool = False) -> type[Backend]: ...


@overload
def register(cls: None = None, *, replace: bool = False) -> Callable[[type[Backend]], type[Backend]]: ...


def register(
    cls: Optional[type[Backend]] = None, *, replace: bool = False
) -> Union[type[Backend], Callable[[type[Backend]], type[Backend]]]:
    """Register a backend class under ``(cls.name, cls.vertical)`` (usable as a class
    decorator, ``@register`` or ``@register(replace=True)``); ``TypeError`` naming the problem when
    its declarations are unusable. One that replaces a built-in engine (a test's fake ``ddg_html``)
    does so, with a warning logged once per process per engine (again after the testing kit's ``reset()``)
    naming what it replaces and how it is put back, unless ``replace=True`` says it is meant (an installed plugin may not replace one at
    all: :func:`_plugin_problem`)."""
    if cls is None:
        return lambda cls: _registered_lasting(cls, replace)
    return _registered_lasting(cls, replace)


def _registered_lasting(cls: type[Backend], replace: bool) -> type[Backend]:
    """:func:`register`'s work, called by it or by the decorator it returns (both one frame below the
    caller :func:`_at_import` looks at)."""
    _register(cls, said=None if replace else _warn_replaced)
    _lasting_if_imported(cls.name, cls.vertical, cls, depth=3)
    return cls


#: The engines ``(name, vertical)`` a :func:`register` without ``replace=True`` replaced or added to a
#: built-in backend (said once each).
_REPLACED_SAID = Once()


def _built_in_row(name: str, vertical: str) -> Optional[BuiltIn]:
    return next((row for row in BUILT_IN if (row.name, row.vertical) == (name, vertical)), None)


def _warn_replaced(cls: type[Backend]) -> None:
    """Log once per engine that ``cls`` replaces the built-in engine registered under its name and vertical."""
    row = _built_in_row(cls.name, cls.vertical)
    current = _REGISTRY.get(cls.name, {}).get(cls.vertical)
    if row is None and current is None and cls.name in _BUILT_IN:
        _warn_joined(cls)
        return
    if row is None or current is None or current is cls:
        return
    built_in = "%s.%s.%s" % (PACKAGE, row.module, row.cls)
    if not (isinstance(current, BuiltIn) or "%s.%s" % (current.__module__, current.__qualname__) == built_in):
        return  # what it replaces is not the built-in (a fake already): said when that one replaced it
    if not _REPLACED_SAID.first((cls.name, cls.vertical)):
        return
    logger.warning(
        "websearch_sync: register(%s.%s) replaces the built-in backend %r (%s: %s.%s) in this process: under"
        " pytest the testing plugin puts it back after the test (unless registered at import), elsewhere"
        " register(%s) from %s.%s puts it back (unregister(%r) removes the backend); pass replace=True when"
        " replacing it is meant (said once per engine)",
        cls.__module__,
        cls.__qualname__,
        cls.name,
        cls.vertical,
        PACKAGE,
        row.module + "." + row.cls,
        row.cls,
        PACKAGE,
        row.module,
        cls.name,
    )


def _warn_joined(cls: type[Backend]) -> None:
    """Log once per engine that ``cls`` adds a vertical to the built-in backend of its name (an installed
    plugin taking a built-in's name is refused: in code it is allowed, and said)."""
    if not _REPLACED_SAID.first((cls.name, cls.vertical)):
        return
    logger.warning(
        "websearch_sync: register(%s.%s) adds the vertical %r to the built-in backend %r in this process (a"
        " search of %r with vertical=%r runs it); give the class another name if it is a backend of its own,"
        " or pass replace=True when adding it is meant (said once per engine)",
        cls.__module__,
        cls.__qualname__,
        cls.vertical,
        cls.name,
        cls.name,
        cls.vertical,
    )


def register_checked(cls: type[Backend]) -> type[Backend]:
    """:func:`register` for a class already found usable, without :func:`declaration_problem` again
    (half a millisecond a class): one the registry held, put back, or the testing kit's subclass of
    one whose own attributes are the kit's (``fake_results`` and ``replay_fixtures`` swap every
    network backend's engines in and back out, 30 ms a block when each was checked twice)."""
    _placed_now(cls)
    _lasting_if_imported(cls.name, cls.vertical, cls)
    return cls


def _register(cls: type[Backend], said: Optional[Callable[[type[Backend]], None]] = None) -> None:
    """:func:`register` without deciding whether it lasts: a plugin :func:`load_plugins` registers
    is loaded afresh after :func:`forget_registrations`, whatever import asked the first question.
    ``said(cls)`` is called once the declarations are found usable, before ``cls`` is placed."""
    problem = declaration_problem(cls)
    if problem is not None:
        raise TypeError("register(%r): %s" % (cls, problem))
    if said is not None:
        said(cls)
    _placed_now(cls)


def _placed_now(cls: type[Backend]) -> None:
    """Put ``cls`` in the registry (under the lock) and mark the change."""
    global _GENERATION, _REGISTRY
    with _PLUGINS_LOCK:
        changed = dict(_REGISTRY)  # never changed in place: another thread may be going through it
        _placed(changed, cls)
        _REGISTRY = changed
        _GENERATION += 1


def _lasting_if_imported(name: str, vertical: Optional[str], cls: Optional[type[Backend]], depth: int = 2) -> None:
    """Make a registration (``cls`` ``None``: an unregistration) outlive the :func:`kept` blocks open when
    :func:`_at_import` finds it made at import: the one mechanism of :func:`register`,
    :func:`register_checked` and :func:`unregister`. ``depth`` counts the frames from the registry's
    function that called this one to the code that called the registry (2: that function was called
    directly; 3: through :func:`register` or the decorator it returns)."""
    if _at_import(depth + 1):
        _LASTING.append((name, vertical, cls))


def _at_import(depth: int = 2) -> bool:
    """Whether :func:`register` or :func:`unregister` is called from a module's top level (its
    import, or a script's) or while a module is imported, at any depth (a ``setup_backends()``
    helper the module calls as it is imported): such a change outlives the :func:`kept` block it
    is made in, as the import is not made again."""
    caller: Optional[FrameType] = sys._getframe(depth)
    if caller is not None and caller.f_code.co_name == "<module>":
        return True
    while caller is not None:
        if caller.f_code.co_name == "<module>" and _importing(caller):
            return True
        caller = caller.f_back
    return False


def _importing(frame: FrameType) -> bool:
    """Whether ``frame`` (a module's top level) runs the import of a module: its globals are those of
    a module in ``sys.modules`` (there from the import's start), not ``__main__``'s, the script whose
    top level is at the bottom of every stack (``python -m pytest``'s too), nor a namespace a host
    runs code in that is no module's (an xdist worker's ``__channelexec__``)."""
    name = frame.f_globals.get("__name__")
    module = sys.modules.get(name) if isinstance(name, str) and name != "__main__" else None
    return module is not None and getattr(module, "__dict__", None) is frame.f_globals


@contextlib.contextmanager
def kept() -> Iterator[None]:
    """What is registered as the block opens is registered again as it ends: a backend
    registered, replaced or unregistered inside it is undone (the pytest plugin wraps each test
    in it, so a test's ``register`` cannot change the backends of the tests after it), except
    what lasts (:data:`_LASTING`: a module's import, a :func:`lasting` block). The plugins are
    loaded first, so the block does not own their loading."""
    load_plugins()
    generation = _GENERATION
    saved = _snapshot()
    lasting_before = len(_LASTING)
    try:
        yield
    finally:
        if _GENERATION != generation:
            _restore(saved, _LASTING[lasting_before:])


@contextlib.contextmanager
def lasting() -> Iterator[None]:
    """What is registered, replaced or unregistered inside the block outlives the :func:`kept`
    blocks open around it (the pytest plugin opens one around the set-up of each fixture wider
    than a test: a session fixture's backend stays for the session)."""
    before = _snapshot()
    try:
        yield
    finally:
        lasting_since(before)


def lasting_since(before: Optional[Mapping[str, Mapping[str, Union[type[Backend], BuiltIn]]]] = None) -> None:
    """Make what changed since the registry was ``before`` (a :func:`_snapshot`; ``None``: as
    installed, for a block in which the registry was first imported) outlive the :func:`kept`
    blocks open (:func:`lasting`)."""
    if before is None:
        before = _INSTALLED
    for name, engines in _REGISTRY.items():
        for vertical, engine in engines.items():
            was = before.get(name, {}).get(vertical)
            if was is not engine and not (isinstance(was, BuiltIn) and _loaded(was) is engine):
                _LASTING.append((name, vertical, _loaded(engine)))
    for name, verticals in before.items():
        for vertical in verticals:
            if vertical not in _REGISTRY.get(name, {}):
                _LASTING.append((name, vertical, None))


def _snapshot() -> dict[str, dict[str, Union[type[Backend], BuiltIn]]]:
    return {name: dict(engines) for name, engines in _REGISTRY.items()}


def forget_registrations() -> None:
    """Back to the backends as installed: the built-in ones, those registered to last (an imported
    module's ``register``, :func:`lasting`), and the plugins loaded again at the next question (the
    pytest plugin, after the test in which the library came into use)."""
    global _PLUGINS_LOADED
    with _PLUGINS_LOCK:
        _restore(_INSTALLED, _LASTING)
        _SKIPPED.clear()
        _SKIPPED_SOURCES.clear()
        _SKIPPED_ELSEWHERE.clear()
        _SKIPPED_ENGINES.clear()
        _PLUGINS_DONE.clear()
        _INTERRUPTED_LOADS.clear()
        _PLUGIN_ENGINES.clear()
        _PLUGINS_LOADED = False


def _restore(
    saved: Mapping[str, dict[str, Union[type[Backend], BuiltIn]]],
    lasting: list[tuple[str, Optional[str], Optional[type[Backend]]]],
) -> None:
    """The registry as ``saved``, with the ``lasting`` changes made again in order: built aside and
    put in place in one step, under the lock, so that another thread (a server a session fixture
    started) never reads a registry half restored."""
    global _GENERATION, _REGISTRY
    restored = {name: dict(engines) for name, engines in saved.items()}
    for name, vertical, cls in lasting:
        if cls is None:
            _unregistered(restored, name, vertical)
        else:
            _placed(restored, cls, name, vertical)
    with _PLUGINS_LOCK:
        _REGISTRY = restored
        _GENERATION += 1


def _placed(
    into: dict[str, dict[str, Union[type[Backend], BuiltIn]]],
    cls: type[Backend],
    name: Optional[str] = None,
    vertical: Optional[str] = None,
) -> None:
    """Put ``cls`` in the registry ``into`` under ``name`` and ``vertical`` (its own by default)."""
    name = name or cls.name
    engines = dict(into.get(name, {}))
    engines[vertical or cls.vertical] = cls
    into[name] = {v: engines[v] for v in VERTICALS if v in engines}  # in the order of VERTICALS


def unregister(name: str, vertical: Optional[str] = None, *, missing_ok: bool = False) -> None:
    """Remove a registered backend, all its verticals or one (for tests and plug-ins).

    A name no backend has is ``InvalidInput(unknown_backend)`` with the closest registered name, as
    a search naming it gets (a slip, ``unregister("ddg_htm")``, left ``ddg_html`` in place without a
    word), and a vertical the backend does not serve is ``InvalidInput(unsupported_vertical)``;
    ``missing_ok=True`` lets either pass (a clean-up that may run after the backend is gone). A
    ``vertical`` that is none of web, news, images, videos is ``InvalidInput(bad_vertical)`` either way."""
    global _GENERATION, _REGISTRY
    if vertical is not None:
        vertical = check_choice("vertical", vertical, VERTICALS, BAD_VERTICAL)
    load_plugins()  # else a plugin's backend removed before the first question came back when the plugins loaded
    if not missing_ok:
        _registered_engines(name) if vertical is None else _registered_engine(name, vertical)
    with _PLUGINS_LOCK:
        changed = dict(_REGISTRY)  # never changed in place: another thread may be going through it
        _unregistered(changed, name, vertical)
        _REGISTRY = changed
        _GENERATION += 1
    _lasting_if_imported(name, vertical, None)


def _unregistered(
    into: dict[str, dict[str, Union[type[Backend], BuiltIn]]], name: str, vertical: Optional[str]
) -> None:
    """Remove backend ``name`` (or its ``vertical`` engine) from the registry ``into``; each
    backend's engines are replaced, never changed in place, so a reader iterating them is safe."""
    if vertical is None:
        into.pop(name, None)
        return
    engines = {v: engine for v, engine in into.get(name, {}).items() if v != vertical}
    if engines:
        into[name] = engines
    else:
        into.pop(name, None)


class _Catalogue:
    """The registry as configuration sees it (:class:`websearch_sync.config.BackendCatalogue`)."""

    def names(self) -> list[str]:
        return backend_names()

    def closest(self, name: str) -> Optional[str]:
        return closest_backend(name)

    def skipped(self, name: str) -> Optional[str]:
        return skipped_plugin(name)

    def misgrouped(self, name: str) -> Optional[str]:
        return entry_point_of_another_name(name) or misgrouped(name) or removed_here(name)

    def read_settings(
        self, name: str, given: Mapping[str, Any], environ: Optional[Mapping[str, str]] = None
    ) -> dict[str, Any]:
        engines = _known()[name].values()
        if not given and _nothing_set(name, engines, environ):
            return {}  # as read_settings would find, without importing the engines to ask them
        return read_settings(name, _declared(engines), given, environ)

    def refused_settings(self, name: str, values: Mapping[str, Any]) -> frozenset[str]:
        return refused_keys(name, _declared(_known()[name].values()), values)

    def variables(self) -> set[str]:
        """The variables every registered engine declares: a built-in not imported yet by the static
        table (:data:`~.builtin.ENV_VARS`), so that asking imports no engine."""
        found: set[str] = set()
        for name, engines in _known().items():
            for engine in engines.values():
                if isinstance(engine, BuiltIn):
                    found.update(ENV_VARS.get(name, ()))
                else:
                    found.update(setting.env for setting in engine.declared_settings() if setting.env)
        return found


def _declared(engines: Iterable[Union[type[Backend], BuiltIn]]) -> tuple[Setting, ...]:
    """The settings a backend's ``engines`` declare, as one declaration (:func:`~.setting.merged`)."""
    return merged(*(_loaded(engine).declared_settings() for engine in engines))


def _nothing_set(
    name: str, engines: Iterable[Union[type[Backend], BuiltIn]], environ: Optional[Mapping[str, str]]
) -> bool:
    """Whether no variable of ``environ`` sets a setting of backend ``name`` whose engines are
    built-ins not imported yet: none of the variables the static table names for it
    (:data:`~.builtin.ENV_VARS`) is set."""
    if not all(isinstance(engine, BuiltIn) for engine in engines):
        return False
    return environ is None or not any(config.env_text(environ, var) for var in ENV_VARS.get(name, ()))


config.use_backends(_Catalogue())


def _known() -> dict[str, dict[str, Union[type[Backend], BuiltIn]]]:
    """The registry, with the plugins registered (the first call loads them)."""
    load_plugins()
    return _REGISTRY


#: Each built-in row's class once imported and checked (:func:`_loaded`). A restored registry holds
#: the rows again (:func:`kept` restores it after a test that registered a backend): the class
#: found is then the one checked, and its declarations are not read again (0.9 ms a class; a
#: test searching after such a test checked about ten).
_CHECKED: dict[BuiltIn, type[Backend]] = {}


def _loaded(engine: Union[type[Backend], BuiltIn]) -> type[Backend]:
    """The class of a registered engine: a built-in's module is imported the first time,
    and its class checked against its row of the table (``TypeError`` naming both when
    they disagree: a defect here, which tests/unit/test_builtin_table.py catches first)."""
    if not isinstance(engine, BuiltIn):
        return engine
    cls: type[Backend] = getattr(importlib.import_module("%s.%s" % (PACKAGE, engine.module)), engine.cls)
    if _CHECKED.get(engine) is not cls:
        problem = declaration_problem(cls)
        if problem is None and (cls.name, cls.vertical) != (engine.name, engine.vertical):
            problem = "it declares %s for %s" % (cls.name, cls.vertical)
        if problem is not None:
            raise TypeError("built-in backend %r: %s" % (engine, problem))
        _CHECKED[engine] = cls
    engines = _REGISTRY.get(engine.name, {})
    if engines.get(engine.vertical) is engine:  # still registered: next time the class itself is found
        engines[engine.vertical] = cls
    return cls


def generation() -> int:
    """How many times what is registered changed: a memo of what the registry said is kept
    while this stays the same (the plugins loaded at the first question are a change too)."""
    load_plugins()
    return _GENERATION


def backend_names() -> list[str]:
    """Names of every registered backend: built-ins (offline, HTML, JSON), then plugins."""
    return list(_known())


def _engines() -> Iterator[type[Backend]]:
    """Every registered engine class, each backend's in the order of :data:`VERTICALS`
    (importing every built-in engine not imported yet)."""
    for engines in _known().values():
        for engine in list(engines.values()):
            yield _loaded(engine)


#: The registry's generation, its engine classes, their declared walls (each engine's tuple, in
#: order) and the walls made of them.
_walls_seen: tuple[int, tuple[type[Backend], ...], tuple[tuple[BotWall, ...], ...], list[BotWall]] = (-1, (), (), [])


#: An engine class's declared walls (its ``bot_walls``).
_DECLARED_WALLS = operator.attrgetter("bot_walls")


def bot_walls() -> list[BotWall]:
    """The bot walls every registered backend declares, in registration order (each once).

    Every fetched page, and every search answer an HTML engine reads no results from, is
    checked against them (:mod:`.html_engine`): the list is kept while the registry is
    the same (:data:`_GENERATION`) and its engines' declarations are the same objects (a
    test's patch of a class's ``bot_walls`` makes a new one)."""
    global _walls_seen
    generation, engines, declared, walls = _walls_seen
    fresh = generation != _GENERATION or not _PLUGINS_LOADED
    if fresh:
        generation = _GENERATION  # read first: a registration meanwhile makes the next call look again
        engines = tuple(_engines())  # loads the plugins (a new generation) the first time
    now = tuple(map(_DECLARED_WALLS, engines))  # in C: no Python step per engine (35 of them)
    if fresh or not all(map(operator.is_, now, declared)):
        declared = now
        walls = list(dict.fromkeys(wall for engine_walls in declared for wall in engine_walls))
        _walls_seen = (generation, engines, declared, walls)
    return list(walls)


def wall_error(response: HttpResponse, provider: Optional[str]) -> Optional[WebBlocked]:
    """``WebBlocked(captcha_required)`` when ``response`` is any registered backend's bot wall or a
    generic one (:func:`~websearch_sync.net.botwall.bot_wall_error`), else ``None``: what an answer
    of an unknown kind (a page where JSON was asked, a fetched page) is checked against."""
    return bot_wall_error(response, provider, bot_walls())


def text_is_markup(provider: str, vertical: str = "web") -> bool:
    """Whether ``provider``'s text fields are HTML (the ``text_format`` of its ``vertical``
    engine); a name no backend is registered under (only outside a search: a search's
    items are checked by :func:`checked_result`) is read as HTML, which strips the most."""
    engine = _known().get(provider, {}).get(vertical)
    return engine is None or _loaded(engine).text_format == "html"


def backend_options() -> list[str]:
    """Every backend-specific ``search()`` option some registered backend understands (sorted, no repeats)."""
    return sorted({option for cls in _engines() for option in cls.option_names()})


def option_kinds(name: str) -> set[str]:
    """The kinds (``Option.kind``) registered engines declare option ``name`` with (empty: none)."""
    return {option.kind for cls in _engines() for option in cls.declared_options() if option.name == name}


def option_details(name: str) -> set[str]:
    """The detail codes (``Option.detail``) registered engines refuse a value of option ``name`` with."""
    return {option.detail for cls in _engines() for option in cls.declared_options() if option.name == name}


def _squeezed(text: str) -> str:
    return "".join(char for char in text.lower() if char.isalnum())


def closest_backend(name: Any) -> Optional[str]:
    """The registered backend a mistyped or informal ``name`` most likely means, or ``None``:
    the first whose name it begins (``ddg``: ``ddg_html``) or whose summary's first word it
    is (``duckduckgo``: "DuckDuckGo HTML endpoint"), else the closest spelling in any case
    (``brvae``, ``DDG_HTML``), of a name or of its part before ``_`` (``ddgg``: ``ddg_html``,
    whose ``_html`` made the whole name too far from a slip in the engine's short one)."""
    if not isinstance(name, str) or not name.strip():
        return None
    wanted, lowered = _squeezed(name), name.strip().lower()
    for known in _known():
        summary = primary_class(known).summary
        if known.startswith(lowered + "_") or wanted == _squeezed(summary.split(" ", 1)[0]):
            return known
    spellings = {known: known for known in _known()}  # DDG_HTML: ddg_html, as search reads it
    for known in _known():
        spellings.setdefault(known.split("_", 1)[0], known)  # the first backend of a short name: ddg_html
    close = difflib.get_close_matches(lowered, list(spellings), n=1)
    return spellings[close[0]] if close else None


def skipped_plugins() -> dict[str, str]:
    """Why each installed plugin that is not registered was skipped, by its entry point's name
    (a backend's name, unless the name is one no backend can have), in the order they loaded."""
    load_plugins()
    return {name: why for name, why in _SKIPPED.items() if name not in _REGISTRY}


def plugin_source(name: str) -> Optional[str]:
    """The entry point (``module:Class``) of the installed plugin serving backend ``name``, its web
    engine's else its first vertical's, or of the plugin skipped under that entry-point name;
    ``None`` for a built-in backend or one registered in code."""
    load_plugins()
    engines = _REGISTRY.get(name) or {}
    for vertical in sorted(engines, key=lambda vertical: vertical != "web"):
        entry = _PLUGIN_ENGINES.get((name, vertical))
        if entry is not None:
            return entry[1]
    return None if engines else _SKIPPED_SOURCES.get(name)


def removed_here(name: Any) -> Optional[str]:
    """For a built-in backend or an installed plugin's that :func:`unregister` removed in this process:
    saying so (the other explanations, "no installed plugin registers it", would be untrue); else ``None``."""
    if not isinstance(name, str) or name in _REGISTRY:
        return None
    plugin = next((entry for (backend, _), (_, entry) in sorted(_PLUGIN_ENGINES.items()) if backend == name), None)
    if plugin is None and not any(row.name == name for row in BUILT_IN):
        return None
    return "the %s was removed in this process by unregister(%r): register it again, or start a new process" % (
        "backend of the installed plugin %s" % plugin if plugin else "built-in backend",
        name,
    )


def skipped_plugin(name: Any) -> Optional[str]:
    """Why the plugin declaring backend ``name`` was skipped (``None``: no plugin was). A plugin
    skipped under an entry-point name no backend can have (``demo-search``) may be the one
    declaring any unregistered name: each such is named, with why it was skipped. A plugin in a
    mistyped group was never read, not skipped (:func:`misgrouped`, which the unknown-backend
    messages name): settings for it stay refused as an unknown backend's."""
    load_plugins()
    if not isinstance(name, str):
        return None
    if name in _SKIPPED or name in _REGISTRY:
        return _SKIPPED.get(name)
    elsewhere = ["plugin %r %s" % (entry, why) for entry, why in _SKIPPED_ELSEWHERE.items()]
    if elsewhere:
        return "no backend is registered under this name; %s" % "; ".join(elsewhere)
    return None


def did_you_mean(name: Any) -> str:
    """For an unknown backend name: `` (<what may explain it>)``, as every unknown-backend message
    says it (:func:`~..config.why_unknown_backend`: one chain of explanations for settings, the
    command line and a search's ``backend=``)."""
    return " (%s)" % (config.why_unknown_backend(name) if isinstance(name, str) else config.NOT_INSTALLED)


def entry_point_of_another_name(name: Any) -> Optional[str]:
    """For a name that is a loaded plugin's entry point but not its backend's (``othername =
    "demo_search:DemoSearch"`` whose class says ``name = "demo"``): the backend it registers, which a
    search names; ``None`` otherwise."""
    for (backend, vertical), (entry, source) in sorted(_PLUGIN_ENGINES.items()):
        if entry == name and backend != name:
            serving = "" if vertical == "web" else " (its %s)" % vertical
            return "the plugin %s under this entry point registers backend %r%s: name that backend" % (
                source,
                backend,
                serving,
            )
    return None


def misgrouped(name: Any) -> Optional[str]:
    """Where an installed entry point named ``name`` is declared, when that is a group spelt close
    to :data:`PLUGIN_GROUP` (``websearch_sync.backend``, ``websearch-sync.backends``): a plugin the
    library never reads, which nothing else would mention. Read on this error's path alone."""
    from importlib import metadata

    if not isinstance(name, str):
        return None
    try:
        groups = sorted({e.group for d in metadata.distributions() for e in d.entry_points if e.name == name})
    except Exception:  # third-party metadata files, as _entry_points: loading the plugins said why
        return None
    close = [group for group in groups if group != PLUGIN_GROUP and _close_group(group)]
    if not close:
        return None
    return "an installed entry point %s is in the group %r, not %r, the group the library reads" % (
        name,
        close[0],
        PLUGIN_GROUP,
    )


def _close_group(group: str) -> bool:
    """``group`` is :data:`PLUGIN_GROUP` mistyped: a close spelling in any case, which takes in the
    same letters with other separators too (``Web-Search-Sync-Backends``, ``websearch_sync_backends``)."""
    return difflib.SequenceMatcher(None, group.lower(), PLUGIN_GROUP).ratio() >= 0.85


def verticals_of(name: str) -> tuple[str, ...]:
    """The verticals the backend ``name`` serves, in the order of :data:`VERTICALS` (none for an unknown name)."""
    return tuple(_known().get(name, {}))


def backends_for(vertical: str) -> list[str]:
    """The registered backends serving ``vertical``, in listing order."""
    return [name for name, engines in _known().items() if vertical in engines]


def backend_class(name: str, vertical: str = "web") -> type[Backend]:
    """The class of backend ``name`` for ``vertical``; ``InvalidInput(unknown_backend)`` for an
    unknown name, ``InvalidInput(unsupported_vertical)`` naming the backends that serve
    ``vertical`` when this one does not."""
    return _loaded(_registered_engine(name, vertical))


def _registered_engines(name: str) -> Mapping[str, Union[type[Backend], BuiltIn]]:
    """The registered engines of backend ``name`` by vertical; ``InvalidInput(unknown_backend)`` with
    what may explain the name (:func:`did_you_mean`) when it has none."""
    known = _known()
    try:
        return known[name]
    except (KeyError, TypeError):
        raise InvalidInput(
            # a URL's password is never said back (``backend="https://user:pw@searx.example/"``)
            userinfo_hidden("unknown backend %r%s; known backends: %s" % (name, did_you_mean(name), ", ".join(known))),
            detail_code=UNKNOWN_BACKEND,
        ) from None


def _registered_engine(name: str, vertical: str) -> Union[type[Backend], BuiltIn]:
    """The registered engine of backend ``name`` for ``vertical``, or the error saying why there is none
    (:func:`backend_class`'s, which :func:`unregister` gives as well)."""
    engines = _registered_engines(name)
    engine = engines.get(vertical)
    if engine is None:
        able = backends_for(vertical)
        skipped = _SKIPPED_ENGINES.get((name, vertical))
        raise InvalidInput(
            "backend %s does not search %s (it serves %s%s); backends that do: %s"
            % (
                name,
                vertical,
                ", ".join(engines),
                "; %s" % skipped if skipped else "",
                ", ".join(able) or "none registered",
            ),
            provider=name,
            detail_code=UNSUPPORTED_VERTICAL,
        )
    return engine


def primary_class(name: str) -> type[Backend]:
    """The class standing for backend ``name`` as a whole (its web engine, else its first
    vertical's): where its settings, endpoint and listing come from."""
    engines = _known().get(name)
    if not engines:
        return backend_class(name)  # the unknown_backend error
    return _loaded(engines.get("web") or next(iter(engines.values())))


def _entry_points() -> list[Any]:
    """The entry points of :data:`PLUGIN_GROUP`; none, with a warning, when the environment's
    metadata cannot be read (one distribution's malformed ``entry_points.txt`` makes
    ``importlib.metadata`` raise for every group)."""
    from importlib import metadata

    try:
        return list(metadata.entry_points(group=PLUGIN_GROUP))
    except Exception as exc:  # third-party metadata files: anything may come out of parsing them
        logger.warning(
            "websearch_sync: skipping every backend plugin: the installed distributions' entry points "
            "cannot be read (%s: %s)",
            type(exc).__name__,
            exc,
        )
        return []


def _load_plugin(entry: Any) -> None:
    """Load and register the plugin of ``entry``, or skip it saying why. An interrupt (Ctrl-C, the
    CLI's SIGTERM) is the host's and is raised, naming the plugin; the next question tries that
    plugin again, and an interrupt of that load too skips it (a plugin raising ``KeyboardInterrupt``
    itself cannot be told from Ctrl-C: it ended every question of a long-lived process) and is raised."""
    key = (entry.name, entry.value)
    try:
        cls = entry.load()
    except KeyboardInterrupt as interrupt:
        setattr(interrupt, _PLUGIN_INTERRUPTED, "%r (%s)" % key)
        if key in _INTERRUPTED_LOADS:
            _skip(entry, _INTERRUPTED_TWICE % type(interrupt).__name__)
            _PLUGINS_DONE.add(key)
        _INTERRUPTED_LOADS.add(key)
        raise
    except BaseException as exc:  # noqa: B036 - a third-party import may raise anything, SystemExit too: skip it, keep the host
        site = code_site(exc, top_package(str(entry.value).split(":", 1)[0]))  # the line of its own module that raised
        where = (
            " (at %s)" % site if site else _dotted_class(str(entry.value), exc) or entry_point_slip(entry.value, exc)
        )
        _skip(entry, "it failed to load: %s: %s%s" % (type(exc).__name__, exc, where))
        return
    problem = _plugin_problem(cls, key)
    if problem is not None:
        _skip(entry, problem)
        engine = _declared_engine(cls)
        if engine is not None:
            _SKIPPED_ENGINES.setdefault(
                engine, "its plugin %s serving %s was skipped: %s" % (entry.value, engine[1], problem)
            )
    else:
        _PLUGIN_ENGINES[(cls.name, cls.vertical)] = key  # first: an interrupt after _register leaves it said
        _register(cls)


def _dotted_class(value: str, exc: BaseException) -> str:
    """`` (...)`` for an entry point naming its class after a dot (``demo_search.DemoSearch``), which
    is read as a module of that name, when no such module exists; ``""`` otherwise."""
    if ":" in value or "." not in value or not isinstance(exc, ModuleNotFoundError) or exc.name != value:
        return ""
    module, _, name = value.rpartition(".")
    return " (an entry point names its class after a colon: %s:%s)" % (module, name)


#: Why a plugin whose load was interrupted twice in a row is skipped (``%s``: the interrupt's class).
_INTERRUPTED_TWICE = (
    "its load was interrupted twice in a row (%s): its import may raise it itself, which cannot be told"
    " from Ctrl-C; restart the process to load it again"
)

#: The declarations saying which engine a class is: its backend's name and its vertical.
_ENGINE_DECLARATIONS = tuple(declaration for declaration in _DECLARATIONS if declaration[0] in ("name", "vertical"))


def _declared_engine(cls: Any) -> Optional[tuple[str, str]]:
    """The ``(name, vertical)`` a skipped plugin's class declares, when both are usable (``None``:
    not a backend class, or either unusable or raising): the engine an error about that backend's
    vertical names as skipped, whatever its entry point is called."""
    if not (inspect.isclass(cls) and issubclass(cls, Backend)) or unusable_value(cls, _ENGINE_DECLARATIONS):
        return None
    return cls.name, cls.vertical


def _plugin_problem(cls: Any, entry: Optional[tuple[str, str]] = None) -> Optional[str]:
    """Why the class an installed plugin names cannot be registered (``None``: it can): its
    declarations (:func:`declaration_problem`), a built-in's name, a missing ``build_request``
    or ``parse`` (checked for plugins only: tests register classes of declarations alone), a
    name and vertical another plugin took first (not the same ``entry`` point, loaded again)."""
    problem = declaration_problem(cls)
    if problem is not None and inspect.ismodule(cls):  # an entry point without :Class
        return "%s (name the class too: %s:ClassName)" % (problem, cls.__name__)
    if problem is not None:
        return problem
    if cls.name in _BUILT_IN:
        return "it would replace the built-in backend %r: give the class (and its entry point) another name" % cls.name
    problem = _unimplemented(cls)
    if problem is not None:
        return problem
    taken = _REGISTRY.get(cls.name, {}).get(cls.vertical)
    if taken is not None and taken is not cls and _PLUGIN_ENGINES.get((cls.name, cls.vertical), ()) != entry:
        owner = _loaded(taken)
        return (
            "backend %r is already registered by %s.%s: give one of the two another name, or uninstall the"
            " distribution of one" % (cls.name, owner.__module__, owner.__qualname__)
        )
    return None


def _skip(entry: Any, reason: str) -> None:
    _SKIPPED.setdefault(entry.name, "its plugin %s was skipped: %s" % (entry.value, reason))
    _SKIPPED_SOURCES.setdefault(entry.name, entry.value)
    if not _NAME.fullmatch(entry.name):  # not a backend's name: which backend it declares is unknown
        _SKIPPED_ELSEWHERE.setdefault(entry.name, "(%s) was skipped: %s" % (entry.value, reason))
    logger.warning("websearch_sync: skipping backend plugin %r (%s): %s", entry.name, entry.value, reason)


#: The backend classes whose constructor's traceback was logged (:func:`instance`): once per process
#: each, not once per use (a conformance run builds a backend for each check; a CLI search several times).
_CONSTRUCTOR_FAILED = Once()


def reported(
    backend: Union[Backend, type[Backend]],
    step: Callable[[], T],
    secrets: Optional[Iterable[str]] = None,
    traceback_level: int = logging.ERROR,
    said_once: bool = False,
) -> T:
    """``step()``, a call of ``backend``'s code (its constructor, its search, a hook), with a defect
    in it (or in a plugin) reported loudly and typed: the traceback logged,
    ``WebProviderError(internal_error)`` naming the backend, the exception's type, the line of the
    plugin's own code it came through (when one did) and its message, never a stray exception. The
    message has the backend's secret settings hidden (``secrets``, by default those of the instance's
    configuration): an SDK's exception may quote the key it was given. The traceback is logged at
    ``traceback_level`` (``DEBUG`` for a listing that says the error itself, on every run); with
    ``said_once``, at that level the first time only for the backend's class in this process (a
    constructor's defect: every later use raises the same error, its traceback at ``DEBUG``)."""
    try:
        return step()
    except WebSearchError:
        raise
    except (Exception, SystemExit) as exc:  # a defect in a backend (a plugin's sys.exit() too): report it loudly, typed
        owner = backend if isinstance(backend, type) else type(backend)
        _log_failure(backend.name, owner, traceback_level, said_once)
        if secrets is None:
            secrets = [] if isinstance(backend, type) else secret_values(getattr(backend, "config", {}))
        said = redact(str(exc), secrets)
        raise WebProviderError(
            "internal error in backend %s: %s%s%s"
            % (backend.name, type(exc).__name__, raised_at(exc, plugin_package(owner)), ": " + said if said else ""),
            provider=backend.name,
            detail_code=INTERNAL_ERROR,
        ) from exc


def _log_failure(name: str, owner: type[Backend], level: int, said_once: bool) -> None:
    """Log the traceback of the exception being handled: at ``level``, or at ``DEBUG`` once
    ``said_once`` and this class's failure was logged at a higher level already in this process."""
    if said_once and level > logging.DEBUG and not _CONSTRUCTOR_FAILED.first((owner,)):
        logger.debug(
            "backend %s failed unexpectedly (again: its traceback was logged the first time)", name, exc_info=True
        )
        return
    logger.log(level, "backend %s failed unexpectedly", name, exc_info=True)


def secret_values(settings: object) -> list[str]:
    """The values of a backend's secret settings (``{name: value}``, its ``config``), as
    :meth:`~.base.Backend.secrets` reads them: read here from the settings alone, so that a plugin's
    own ``secrets()`` (or a constructor that raised before there was an instance) is not needed."""
    if not isinstance(settings, Mapping):
        return []
    return [str(v) for k, v in settings.items() if v and is_secret_name(str(k)) and isinstance(v, (str, int))]


def instance(cls: type[Backend], settings: config.Settings, traceback_level: int = logging.ERROR) -> Backend:
    """``cls(settings)``: a constructor that raises (a plugin building its vendor's client
    without the key, say) is :func:`reported` like a search that does (its secret settings hidden,
    its traceback logged at ``traceback_level`` once per process for the class, then at ``DEBUG``)."""
    return reported(cls, partial(cls, settings), secret_values(settings.provider(cls.name)), traceback_level, True)


def built_quietly(cls: type[Backend], settings: config.Settings) -> Optional[Backend]:
    """``cls(settings)``, or ``None`` when it cannot be built, for a question asked of every backend
    on the way (the hosts a fetch checks for cool-downs): one that cannot be built sends nothing, and
    a constructor's defect is reported where the backend is used (a search naming it, ``websearch-sync
    backends``), not by every fetch of a process that has the plugin installed (logged at DEBUG here)."""
    try:
        return cls(settings)
    except WebSearchError:
        return None
    except (Exception, SystemExit):  # a plugin's defect: said, typed, by instance() where it is used
        logger.debug("backend %s cannot be built; left out of the hosts checked", cls.name, exc_info=True)
        return None


def usable(cls: type[Backend], settings: config.Settings) -> bool:
    """Whether ``cls`` is configured under ``settings``; one that cannot be built (:func:`instance`,
    logged) is not, so that ``backend="auto"`` and the tools go on without it."""
    try:
        return instance(cls, settings).is_configured()
    except WebProviderError:
        return False


def checked_result(result: object, provider: str) -> ParseResult:
    """``result`` when it has the shape a backend's parse must return: a
    :class:`ParseResult` whose items are dicts naming, if any, a registered
    ``provider`` (and a list of them as ``providers``), with errors in ``to_dict()`` form,
    ``extras`` a dict of lists and a string or no ``request_id``; else ``WebProviderError(bad_parse_result)`` naming
    the backend (a defect in it, typically a plugin, never a stray ``TypeError`` later)."""
    _check_shape(_result_problem(result), provider, "a parse result")
    return result  # type: ignore[return-value]  # _result_problem checked the type


def _check_shape(problem: Optional[str], provider: str, what: str) -> None:
    """Raise ``WebProviderError(bad_parse_result)`` naming the backend when what it returned has a ``problem``."""
    if problem is not None:
        raise WebProviderError(
            "backend %s returned %s of the wrong shape: %s" % (provider, what, problem),
            provider=provider,
            detail_code=BAD_PARSE_RESULT,
        )


def _result_problem(result: object) -> Optional[str]:
    if not isinstance(result, ParseResult):
        return "a %s instead of a ParseResult" % type(result).__name__
    if not isinstance(result.items, list) or not isinstance(result.errors, list):
        return "items or errors is not a list"
    beside = _beside_items_problem(result)
    if beside is not None:
        return beside
    return _items_problem(result.items)


def _items_problem(items: list[Any]) -> Optional[str]:
    """What is wrong with a parse result's items, or ``None``."""
    if _plain_items(items):
        return None
    for position, item in enumerate(items, 1):
        if not isinstance(item, dict):
            return "item %d is a %s, not a dict" % (position, type(item).__name__)
        if "url" not in item:  # normalisation would drop it: a search of 0 items, unexplained
            return "item %d has no 'url' (its keys: %s)" % (position, ", ".join(map(str, item)))
        named = item.get("provider")
        if named is not None and (not isinstance(named, str) or named not in _known()):
            return "item %d names the provider %r, which is not a registered backend" % (position, named)
        also = item.get("providers")
        if also is not None and not (_strings(also) and all(name in _known() for name in also)):
            return "item %d names providers %r that are not registered backends" % (position, also)
    return None


def _plain_items(items: list[Any]) -> bool:
    """Whether every item is a plain ``dict`` with a ``url`` and neither ``provider`` nor
    ``providers`` (no problem :func:`_items_problem` looks for), each test run over the items by
    ``map`` in C: a search's ten items took about 70 lines of Python in its loop."""
    return (
        all(map(operator.is_, map(type, items), repeat(dict)))
        and all(map(operator.contains, items, repeat("url")))
        and not any(map(operator.contains, items, repeat("provider")))
        and not any(map(operator.contains, items, repeat("providers")))
    )


def checked_errors(errors: object, provider: str) -> list[ErrorInfo]:
    """``errors`` when it is a list of errors in ``to_dict()`` form, as a backend's
    :meth:`~.base.Backend.revise_cached` must return; else ``WebProviderError(bad_parse_result)``
    naming the backend (a defect in it, never a stray ``TypeError`` in the answer served)."""
    problem = _errors_problem(errors) if isinstance(errors, list) else "a %s, not a list" % type(errors).__name__
    _check_shape(problem, provider, "a cached answer's errors revised (revise_cached)")
    return errors  # type: ignore[return-value]  # _errors_problem checked the items


def _errors_problem(errors: Sequence[object]) -> Optional[str]:
    """What is wrong with a list of a response's ``errors`` (each a ``WebSearchError.to_dict()``), or ``None``."""
    for position, error in enumerate(errors, 1):
        if not (
            isinstance(error, dict) and isinstance(error.get("type"), str) and isinstance(error.get("message"), str)
        ):
            return "error %d is a %s, not a WebSearchError's to_dict()" % (position, type(error).__name__)
        unfit = _not_json(error)
        if unfit is not None:
            return "error %d holds %s" % (position, unfit)
    return None


#: What a response's ``errors`` and ``extras`` may hold: JSON's values, as a response is JSON-ready
#: (a tuple is a JSON array, as ``json.dumps`` writes it).
_JSON_SCALARS = (str, int, float, bool, type(None))
#: How deeply a dict or list in a response's ``errors`` or ``extras`` may nest (the outermost counts 1;
#: a bound of the values a backend returns, not of upstream text: that is ``net.jsontext.MAX_JSON_DEPTH``):
#: a tool result's cleaning and the JSON writers walk them recursively, and 5000 lists deep made
#: ``call_tool`` raise ``RecursionError`` (a list holding itself never ended the check); the MCP SDK's
#: JSON reader (pydantic-core) refuses a message nested over 200 deep, and an answer wraps these values
#: in several levels of its own. Upstream JSON is read deeper (256: fetch pretty-prints it), so a
#: backend copying an upstream value 63 to 256 deep into ``extras`` fails ``bad_parse_result``, and
#: the message says where and why (docs/backends.md). The bound is ``models.MAX_RESULT_NESTING``.
#: How deeply a value in one of ``extras``' lists may nest, counted from that value (the one a backend
#: wrote): the ``extras`` dict and the list holding it take two of the :data:`MAX_RESULT_NESTING` levels.
MAX_EXTRAS_VALUE_NESTING = MAX_RESULT_NESTING - 2
#: What :func:`_not_json` adds to its verdict on a value nested too deep: how it is counted and the
#: way out for a backend.
_TOO_DEEP_HINT = (
    " (counted from that value, which counts 1; JSON an upstream sent is read up to %d deep:"
    " cut or flatten a value copied from it)" % MAX_JSON_DEPTH
)


def _not_json(value: object, most: int = MAX_RESULT_NESTING) -> Optional[str]:
    """What in ``value`` is no JSON value (bytes, a set, an object: the MCP server could not send an
    answer holding it, and ended; or dicts and lists nested over ``most`` deep, ``value`` counting 1),
    or None. Iterative: the check itself meets no recursion limit."""
    pending: list[tuple[object, int]] = [(value, 1)]
    while pending:
        part, depth = pending.pop()
        if not isinstance(part, (dict, list, tuple)):
            if not isinstance(part, _JSON_SCALARS):
                return "a %s, no JSON value" % type(part).__name__
            continue
        if depth > most:
            return "dicts and lists nested over %d deep%s" % (most, _TOO_DEEP_HINT)
        if isinstance(part, dict):
            keys = [key for key in part if not isinstance(key, str)]
            if keys:
                return "a %s, no JSON value" % type(keys[0]).__name__
            part = list(part.values())
        pending.extend((item, depth + 1) for item in part)
    return None


def _beside_items_problem(result: ParseResult) -> Optional[str]:
    """What is wrong with what a parse result carries besides its items (the response's
    ``errors``, ``extras`` and ``request_id`` are made of them), or ``None``."""
    problem = _errors_problem(result.errors)
    if problem is not None:
        return problem
    extras = result.extras
    if not (isinstance(extras, dict) and all(isinstance(k, str) and isinstance(v, list) for k, v in extras.items())):
        return "extras is not a dict of lists"
    for kind, values in extras.items():  # each kind on its own: the message names the one at fault
        for value in values:
            unfit = _not_json(value, MAX_EXTRAS_VALUE_NESTING)
            if unfit is not None:
                return "extras[%r] holds %s" % (kind, unfit)
    if result.request_id is not None and not isinstance(result.request_id, str):
        return "request_id is a %s, not a string" % type(result.request_id).__name__
    return None


def load_plugins() -> None:
    """Register the backends third-party distributions declare (once per process; the
    registry's first question calls it). An interrupt while one loads (Ctrl-C) is raised, and the
    next question loads that plugin (:func:`_load_plugin`: twice interrupted, it is skipped) and those after it."""
    global _PLUGINS_LOADED, _PLUGINS_LOADING
    if _PLUGINS_LOADED:
        return
    with _PLUGINS_LOCK:
        if _PLUGINS_LOADED or _PLUGINS_LOADING:
            return
        _PLUGINS_LOADING = True
        try:
            for entry in _entry_points():
                key = (entry.name, entry.value)
                if key not in _PLUGINS_DONE:  # an interrupted load's next question goes on where it stopped
                    _load_plugin(entry)
                    _PLUGINS_DONE.add(key)
            # loaded until forget_registrations says otherwise: then the next question loads them again
            _PLUGINS_LOADED = True
        finally:
            _PLUGINS_LOADING = False


def interrupted_plugin(interrupt: KeyboardInterrupt) -> Optional[str]:
    """The plugin that was loading when ``interrupt`` came (``'name' (module:Class)``), for the
    message that ends the command: a plugin whose import raises ``KeyboardInterrupt`` itself
    otherwise ends every command with a bare "interrupted"."""
    plugin = getattr(interrupt, _PLUGIN_INTERRUPTED, None)
    return plugin if isinstance(plugin, str) else None
