"""``walk_blocks`` as a plugin engine reads it (docs/backends.md): a part is the first element
of its block passing its test, class tests (``HasClass``) and function tests alike; a part's
text is its block's own, without a block nested inside it."""

import pytest

from websearch_sync.backends import HasClass, classes, parse_fragment, walk_blocks

PAGE = """
<div class="result">
  <a class="title link" href="/one">First <span class="title">inner</span> title</a>
  <p class="snippet snippet">One's snippet</p>
  <p class="snippet">a second snippet, not the part</p>
  <span>2024-01-02</span>
  <div class="result">
    <a class="title" href="/nested">Nested title</a>
    <p class="snippet">Nested snippet</p>
  </div>
  <p class="extra">after the nested block</p>
</div>
<div class="result"><p class="snippet">no title here</p></div>
"""

PARTS = {
    "title": HasClass("title"),
    "link": HasClass("link"),  # the same element as the title: both parts
    "snippet": HasClass("snippet"),
    "date": lambda tag, inside: tag.name == "span" and not classes(tag) and not inside,
    "extra": lambda tag, inside: "extra" in classes(tag),
}


def _blocks():
    return walk_blocks(parse_fragment(PAGE), lambda tag: tag.name == "div" and "result" in classes(tag), PARTS)


def test_each_part_is_the_first_element_passing_its_test():
    outer, nested, last = _blocks()
    assert outer.parts["title"] is outer.parts["link"] and outer.parts["title"].get("href") == "/one"
    assert outer.text("snippet") == "One's snippet"
    assert outer.text("date") == "2024-01-02" and outer.text("extra") == "after the nested block"
    assert nested.parts["title"].get("href") == "/nested" and nested.text("snippet") == "Nested snippet"
    assert "title" not in last.parts and last.text("title") == "" and last.text("snippet") == "no title here"


def test_a_parts_text_holds_its_descendants_but_not_a_nested_blocks():
    outer, nested, _ = _blocks()
    assert " ".join(outer.text("title").split()) == "First inner title"
    assert "Nested" not in outer.text("title") + outer.text("snippet") + outer.text("extra")
    assert "date" not in nested.parts and "extra" not in nested.parts


def test_a_part_name_the_walk_was_not_given_is_a_defect_not_an_empty_text():
    """``block.text("snipet")`` (a misspelt part) read "" on every page: a plugin's snippets were
    all empty without a word. A name not among the walk's parts is a defect of the engine (not a
    ``KeyError``, which a parser's caller reads as a page of another shape); a declared part absent
    from its block still reads no text."""
    outer, _, last = _blocks()
    assert last.text("title") == ""
    with pytest.raises(LookupError) as failed:
        outer.text("snipet")
    assert not isinstance(failed.value, KeyError)
    assert str(failed.value) == "no part 'snipet' in this walk (its parts: date, extra, link, snippet, title)"
