"""Whether a SearXNG instance searched the ``engines``/``categories`` a call asked for.

SearXNG silently drops names it does not know (a shortcut such as ``go``, another case
such as ``Google``) and runs its default engines instead (the categories' engines, for ``engines``
names sent beside ``categories``); an instance whose
``preferences.lock`` in settings.yml holds ``categories`` ignores the call's categories
(``searx/webadapter.py``: a locked preference wins over the request), and a ``!bang`` in the
query wins over both. Either way the results come from engines the call did not ask for.

What proves it: each result lists the ``engines`` that found it, so an ``engines`` name no
result came from (and that did not fail) was not searched. A result's ``category`` is only its
engine's *first* category, so a result of ``general`` may well come from an engine of the
``science`` category asked for: whether categories were searched is decided with the
instance's ``/config`` (which engines are in which category, which names exist), read for it
when the results alone cannot tell (:func:`categories_undecided`). So are ``engines`` asked beside
``categories``: the instance asks the engines it has *and* the categories' engines
(``searx/webadapter.py: parse_generic``), so results of the latter alone prove nothing
(:func:`engines_undecided`).

Names the instance does not know are ``InvalidInput(unknown_engines|unknown_categories)``
warnings; names it knows but did not search are ``WebProviderError(option_overridden)``:
the instance overrode the call's choice (a locked preference, a bang).

A time range is not sent to every engine: SearXNG does not ask an engine without time-range
support at all when a search has one (``searx/search/processors/abstract.py: get_params``), and
its answer does not say so (no result, no ``unresponsive_engines`` entry). Only ``/config``
(each engine's ``time_range_support``) tells which engines were left out:
``WebProviderError(time_range_skipped)`` names them, and ``WebProviderError(time_range_unverified)``
says when ``/config`` could not be read to tell (:data:`TIME_RANGE`). So for a page after the
first: an engine without ``paging`` is not asked for it (:data:`PAGING`: ``paging_skipped``,
``paging_unverified``). A ``!name`` in the query that the instance knows picks the engines asked
(:meth:`SkipRule.skipped`).
"""

import dataclasses
from collections.abc import Sequence
from typing import Any, Optional

from ..engine.json_api import vendor_text
from ..errors import (
    OPTION_OVERRIDDEN,
    PAGING_SKIPPED,
    PAGING_UNVERIFIED,
    TIME_RANGE_SKIPPED,
    TIME_RANGE_UNVERIFIED,
    UNKNOWN_CATEGORIES,
    UNKNOWN_ENGINES,
    InvalidInput,
    WebProviderError,
    WebSearchError,
)
from .searxng_config import Engine, InstanceConfig
from .searxng_query import could_be_name

__all__: list[str] = []  # internal: the public names are documented in docs/ and README


def _sources(results: Sequence[Any], field: str) -> list[str]:
    """The engines (``engines``: a list) or categories (``category``: a string) results came from,
    as the instance's words are read (:func:`~..engine.json_api.vendor_text`: a warning names them),
    each distinct name once (an answer names a few engines many times)."""
    read: dict[str, str] = {}
    came: list[str] = []
    for result in results:
        value = result.get(field) if isinstance(result, dict) else None
        values = [value] if isinstance(value, str) else value if isinstance(value, list) else []
        for raw in values:
            if isinstance(raw, str):
                name = read.get(raw)
                if name is None:
                    name = read[raw] = vendor_text(raw)
                if name:
                    came.append(name)
    return came


def categories_undecided(asked: Optional[str], results: Sequence[Any]) -> bool:
    """True when only ``/config`` can tell whether the ``categories`` asked were searched: results
    name categories, none of them one asked for (each result names its engine's first one only)."""
    came = _sources(results, "category")
    return bool(asked) and bool(came) and not set(str(asked).split(",")) & set(came)


def engines_undecided(
    asked: Optional[str],
    categories: Optional[str],
    results: Sequence[Any],
    failed: Sequence[str],
    bangs: Sequence[str] = (),
) -> bool:
    """True when only ``/config`` can tell whether the ``engines`` asked were searched: categories
    were asked beside them, or the query holds a ``!name`` that may be one (``bangs``: those of
    :func:`.searxng_query.engine_bangs`, :func:`.searxng_query.could_be_name`), and no result came from them
    nor did any of them fail (a failed engine was searched: :func:`_engines_ignored` says nothing
    then either). The instance asks the engines it has *and* the categories' engines
    (``searx/webadapter.py: parse_generic``), so results of the categories' engines alone prove
    nothing: the engines asked may have found nothing; a ``!name`` it knows wins over them, one it
    does not know leaves them asked, so only whether it has the names asked tells an override from
    names it ignored."""
    came = _sources(results, "engines")
    return (
        bool(asked)
        and (bool(categories) or _may_pick(bangs))
        and bool(came)
        and not set(str(asked).split(",")) & set(came + list(failed))
    )


