"""What a SearXNG answer holds besides ``results``, and the names it ignored.

``extras_of`` reads the answer's ``answers``, ``infoboxes``, ``suggestions`` and
``corrections`` (``searx/webutils.py: get_json_response``) into the documented
shape of ``provider_meta["extras"]`` (docs/backends.md):

* ``answers``: ``[{"text", "url", "engine", "template"}]`` from SearXNG's ``Answer``
  (``searx/result_types/answer.py``: ``{"url", "engine", "parsed_url", "template",
  "answer"}``); an answer type without a text (``Translations``, ``WeatherAnswer``)
  keeps ``template`` so that it is not lost without a word;
* ``infoboxes``: ``[{"title", "content", "url", "urls": [{"title", "url"}],
  "attributes": [{"label", "value"}], "engine"}]`` from an engine's infobox
  (``searx/engines/wikidata.py``: ``{"infobox", "id", "content", "img_src", "urls",
  "attributes"}``);
* ``suggestions``, ``corrections``: lists of strings.

A kind is present only when the answer has some; every text is cleaned like an
item's (plain text: SearXNG escapes these in its own page) and each list is capped.

``ignored_names`` tells when the instance ignored an ``engines``/``categories``
name: SearXNG silently drops names it does not know (a shortcut such as ``go``,
another case such as ``Google``) and runs its default engines instead.
"""

from collections.abc import Sequence
from typing import Any, Optional

from ..engine.normalize import clean_text
from ..errors import UNKNOWN_CATEGORIES, UNKNOWN_ENGINES, InvalidInput
from ..net.urls import result_url

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: The kinds of extras, in the order of SearXNG's answer.
EXTRAS_KINDS = ("answers", "infoboxes", "suggestions", "corrections")
#: At most this many entries of each kind are kept (an answer may list dozens of suggestions).
MAX_EXTRAS = 10
#: Longest text kept of one field.
MAX_EXTRA_CHARS = 2000


def extras_of(data: dict[str, Any]) -> dict[str, list[Any]]:
    """``{kind: entries}`` for each kind of extra the answer has (see the module docstring)."""
    readers = {"answers": _answer, "infoboxes": _infobox, "suggestions": _word, "corrections": _word}
    extras: dict[str, list[Any]] = {}
    for kind in EXTRAS_KINDS:
        raw = data.get(kind)
        entries = (
            [entry for entry in (readers[kind](item) for item in raw[: MAX_EXTRAS * 2]) if entry]
            if isinstance(raw, list)
            else []
        )
        if entries:
            extras[kind] = entries[:MAX_EXTRAS]
    return extras


def _text(value: Any) -> Optional[str]:
    if not isinstance(value, (str, int, float)) or isinstance(value, bool):
        return None
    return clean_text(value, markup=False)[:MAX_EXTRA_CHARS] or None


def _word(value: Any) -> Optional[str]:
    return _text(value)


def _answer(value: Any) -> Optional[dict[str, Any]]:
    if isinstance(value, str):  # older instances: answers were plain strings
        value = {"answer": value}
    if not isinstance(value, dict):
        return None
    answer = {
        "text": _text(value.get("answer")),
        "url": result_url(value.get("url")),
        "engine": _text(value.get("engine")),
    }
    if answer["text"] is None:
        answer["template"] = _text(value.get("template"))
        if answer["template"] is None:
            return None
    return answer


def _infobox(value: Any) -> Optional[dict[str, Any]]:
    if not isinstance(value, dict):
        return None
    title = _text(value.get("infobox"))
    if title is None:
        return None
    links = [{"title": _text(u.get("title")), "url": result_url(u.get("url"))} for u in _dicts(value.get("urls"))]
    attributes = [
        {"label": _text(a.get("label")), "value": _text(a.get("value"))} for a in _dicts(value.get("attributes"))
    ]
    return {
        "title": title,
        "content": _text(value.get("content")),
        "url": result_url(value.get("id")),
        "urls": [link for link in links if link["url"]],
        "attributes": [a for a in attributes if a["label"] and a["value"]],
        "engine": _text(value.get("engine")),
    }


def _dicts(value: Any) -> list[dict[str, Any]]:
    return [v for v in value[: MAX_EXTRAS * 3] if isinstance(v, dict)] if isinstance(value, list) else []


def _sources(results: Sequence[Any], field: str) -> list[str]:
    """The engines (``engines``: a list) or categories (``category``: a string) results came from."""
    came: list[str] = []
    for result in results:
        value = result.get(field) if isinstance(result, dict) else None
        values = [value] if isinstance(value, str) else value if isinstance(value, list) else []
        came.extend(v for v in values if isinstance(v, str))
    return came


def ignored_names(
    option: str, asked: Optional[str], results: Sequence[Any], failed: Sequence[str]
) -> Optional[InvalidInput]:
    """A warning when no result came from the ``engines`` (or ``categories``) asked for.

    ``asked`` is the option as sent (comma-separated), ``results`` the answer's results,
    ``failed`` the engines listed as unresponsive. Results that all come from other
    engines (categories) mean the instance did not know the names and ran its default
    engines; results that say nothing about their engine (category) prove nothing.
    """
    if not asked:
        return None
    names = asked.split(",")
    came = _sources(results, "engines" if option == "engines" else "category")
    if not came or set(names) & (set(came) | set(failed)):
        return None
    others = sorted(set(came))
    near = sorted({c for c in others for n in names if c.lower() == n.lower()})
    hint = "; names are exact and lower case: did you mean %s?" % ", ".join(repr(n) for n in near) if near else ""
    return InvalidInput(
        "searxng: no result came from the %s asked for (%s), only from %s: the instance ignores names it does not "
        "know, shortcuts included, and runs its default engines%s"
        % (option, ", ".join(names), ", ".join(others[:10]), hint),
        provider="searxng",
        detail_code=UNKNOWN_ENGINES if option == "engines" else UNKNOWN_CATEGORIES,
    )
