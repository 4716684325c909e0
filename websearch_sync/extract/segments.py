"""Article segments readability leaves out between the segments it merges.

readability-lxml (0.9) merges into its best candidate the other blocks of the same tag and
the same classes inside the page's ``<article>`` (an article written as sections, each its
own box of paragraphs, separated by rules), each one that scores a twentieth of the best
candidate. A short section between two merged ones (a sentence and a list, a paragraph and a
quotation) scores less and was left out: the article came back with holes in it. A segment
between two that readability merged (the best candidate one of them) is the article's too:
it goes back in its place when it is running text (``MIN_CHARS`` characters or more, link
density ``MAX_LINK_DENSITY`` at most, readability's own bound for a segment) and holds no
picture: a page built of components gives its photos the class of its text boxes, and a
photo's caption and credit line are not the article's text. When the best candidate's class
names include readability's content names (``class="content lead"``), readability merges the
blocks of its tag that share one of them (``class="content"``: a how-to's steps), and the
segments are those (a box of what is needed, a heading and a list, between two steps).
"""

from re import Pattern
from typing import Optional

from lxml import etree
from lxml.html import HtmlElement

from ..checkpoints import checked
from .boilerplate import text_size
from .textlength import link_density

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: A segment goes back with this many non-space characters or more ...
MIN_CHARS = 25
#: ... and at most this link density (readability's bound for a segment it merges).
MAX_LINK_DENSITY = 0.2
#: A segment holding one of these is a picture with its caption, not running text.
PICTURE_TAGS = ("figure", "figcaption", "img", "picture", "video")


def same_segments(best: etree._Element, positive: Optional[Pattern[str]] = None) -> list[etree._Element]:
    """The elements of ``best``'s document with its tag and its class attribute, ``best``
    included, in document order (taken before readability merges any): the segments it may
    merge. When some of ``best``'s class names are content names (``positive``: readability's
    ``positiveRe``, "content", "body", "post"...), readability merges the blocks of its tag that
    share one of those (``class="content lead"`` and ``class="content"``), and so are these
    the segments. None when ``best`` has no class (readability merges classless blocks by other rules)."""
    classes, tag = best.get("class"), best.tag
    if not classes or not isinstance(tag, str):
        return []
    content = frozenset(name for name in classes.split() if positive is not None and positive.search(name))
    if not content:
        return [element for element in checked(best.getroottree().iter(tag)) if element.get("class") == classes]
    return [
        element
        for element in checked(best.getroottree().iter(tag))
        if element.get("class") == classes or not content.isdisjoint((element.get("class") or "").split())
    ]


def _merged(element: etree._Element, best: etree._Element) -> bool:
    return element is best or any(ancestor is best for ancestor in element.iterancestors())


def _nested(element: etree._Element, others: list[etree._Element]) -> bool:
    ancestors = list(element.iterancestors())
    return any(other is ancestor for other in others for ancestor in ancestors)


def fill_segment_gaps(segments: list[etree._Element], best: etree._Element) -> None:
    """Moves into ``best`` (readability's best candidate, after its merge of ``segments``) each
    segment that lies between two merged ones and is running text, in its place."""
    merged = [index for index, segment in enumerate(segments) if _merged(segment, best)]
    if len(merged) < 2:
        return
    previous = segments[merged[0]]
    for index in range(merged[0] + 1, merged[-1]):
        segment = segments[index]
        if _merged(segment, best):
            previous = segment
            continue
        if (
            not isinstance(segment, HtmlElement)
            or _nested(segment, segments)
            or next(segment.iter(*PICTURE_TAGS), None) is not None
            or text_size(segment) < MIN_CHARS
            or link_density(segment) > MAX_LINK_DENSITY
        ):
            continue
        if previous is best:  # the gap lies after the best candidate's own content: before the next merged one
            following = next(s for s in segments[index + 1 :] if _merged(s, best) and s is not best)
            following.addprevious(segment)
        else:
            previous.addnext(segment)
        previous = segment
