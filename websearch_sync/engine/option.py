"""A backend's options: the ``search()`` keywords only it takes, declared once on its class.

Each backend lists them in ``Backend.options``, a tuple of :class:`Option`: the keyword,
its kind, its default, the values it allows, one line saying what it does and the detail
code of a refused value. :meth:`Option.value` is the one check of a value: the backend
reads the call's typed, defaulted values through it (``Backend.option``), its
``check_params`` runs it on every declared option before any request, and ``websearch-sync
backends --json`` and docs/backends.md's option table are written from the same
declarations. Which backend an option name belongs to (a name no backend takes, one no
backend of the call takes) is the client's check (:mod:`websearch_sync.validate`).

A plain string in ``Backend.options`` is the older spelling: an option of that name whose
value the backend checks itself (:data:`ANY`).
"""

import dataclasses
import keyword
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, Optional, Union

from ..errors import BAD_MAX_PAGES, BAD_OPTION, BAD_PAGENO, InvalidInput
from ..validate import MAX_PAGES, check_number
from ..vocabulary.locale_codes import LANGUAGE_NAME_GIVEN, named_language

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: What an option's value is. ``bool``: ``True`` or ``False``; ``int``: a whole number in
#: ``minimum..maximum``; ``choice``: one of ``choices`` (as written); ``names``: a name or a
#: list of names (``"news,it"`` or ``["news", "it"]``), read as a tuple of names; ``code``: a
#: short code (a language, an edition) that ``pattern`` matches once lower-cased, read
#: lower-cased; ``any``: whatever the caller gives (the older, untyped spelling).
OptionKind = Literal["bool", "int", "choice", "names", "code", "any"]
OPTION_KINDS: tuple[OptionKind, ...] = ("bool", "int", "choice", "names", "code", "any")
ANY: OptionKind = "any"


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def range_problem(minimum: object, maximum: object) -> Optional[str]:
    """What is wrong with a declared ``minimum..maximum`` (``None``: nothing): ints, none
    below the other (``maximum=None``: no upper bound). A ``Setting``'s and an ``Option``'s."""
    if not _whole(minimum):
        return "minimum must be an int, got %r" % (minimum,)
    if maximum is not None and not _whole(maximum):
        return "maximum must be an int or None, got %r" % (maximum,)
    if maximum is not None and maximum < minimum:  # type: ignore[operator]  # both ints, checked above
        return "maximum %r is below its minimum %r" % (maximum, minimum)
    return None


