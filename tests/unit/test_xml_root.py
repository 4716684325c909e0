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
