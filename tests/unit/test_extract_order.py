"""Extraction works in document order, never in a set's order (issue 35.3, determinism).

A set of elements iterates in the order of their memory addresses, which differs between
processes: the same page then came out differently from one process to the next. Each step
that rewrites the tree for several elements must take them in document order.
"""

from lxml import etree, html

from websearch_sync.extract import boilerplate, paragraphs

BLOCKS = 60


def _page(inner: str) -> etree._Element:
    return html.document_fromstring("<html><body>%s</body></html>" % "".join(inner % i for i in range(BLOCKS)))


def test_br_runs_are_split_in_document_order(monkeypatch):
    root = _page('<div id="d%d">first run<br><br>second run<br><br>third run</div>')
    seen = []
    real_split = paragraphs._split
    monkeypatch.setattr(paragraphs, "_split", lambda parent: (seen.append(parent.get("id")), real_split(parent)))
    paragraphs.split_br_runs(root)
    assert seen == ["d%d" % i for i in range(BLOCKS)]


def test_boilerplate_is_dropped_in_document_order(monkeypatch):
    root = _page('<div class="box" id="b%d"><p>teaser text</p></div><p>kept %d</p>'.replace("kept %d", "kept"))
    boxes = list(reversed(root.findall(".//div")))
    dropped = []
    real_drop = boilerplate.drop
    monkeypatch.setattr(boilerplate, "drop", lambda element: (dropped.append(element.get("id")), real_drop(element)))
    boilerplate._drop_outermost(boxes + [box.find("p") for box in boxes])
    assert dropped == ["b%d" % i for i in range(BLOCKS)]
    assert root.findall(".//div") == []


def test_document_position_sorts_in_document_order():
    root = _page("<section><p>%d</p></section>")
    elements = list(root.iter())
    shuffled = elements[1::2] + elements[::2]
    assert sorted(shuffled, key=boilerplate.document_position) == elements
