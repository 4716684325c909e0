"""The fetch tool's description names PDFs only where fetch reads them (the ``pdf`` extra): a model
sent to a paper's PDF link then knows it may read it, and is not promised what would fail."""

import pytest

from websearch_sync import tool


@pytest.mark.parametrize("readable, says", [(True, True), (False, False)])
def test_the_fetch_tools_description_names_pdfs_where_fetch_reads_them(monkeypatch, readable, says):
    monkeypatch.setattr(tool, "pdf_readable", lambda: readable)
    for style in ("openai", "anthropic", "json_schema"):
        text = repr(tool.tool_definitions(style))
        assert ("Read one web page or PDF (http or https URL)" in text) is says, style
        assert "Read one web page" in text


def test_pdf_readable_is_what_the_reader_finds():
    from websearch_sync.reader.pdf import _pypdf, pdf_readable

    assert pdf_readable() is (_pypdf() is not None)