def _may_pick(bangs: Sequence[str]) -> bool:
    """Whether a ``!name`` of ``bangs`` may pick the engines while ``/config`` is not known
    (:func:`.searxng_query.could_be_name`)."""
    return any(could_be_name(value) for value in bangs)


def _bang_picked(config: Optional[InstanceConfig], bangs: Sequence[str]) -> bool:
    """Whether ``config`` shows that a ``!name`` of ``bangs`` picked the engines searched (it knows one)."""
    return config is not None and bool(config.bang_engines(bangs)[1])


def _engines_ignored(
    names: list[str],
    results: Sequence[Any],
    failed: Sequence[str],
    config: Optional[InstanceConfig],
    categories: Optional[str],
    bangs: Sequence[str] = (),
) -> Optional[tuple[list[str], bool]]:
    """``(the engines that answered, whether the instance has those asked)`` when no result came
    from an engine asked for (and none of them failed), else ``None``. With ``categories`` asked
    beside them, only ``config`` can show it: the instance ran the engines it has beside the
    categories', so only names it does not have were ignored. So with a ``!name`` in the query
    (``bangs``): once ``config`` shows it knows the name, a name asked it has was overridden by it,
    one it does not have ignored."""
    engines = _sources(results, "engines")
    if not engines or set(names) & (set(engines) | set(failed)):
        return None
    known = config is not None and set(names) <= {e.name for e in config.engines}
    picked = config.bang_engines(bangs)[1] if config is not None else []
    if picked:  # the !name's engines were searched, whatever the options said
        return None if set(names) & {e.name for e in picked} else (sorted(set(engines)), known)
    if (categories and (config is None or known)) or (config is None and _may_pick(bangs)):
        return None
    return sorted(set(engines)), known


def _categories_ignored(
    names: list[str],
    results: Sequence[Any],
    failed: Sequence[str],
    config: Optional[InstanceConfig],
) -> Optional[tuple[list[str], bool]]:
    """``(the categories results name, whether the instance has those asked)`` when ``config``
    shows that no engine that answered (or failed) is in a category asked for, else ``None``."""
    if config is None or not categories_undecided(",".join(names), results):
        return None
    answered = set(_sources(results, "engines")) | set(failed)
    ran = [e for e in config.engines if e.name in answered]
    if set(names) & {category for engine in ran for category in engine.categories}:
        return None  # an engine of a category asked answered: the results name its first category
    return sorted(set(_sources(results, "category"))), set(names) <= set(config.categories)


def ignored_names(
    option: str,
    asked: Optional[str],
    results: Sequence[Any],
    failed: Sequence[str],
    config: Optional[InstanceConfig] = None,
    categories: Optional[str] = None,
    bangs: Sequence[str] = (),
) -> Optional[WebSearchError]:
    """A warning when the ``engines`` (or ``categories``) asked were not searched, else ``None``.

    ``asked`` is the option as sent (comma-separated), ``results`` the answer's results,
    ``failed`` the engines listed as unresponsive, ``config`` the instance's ``/config`` when
    read, ``categories`` the categories sent beside ``engines``, ``bangs`` the query's ``!name``
    words (:func:`.searxng_query.engine_bangs`). Results that say nothing about their engine prove nothing; categories without
    ``config`` are never judged by the results' first categories alone, nor engines asked beside
    categories or beside a ``!name`` (:func:`engines_undecided`).
    """
    if not asked:
        return None
    names = asked.split(",")
    judged = (
        _engines_ignored(names, results, failed, config, categories, bangs)
        if option == "engines"
        else _categories_ignored(names, results, failed, config)
    )
    if judged is None:
        return None
    others, known = judged
    if known:
        return WebProviderError(
            "searxng: no result came from the %s asked for (%s), which the instance has, only from %s: it "
            "overrode the call's choice (a locked preference, `preferences.lock` in its settings.yml, or a `!name` "
            "in the query)" % (option, ", ".join(names), some_names(others)),
            provider="searxng",
            detail_code=OPTION_OVERRIDDEN,
        )
    near = sorted({c for c in others for n in names if c.lower() == n.lower()})
    hint = "; names are exact and lower case: did you mean %s?" % ", ".join(repr(n) for n in near) if near else ""
    return InvalidInput(
        "searxng: no result came from the %s asked for (%s), only from %s: the instance ignores names it does not "
        "know, shortcuts included, and runs %s%s"
        % (option, ", ".join(names), some_names(others), _run_instead(option, categories, config, bangs), hint),
        provider="searxng",
        detail_code=UNKNOWN_ENGINES if option == "engines" else UNKNOWN_CATEGORIES,
    )


