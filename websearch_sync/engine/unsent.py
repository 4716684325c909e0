"""Which of a call's common inputs a backend's request does not carry (``provider_meta["not_sent"]``).

A service without a parameter for an input (Kagi's v0 search takes a query and a count, Bing has
no filter for a year) answers as if the caller had not given it. The response says so instead of
staying silent: each engine declares what its request builder leaves out
(:attr:`~websearch_sync.engine.base.Backend.unsent`), as an input's name (``"safe_search"``),
``"<input>=<value>"`` for the values it cannot express alone (``"time_range=year"``), or
``"locale=language-only"`` for an engine that sends a locale's region alone (``de`` is not sent), or
a part of the locale the request goes without (``"locale.region"``: Mojeek's ``lb`` is a language,
``en-GB`` is searched as ``en``; ``"locale.language"``: Tavily's ``country`` is a region;
``"locale.script"``: the request says the language without the script, and the service reads it
in another: ``sr-Latn-RS`` goes to Bing as ``setlang=sr-RS``, Cyrillic Serbian; found for every
engine by one check, :func:`script_unsent`, of the tag the request says the locale in,
:meth:`~websearch_sync.engine.base.Backend.said_locale`). A locale whose
every given part is not sent is reported whole (``"locale"``); one part of it sent, the other not,
is reported as that part, so the caller learns exactly what the answer ignored. An input
counts as sent when a query parameter, body field, preference cookie or the address carries it;
an ``Accept-Language`` header alone is a browser's hint, not the service's filter.

An image or video filter the call gave (``image_size="large"``) that the engine has no upstream
token for is reported by its name, or as ``"<filter>=<value>"`` for a value it lacks
(:func:`unsent_filters`, from the engine's declarative ``filters``).

A backend-specific option the call gave (``pageno=2``, ``topic="news"``) that the answering engine
does not take is reported too (:func:`untaken_options`): in a chain or ``auto``, another backend
took it, this one answered without it (DuckDuckGo's first page for ``pageno=2``).
"""

from collections.abc import Iterable, Mapping
from typing import Any, Optional

from ..models import MEDIA_FILTERS, SearchParams
from ..validate import COMMON_OPTIONS
from .locales import likely_script, locale_region, locale_script, split_locale

__all__: list[str] = []  # internal: documented in docs/backends.md and docs/ result shape

#: The inputs every backend is asked with (``search()``'s keywords), in the order they are reported.
COMMON_INPUTS = ("locale", "safe_search", "site_filter", "time_range")
#: The value of ``locale`` in a declaration that means "a locale without a region".
LANGUAGE_ONLY = "language-only"
#: The parts of a locale a declaration (and ``not_sent``) may name alone.
LOCALE_LANGUAGE = "locale.language"
LOCALE_REGION = "locale.region"
LOCALE_SCRIPT = "locale.script"
LOCALE_PARTS = (LOCALE_LANGUAGE, LOCALE_REGION, LOCALE_SCRIPT)


def unsent_inputs(declared: Iterable[str], params: SearchParams) -> list[str]:
    """The inputs among ``declared`` (``"name"``, ``"name=value"`` or a part of the locale) that the
    call gave (a value other than the default, ``None``), sorted: the ones its request goes without.
    ``"locale=language-only"`` matches a locale without a country (``de``, ``es-419``); a locale
    without a region at all (``de``) has no region to drop, so ``"locale.region"`` says nothing of it
    (nor ``"locale.script"`` of one without a script); a script goes with its language: when the
    language is not sent, neither is the script."""
    unsent = set()
    parts = set()
    for entry in declared:
        name, _, value = entry.partition("=")
        if name in LOCALE_PARTS:
            parts.add(name)
            continue
        given = getattr(params, name) if name in COMMON_INPUTS else None
        if given and (not value or given == value or (value == LANGUAGE_ONLY and split_locale(given)[1] is None)):
            unsent.add(name)
    if params.locale and "locale" not in unsent and parts:
        unsent.update(_locale_parts_dropped(params.locale, parts))
    return sorted(unsent)


def _locale_parts_dropped(locale: str, parts: set[str]) -> set[str]:
    """The parts among ``parts`` (declared not sent) that ``locale`` gives, or ``{"locale"}`` when
    it gives no other; the script goes with the language (not sent when the language is not)."""
    given = {LOCALE_LANGUAGE}
    given.update((LOCALE_REGION,) if locale_region(locale) is not None else ())
    given.update((LOCALE_SCRIPT,) if locale_script(locale) is not None else ())
    dropped = (parts | {LOCALE_SCRIPT} if LOCALE_LANGUAGE in parts else parts) & given
    return {"locale"} if dropped == given else dropped


