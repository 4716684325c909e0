"""What ``xmlroot.foreign_root`` reads of a body served as ``text/html`` that opens with an XML declaration."""

import pytest

from websearch_sync.net.xmlroot import foreign_root


@pytest.mark.parametrize("name", ["main", "template", "picture", "dialog", "slot", "search", "data", "my-app"])
def test_an_html5_or_custom_element_root_is_html(name):
    """lxml's list of HTML names is HTML 4's and a few more: an HTML5 element (or a custom one, its
    name hyphenated) at the root was read as another vocabulary, the page returned as its markup."""
    assert not foreign_root(b'<?xml version="1.0"?>\n<%s><p>Harbour works</p></%s>' % (name.encode(), name.encode()))


@pytest.mark.parametrize("root", [b"<rss version='2.0'>", b'<feed xmlns="http://www.w3.org/2005/Atom">', b"<rdf:RDF>"])
def test_a_feed_root_is_foreign(root):
    assert foreign_root(b'<?xml version="1.0"?>\n' + root + b"<title>Harbour news</title>")


FEED = '<?xml version="1.0" encoding="UTF-16"?><rss version="2.0"><channel><title>Harbour news</title></channel></rss>'


@pytest.mark.parametrize(
    "codec, foreign", [("utf-16", True), ("utf-16-le", False), ("utf-16-be", False), ("utf-32", False)]
)
def test_a_feed_is_read_in_utf16_only_with_its_byte_order_mark(codec, foreign):
    """A body declared HTML is decoded as HTML is: a UTF-16 byte-order mark is read, a BOM-less UTF-16
    or a UTF-32 body is not (binary data). Its root was judged in a decoding the body never got:
    called a feed, it was refused as binary all the same."""
    assert foreign_root(FEED.encode(codec)) is foreign