@dataclasses.dataclass(frozen=True)
class Option:
    """One backend-specific ``search()`` option (see the module docstring).

    Args:
        name: the keyword (``"summary"``: ``search(..., summary=True)``).
        kind: ``"bool"``, ``"int"``, ``"choice"``, ``"names"``, ``"code"`` or ``"any"``
            (:data:`OptionKind`).
        default: the value a call that does not give it reads (``None``: nothing is sent).
        doc: one line saying what it does (``websearch-sync backends --json``, the docs' table).
        choices: the values of a ``choice``.
        minimum, maximum: the range of an ``int`` (``maximum=None``: no upper bound).
        pattern: what a ``code`` matches, lower-cased (a regular expression, matched whole).
        example: what a valid ``code`` looks like, in words, for the message of a refused one.
        detail: the ``InvalidInput`` detail code of a refused value (default ``bad_option``).
        omitted_sends_default: whether the engine's request for a call without the option is the
            one for a call giving its default (it reads it through :meth:`value`); ``False`` for an
            engine that sends it only when given (SearXNG's ``pageno``: the instance's own default
            otherwise). When true a call giving the default is cached as the call omitting it;
            ``False`` by default, so an option whose engine tells the two apart is never answered
            from the other's cache (the library's own ``pageno`` sets it).
    """

    name: str
    kind: OptionKind = ANY
    default: Any = None
    doc: str = ""
    choices: tuple[str, ...] = ()
    minimum: int = 1
    maximum: Optional[int] = None
    pattern: Optional[str] = None
    example: str = ""
    detail: str = BAD_OPTION
    omitted_sends_default: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.isidentifier() or keyword.iskeyword(self.name):
            # search("q", x-y=1) cannot be written: the option could be given only through **{"x-y": 1}
            raise TypeError(
                "Option.name must be a search() keyword (letters, digits and _, not starting with a digit, no"
                " Python keyword), got %r" % (self.name,)
            )
        if self.kind not in OPTION_KINDS:
            raise TypeError(
                "Option(%r).kind must be one of %s, got %r" % (self.name, ", ".join(OPTION_KINDS), self.kind)
            )
        if self.kind == "choice" and not (
            isinstance(self.choices, (tuple, list)) and self.choices and all(isinstance(c, str) for c in self.choices)
        ):  # one string is refused: its letters would be the choices
            raise TypeError("Option(%r) is a choice: give its choices (strings), got %r" % (self.name, self.choices))
        problem = range_problem(self.minimum, self.maximum)
        if problem is not None:
            raise TypeError("Option(%r).%s" % (self.name, problem))
        if self.kind == "code" and not isinstance(self.pattern, str):
            raise TypeError("Option(%r) is a code: give the pattern it matches" % self.name)
        if self.default is not None:
            try:
                self.value(self.default)
            except InvalidInput as exc:
                raise TypeError("Option(%r).default is refused by its own kind: %s" % (self.name, exc)) from None

    def value(self, given: Any, provider: Optional[str] = None) -> Any:
        """``given`` checked and typed (``None``: the default); ``InvalidInput(detail)`` naming
        the option, what it allows and ``given`` when it does not fit."""
        if given is None:
            return self.default
        if self.kind == "int":
            return check_number(
                self.name, given, minimum=self.minimum, maximum=self.maximum, detail=self.detail, provider=provider
            )
        read = _READERS[self.kind](self, given)
        if read is None:
            raise InvalidInput(
                "%s must be %s, got %r%s" % (self.name, self.allowed(), given, self._named_language(given)),
                provider=provider,
                detail_code=self.detail,
            )
        return read

    def _named_language(self, given: Any) -> str:
        """`` (a language's name: give its tag, en)`` for a code option given a language's name
        (``wiki="english"``) whose tag it takes, as ``locale`` says (:func:`named_language`), else ``""``."""
        named = named_language(given) if self.kind == "code" and isinstance(given, str) else None
        return " (%s)" % (LANGUAGE_NAME_GIVEN % named) if named and _code(self, named) else ""

    def allowed(self) -> str:
        """What the option takes, in words: ``true or false``, ``one of general, news, finance``."""
        if self.kind == "int":
            if self.maximum is not None:
                return "an integer in %d..%d" % (self.minimum, self.maximum)
            return "a positive integer" if self.minimum == 1 else "an integer >= %d" % self.minimum
        if self.kind == "choice":
            return "%r" % self.choices[0] if len(self.choices) == 1 else "one of %s" % ", ".join(self.choices)
        if self.kind == "code":
            return self.example or "a code matching %s" % self.pattern
        return _ALLOWED[self.kind]

    def describe(self) -> dict[str, Any]:
        """The declaration as JSON (``websearch-sync backends --json``)."""
        described: dict[str, Any] = {"name": self.name, "kind": self.kind, "default": _shown(self.default)}
        if self.kind == "choice":
            described["choices"] = list(self.choices)
        if self.kind == "int":
            described.update(minimum=self.minimum, maximum=self.maximum)
        described.update(allowed=self.allowed(), detail_code=self.detail, doc=self.doc)
        return described


def _bool(option: Option, given: Any) -> Optional[bool]:
    return given if isinstance(given, bool) else None


def _choice(option: Option, given: Any) -> Optional[str]:
    return given if isinstance(given, str) and given in option.choices else None


def _names(option: Option, given: Any) -> Optional[tuple[str, ...]]:
    parts = given.split(",") if isinstance(given, str) else given
    if not isinstance(parts, (list, tuple)) or not parts or not all(isinstance(p, str) and p.strip() for p in parts):
        return None
    return tuple(part.strip() for part in parts)


def _code(option: Option, given: Any) -> Optional[str]:
    if not isinstance(given, str) or re.fullmatch(str(option.pattern), given.lower()) is None:
        return None
    return given.lower()


def _any(option: Option, given: Any) -> Any:
    return given