def _run_instead(
    option: str, categories: Optional[str], config: Optional[InstanceConfig], bangs: Sequence[str] = ()
) -> str:
    """What the instance runs in place of ``option``'s names it ignored: the engines of a ``!name``
    in the query that it knows (``searx/webadapter.py``: they win over both options), else
    (``parse_generic``) the engines of those ``categories`` sent beside ``engines`` that it has (all
    of them while ``config`` does not tell), else its default ones."""
    if _bang_picked(config, bangs):
        return "the engines the `!name` in the query picked"
    sent = (categories or "").split(",") if option == "engines" else []
    known = [c for c in sent if c and (config is None or not config.categories or c in config.categories)]
    if known:
        return "the engines of the categories sent beside them (%s)" % ", ".join(known)
    return "its default engines"


def _engines_asked(
    config: InstanceConfig, engines: Optional[str], categories: Optional[str], bangs: Sequence[str]
) -> tuple[list[Engine], list[Engine]]:
    """The engines a search named and those it asked: a known ``!name``'s (they win over the
    options), else those of ``engines`` or ``categories`` (comma-separated as sent), the named
    being the asked that ``engines`` names."""
    named, asked = config.bang_engines(bangs)
    if asked:
        return named, asked
    asked = config.engines_asked((engines or "").split(","), (categories or "").split(","))
    return [engine for engine in asked if engine.name in (engines or "").split(",")], asked


@dataclasses.dataclass(frozen=True)
class SkipRule:
    """A kind of search for which SearXNG does not ask its engines that lack a feature at all
    (``searx/search/processors/abstract.py: get_params`` returns ``None`` for them), and whose
    answer does not say so (no result, no ``unresponsive_engines`` entry): only ``/config`` (each
    engine's :attr:`field`) tells which engines were left out."""

    #: The :class:`~.searxng_config.Engine` field (``/config``'s) saying whether it has the feature.
    field: str
    #: The search, in a message's words ("with a time range").
    search: str
    #: The same search, after "skipped" ("for the time range").
    skipped_for: str
    #: The feature ("time-range support").
    feature: str
    skipped_code: str
    unverified_code: str
    #: Whether engines skipped only because a category brought them (none named, others asked) are
    #: noted: for a time range their results are missing from the search; for a later page they
    #: were on the first one, and a default search's later pages would all say so.
    notes_category_engines: bool = True

    def skipped(
        self,
        config: Optional[InstanceConfig],
        engines: Optional[str],
        categories: Optional[str],
        bangs: Sequence[str] = (),
    ) -> Optional[WebSearchError]:
        """A warning naming the engines such a search did not ask, else ``None`` (also when
        ``/config`` was not read). The engines asked are those of a ``!name`` in the query that
        ``config`` knows (``bangs``: :func:`.searxng_query.engine_bangs`; they win over the
        options), else those of ``engines`` or ``categories`` (comma-separated as sent); the
        skipped are those ``config`` lists without the feature. Without
        :attr:`notes_category_engines`, only when one named (in ``engines``, or by a ``!name``)
        was skipped, or every engine asked."""
        if config is None:
            return None
        named, asked = _engines_asked(config, engines, categories, bangs)
        skipped = [engine for engine in asked if getattr(engine, self.field) is False]
        kept = [engine.name for engine in asked if getattr(engine, self.field) is not False]
        if not skipped or not (self.notes_category_engines or not kept or set(skipped) & set(named)):
            return None
        return WebProviderError(
            "searxng: %s the instance does not ask its engines that have no %s, so none of their results are here: "
            "%s%s"
            % (
                self.search,
                self.feature,
                some_names([engine.name for engine in skipped]),
                "; asked: %s" % some_names(kept) if kept else "; that was every engine of this search",
            ),
            provider="searxng",
            detail_code=self.skipped_code,
        )

    def unverified(self, why: str) -> WebSearchError:
        """The warning of such a search whose ``/config`` could not be read (``why``): the instance
        may have skipped engines without the feature, and nothing here says which."""
        return WebProviderError(
            "searxng: could not check which engines the instance skipped %s (it does not ask those without %s, "
            "and only its /config names them): %s; the results may lack those engines' results"
            % (self.skipped_for, self.feature, why),
            provider="searxng",
            detail_code=self.unverified_code,
        )


#: A search with a time range does not ask the engines without ``time_range_support``.
TIME_RANGE = SkipRule(
    "time_range_support",
    "with a time range",
    "for the time range",
    "time-range support",
    TIME_RANGE_SKIPPED,
    TIME_RANGE_UNVERIFIED,
)
#: A search for a page after the first (``pageno`` 2 on) does not ask the engines without ``paging``.
#: Nor those past their own ``max_page`` (``get_params`` again), which ``/config`` does not publish:
#: that skip is not told.
PAGING = SkipRule(
    "paging",
    "for a page after the first",
    "for a page after the first",
    "paging support",
    PAGING_SKIPPED,
    PAGING_UNVERIFIED,
    notes_category_engines=False,
)


def some_names(names: list[str], shown: int = 10) -> str:
    """The first ``shown`` of ``names``, and how many more there are."""
    more = len(names) - shown
    return ", ".join(names[:shown]) + (" and %d more" % more if more > 0 else "")
