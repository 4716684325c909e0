"""Article blocks readability leaves out between the blocks it appends.

readability-lxml appends to its best candidate the siblings that score well, and a ``<p>``
sibling whose own text is over 80 characters with little link text; but a paragraph's own text
(lxml's ``.text``) stops at its first inline element, so a paragraph that opens with a link or
emphasis ("As <a>the agency</a> reports, ...") has none, and a list or a quotation is not
tested at all. Between two blocks readability appended, such a block is the article's own: it
goes back in its place when it is running text (``MIN_CHARS`` characters or more, at most
``MAX_LINK_DENSITY`` of them link text). Only those tags: a figure or a box between two
paragraphs stays out (a caption is not article text for the article-extraction benchmark).
"""

from lxml import etree
from lxml.html import HtmlElement

from .boilerplate import text_size
from .textlength import link_density

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: Blocks that go back: paragraphs, lists, quotations and code.
GAP_TAGS = frozenset(("p", "ul", "ol", "dl", "blockquote", "pre"))
#: A block goes back with this many non-space characters or more ...
MIN_CHARS = 100
#: ... and at most this share of link text (readability's link density).
MAX_LINK_DENSITY = 0.3


def fill_gaps(siblings: list[etree._Element], parent: etree._Element, output: etree._Element) -> None:
    """Moves into readability's ``output`` the blocks of ``siblings`` (its best candidate's
    siblings under ``parent``, in document order, taken before readability moved any) that lie
    between two blocks it appended and are running text of ``GAP_TAGS``, each in its place."""
    appended = [index for index, sibling in enumerate(siblings) if sibling.getparent() is output]
    if len(appended) < 2:
        return
    following = siblings[appended[-1]]
    for index in range(appended[-1] - 1, appended[0], -1):  # backwards: a block goes before the next one kept
        sibling = siblings[index]
        if sibling.getparent() is output:
            following = sibling
        elif (
            sibling.getparent() is parent  # readability merged nothing of it elsewhere
            and sibling.tag in GAP_TAGS
            and isinstance(sibling, HtmlElement)  # as the page's parser builds them: text_content()
            and text_size(sibling) >= MIN_CHARS
            and link_density(sibling) <= MAX_LINK_DENSITY
        ):
            following.addprevious(sibling)
            following = sibling