def script_unsent(locale: Optional[str], said: Optional[str]) -> tuple[str, ...]:
    """``("locale.script",)`` when ``locale`` names a script the request does not say: ``said``, the
    language tag the request says the locale in (:meth:`Backend.said_locale`: ``"sr"`` for
    ``sr-Latn``, ``"zh-TW"`` for ``zh-Hans-TW``), is read in another script (:func:`~.locales.likely_script`:
    ``sr`` is Cyrillic, ``zh-TW`` Traditional). A script the tag is read in loses nothing (``sr-Cyrl``
    sent as ``sr``, ``zh-Hant`` sent as ``zh-TW``), nor one of a language written in one script
    (``en-Latn``); ``said`` ``None``: the request says no language, and the script goes with it."""
    script = locale_script(locale) if locale else None
    if script is None or said is None:
        return ()
    read = likely_script(said)
    return (LOCALE_SCRIPT,) if read is not None and read != script else ()


def said_as_declared(locale: str, declared: Iterable[str]) -> Optional[str]:
    """The language tag a request that sends a locale's parts as :attr:`Backend.unsent` declares
    says ``locale`` in (the default :meth:`Backend.said_locale`): its language and its country
    (``sr-Latn-RS`` -> ``sr-RS``, the script dropped, as request builders read the locale with
    :func:`~.locales.split_locale`), the language alone when ``locale.region`` is declared not sent
    (``sr``: Mojeek's ``lb``), ``None`` when no language is sent (``locale``, ``locale.language``)."""
    parts = set(declared)
    if parts & {"locale", LOCALE_LANGUAGE}:
        return None
    language, country = split_locale(locale)
    return language if country is None or LOCALE_REGION in parts else "%s-%s" % (language, country)


def said_in(language: Optional[str], country: Optional[str]) -> Optional[str]:
    """The language tag a request sending a ``language`` field and a ``country`` field says a locale
    in (for :meth:`Backend.said_locale`): the language when it holds a subtag of its own (Brave's
    ``zh-hant``, Jina's ``zh-tw`` or ``pt-br``), else the language and the country (``sr`` and
    ``ME``: ``sr-ME``, Latin Serbian); ``None`` when no language is sent."""
    if not language:
        return None
    return language if "-" in language or not country else "%s-%s" % (language, country)


def locale_parts_unsent(language_sent: bool, region_sent: bool) -> tuple[str, ...]:
    """The parts of a locale a request goes without (for :meth:`Backend.dropped` of an engine that
    sends each part only when the service lists it); a part the call did not give is not reported."""
    return tuple(part for part, sent in ((LOCALE_LANGUAGE, language_sent), (LOCALE_REGION, region_sent)) if not sent)


def untaken_options(options: Mapping[str, Any], taken: Iterable[str]) -> list[str]:
    """The backend-specific options among the call's ``options`` (those given: ``SearchParams.options``)
    that an engine taking ``taken`` does not take; the client's own (``max_content_chars``) are no
    engine's."""
    names = set(taken)
    return sorted(name for name in options if name not in names and name not in COMMON_OPTIONS)


def unsent_filters(declared: Mapping[str, Mapping[str, str]], filters: Mapping[str, str]) -> list[str]:
    """The image or video filters among the call's ``filters`` (``SearchParams.filters``) that an
    engine declaring ``declared`` (:attr:`Backend.filters`: filter -> our value -> upstream token)
    cannot send: the filter's name when it has no such filter, ``"<filter>=<value>"`` when it has
    the filter but not that value."""
    unsent = []
    for name, value in filters.items():
        tokens = declared.get(name)
        if tokens is None:
            unsent.append(name)
        elif value not in tokens:
            unsent.append("%s=%s" % (name, value))
    return sorted(unsent)


def usable_filters(declared: object, vertical: object) -> bool:
    """Whether ``declared`` is a usable ``filters`` declaration of an engine of ``vertical``: a
    mapping of its vertical's filters (:data:`~websearch_sync.models.MEDIA_FILTERS`) to mappings
    of their values to upstream tokens (strings)."""
    return isinstance(declared, Mapping) and all(
        name in MEDIA_FILTERS
        and MEDIA_FILTERS[name][0] == vertical
        and isinstance(tokens, Mapping)
        and all(value in MEDIA_FILTERS[name][1] and isinstance(token, str) for value, token in tokens.items())
        for name, tokens in declared.items()
    )


def usable_declaration(declared: object) -> bool:
    """Whether ``declared`` is a usable ``unsent`` declaration: a tuple of ``"<input>"`` or
    ``"<input>=<value>"`` strings naming inputs of :data:`COMMON_INPUTS`, or parts of the locale
    (:data:`LOCALE_PARTS`)."""
    return isinstance(declared, tuple) and all(
        isinstance(entry, str) and (entry in LOCALE_PARTS or entry.partition("=")[0] in COMMON_INPUTS)
        for entry in declared
    )