_READERS = {"bool": _bool, "choice": _choice, "names": _names, "code": _code, "any": _any}
_ALLOWED = {"bool": "true or false", "names": "a name or a list of names", "any": "any value"}


def _shown(value: Any) -> Any:
    """A default as JSON shows it (a tuple of names as a list)."""
    return list(value) if isinstance(value, tuple) else value


#: The last ``pageno`` a call may ask for: no engine serves results that deep (Bing stops near the
#: 1000th result, DuckDuckGo's images at a few hundred), and a bound keeps an absurd page
#: (``10**30``) a refusal before any request rather than an upstream's error or a huge offset.
MAX_PAGENO = 100


def pageno_option(step: str, omitted_sends_default: bool = True) -> Option:
    """The ``pageno`` option of an engine that pages by number, ``step`` saying how far one page
    moves on it (``"30 results a page whatever max_results is"``): engines step by their own page,
    some by the call's ``max_results``, and a caller choosing a start needs to know which."""
    return Option(
        "pageno",
        "int",
        default=1,
        maximum=MAX_PAGENO,
        detail=BAD_PAGENO,
        doc="the result page to start from (1: the first); %s" % step,
        omitted_sends_default=omitted_sends_default,
    )


#: ``pageno``: the result page to read first, as an engine that pages by number takes it (an
#: engine declaring its own step declares :func:`pageno_option`).
PAGENO = pageno_option("the engine's own page")


#: ``max_pages``: the most result pages a call reads, as every engine that reads next pages takes it
#: (``Backend.results_per_page``): a bound on the requests of one call, and what a recorded case of
#: fewer pages than its call would read says (docs/contract.md).
MAX_PAGES_OPTION = Option(
    "max_pages",
    "int",
    default=MAX_PAGES,
    maximum=MAX_PAGES,
    detail=BAD_MAX_PAGES,
    omitted_sends_default=False,  # omitted: Settings.max_pages, which may be another number
    doc="the most result pages the call reads, one request each (1: the first page only; default: Settings.max_pages)",
)


def declared(options: Sequence[Union[str, Option]]) -> tuple[Option, ...]:
    """A backend's ``options`` as :class:`Option` (a plain name is the older spelling: ``any``)."""
    return tuple(option if isinstance(option, Option) else Option(option) for option in options)


def read_options(provider: str, options: Sequence[Option], given: Mapping[str, Any]) -> dict[str, Any]:
    """``{name: value}`` of each declared option, typed and defaulted from ``given`` (a call's
    ``SearchParams.options``); the first refused value is ``InvalidInput`` with its option's
    detail code. Names no option declares are left alone: they belong to the call's other
    backends (the client refuses names no backend of the call takes)."""
    return {option.name: option.value(given.get(option.name), provider) for option in options}


def by_declaration(engines: Iterable[tuple[str, Sequence[Option]]]) -> list[tuple[Option, list[str]]]:
    """The options of a service's engines (``(vertical, options)`` each), each distinct
    declaration once with the verticals that declare it (Tavily's ``topic`` is a choice of
    three for web search and ``news`` alone for news): what the listing and the docs show."""
    found: list[tuple[Option, list[str]]] = []
    for vertical, options in engines:
        for option in options:
            same = next((verticals for known, verticals in found if known == option), None)
            if same is None:
                found.append((option, [vertical]))
            else:
                same.append(vertical)
    return found


def omitted_defaults(given: Mapping[str, Any], engines: Iterable[Sequence[Option]]) -> dict[str, Any]:
    """The call's options (``given``, validated) without those given at a default that omitting
    them asks the same of every engine of the call: each declares the option with that default and
    sends it when omitted (:attr:`Option.omitted_sends_default`). ``pageno=1`` is then the search
    without ``pageno``, one cache key; an option an engine of the call does not take is kept (that
    engine's answer lists it in ``not_sent``), as is one an engine sends only when given."""
    declared = [{option.name: option for option in options} for options in engines]
    kept = {}
    for name, value in given.items():
        found = [options.get(name) for options in declared]
        same = bool(found) and all(
            option is not None
            and option.omitted_sends_default
            and type(value) is type(option.default)
            and value == option.default
            for option in found
        )
        if not same:
            kept[name] = value
    return kept
