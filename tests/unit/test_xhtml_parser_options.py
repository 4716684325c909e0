"""The options ``reader.xhtml`` parses a served document with. The installed libxml2 (2.14) has no
HTTP client and always limits entity amplification, so flipping ``no_network``, ``load_dtd`` or
``huge_tree`` alone changes nothing the behaviour tests (tests/sockets/test_fetch_xml.py: a local
file, a loopback DTD, the billion laughs) can see; another build of libxml2 would fetch the DTD or
expand the entities. These options are the guard, so they are checked as they are passed."""

import pytest
from lxml import etree

from websearch_sync.reader import xhtml


@pytest.mark.parametrize("recover", [False, True], ids=["strict", "recovered"])
def test_the_xml_parser_resolves_nothing_and_loads_nothing(recover, monkeypatch):
    options = []
    real = etree.XMLParser

    def parser(**kwargs):
        options.append(kwargs)
        return real(**kwargs)

    monkeypatch.setattr(xhtml.etree, "XMLParser", parser)
    xhtml._parsed('<html xmlns="http://www.w3.org/1999/xhtml"><body><p>Harbour</p></body></html>', recover)
    [used] = options
    assert (used["resolve_entities"], used["no_network"], used["load_dtd"]) == (False, True, False)
    assert not used.get("huge_tree", False) and not used.get("dtd_validation", False)
