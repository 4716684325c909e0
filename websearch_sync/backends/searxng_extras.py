"""What a SearXNG answer holds besides ``results``.

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
item's (plain text: SearXNG escapes these in its own page) and each list is capped; an
answer given twice (its text) is kept once.
The answers are capped in all as well (:data:`MAX_ANSWERS_CHARS`): those past it are
left out and counted, which the backend says in a warning (``answers_left_out``).
"""

from typing import Any, Optional

from ..engine.normalize import clean_text
from ..net.urls import result_url

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: The kinds of extras, in the order of SearXNG's answer.
EXTRAS_KINDS = ("answers", "infoboxes", "suggestions", "corrections")
#: At most this many entries of each kind are kept (an answer may list dozens of suggestions).
MAX_EXTRAS = 10
#: Longest text kept of one field.
MAX_EXTRA_CHARS = 2000
#: Most characters of the answers kept, their fields' (text, URL, engine, template) summed: ten
#: answers each with a URL of 8 KB came to 80 KB. The first answer is kept whatever its size (its
#: fields are capped); the answers after the last that fits are left out, and counted.
MAX_ANSWERS_CHARS = 8000


def extras_of(data: dict[str, Any]) -> tuple[dict[str, list[Any]], int]:
    """``{kind: entries}`` for each kind of extra the answer has (see the module docstring), and
    how many answers were left out at :data:`MAX_ANSWERS_CHARS`."""
    readers = {"answers": _answer, "infoboxes": _infobox, "suggestions": _word, "corrections": _word}
    extras: dict[str, list[Any]] = {}
    for kind in EXTRAS_KINDS:
        raw = data.get(kind)
        entries = (
            [entry for entry in (readers[kind](item) for item in raw[: MAX_EXTRAS * 2]) if entry]
            if isinstance(raw, list)
            else []
        )
        if kind == "answers":
            entries = _distinct_answers(entries)
        if entries:
            extras[kind] = entries[:MAX_EXTRAS]
    answers, left_out = answers_within(extras.get("answers", []))
    if left_out:
        extras["answers"] = answers
    return extras, left_out


def answers_within(answers: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    """The first ``answers`` whose fields come to at most :data:`MAX_ANSWERS_CHARS` characters in
    all (the first answer always), and how many after them are left out."""
    kept: list[dict[str, Any]] = []
    total = 0
    for answer in answers:
        total += sum(len(value) for value in answer.values() if isinstance(value, str))
        if kept and total > MAX_ANSWERS_CHARS:
            break
        kept.append(answer)
    return kept, len(answers) - len(kept)


def _distinct_answers(answers: list[Any]) -> list[Any]:
    """``answers`` with one per text (a template's name for one without), the first: SearXNG keeps its
    answers in a set keyed so; an instance or a proxy listing one twice (``["42", "42"]``, or two engines'
    same answer) gave it twice."""
    seen: set[tuple[Optional[str], Optional[str]]] = set()
    distinct = []
    for answer in answers:
        key = (answer["text"], answer.get("template"))
        if key not in seen:
            seen.add(key)
            distinct.append(answer)
    return distinct


def _text(value: Any) -> Optional[str]:
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
