"""A page whose content decodes past pypdf's own cap (reader/pdfdraw.py ``drawn_bytes``, its
``over_cap``): pypdf raises ``LimitReachedError`` at 75 MB decoded, and the page is left out
for its size (``large_pages``, as one drawing over 1 MB), not as a page pypdf cannot read: a
bomb of 160 KB was named in the ``pdf_pages_left_out`` warning, and alone it was ``pdf_broken``."""

import functools

import pytest
from pdfs import Deflated, bomb_pdf, deflated_repeats, font_map_pdf
from requests.structures import CaseInsensitiveDict

import websearch_sync as ws
from websearch_sync.net.transport import HttpResponse
from websearch_sync.reader import pdf
from websearch_sync.reader.pagetext import CUT_LARGE_PAGES


@functools.cache
def over_pypdf_cap() -> Deflated:
    """83 MB of text operators (more than pypdf's 75 MB cap) in 160 KB; built on first use (at
    import it cost every process that collects the module 55 ms)."""
    return deflated_repeats(b"BT (x) Tj ET " * 80_000, 80)


def response(body: bytes) -> HttpResponse:
    return HttpResponse(200, CaseInsensitiveDict({"Content-Type": "application/pdf"}), body, "http://example.org/b.pdf")


def test_a_page_decoding_past_pypdf_s_cap_is_left_out_for_its_size():
    body = bomb_pdf([["The quay opened in October."], over_pypdf_cap()])
    read = pdf.pdf_text(response(body), mode="text", provider="fetch")
    assert (read.text, read.cuts, read.warnings) == (
        "--- Page 1 ---\n\nThe quay opened in October.",
        {CUT_LARGE_PAGES},
        [],
    )
    # alone, such a page is a PDF that decodes to more than fetch reads (response_too_large, as
    # for a page drawing over 1 MB: tests/sockets/test_fetch_pdf.py), which that cut makes it


def counted_bomb_decodes(monkeypatch) -> list[int]:
    """The sizes of the data pypdf's Flate filter is given that are :func:`over_pypdf_cap`'s, as it decodes them."""
    from pypdf.filters import FlateDecode

    decode = FlateDecode.decode
    bombs: list[int] = []

    def counted(data, *args, **kwargs):
        bombs.extend([len(data)] if len(data) == len(over_pypdf_cap()) else [])
        return decode(data, *args, **kwargs)

    monkeypatch.setattr(FlateDecode, "decode", staticmethod(counted))
    return bombs


def test_a_stream_over_pypdf_s_cap_that_pages_share_is_decoded_once(monkeypatch):
    # one bomb drawn by many pages was decoded again for each (1,000 pages: 125 s of CPU), its
    # size never counted: it is measured once, and the pages after the first find it over the limit
    bombs = counted_bomb_decodes(monkeypatch)
    body = bomb_pdf([["The quay opened in October."], *[over_pypdf_cap()] * 10], shared=True)
    read = pdf.pdf_text(response(body), mode="text", provider="fetch")
    assert (read.text, read.cuts, len(bombs)) == ("--- Page 1 ---\n\nThe quay opened in October.", {CUT_LARGE_PAGES}, 1)


def test_a_font_map_over_pypdf_s_cap_that_pages_share_is_decoded_once(monkeypatch):
    # a font's map the pages share, once over the cap, leaves each page out for its size without
    # decoding it: the extraction of the second page decoded it again and failed (pdf_broken)
    bombs = counted_bomb_decodes(monkeypatch)
    body = font_map_pdf([["Page %d of the harbour." % n] for n in range(10)], over_pypdf_cap())
    with pytest.raises(ws.WebProviderError) as info:
        pdf.pdf_text(response(body), mode="text", provider="fetch")
    assert (info.value.detail_code, len(bombs)) == ("response_too_large", 1)


def test_a_drawn_stream_is_decoded_no_further_than_a_page_may_draw(monkeypatch):
    # pypdf decoded each bomb to its own 75 MB cap before refusing it (30 such pages: 10.4 s and
    # 259 MB of peak memory, bench/pdf_bombs.py); a page drawing over MAX_PAGE_CONTENT is left out
    # whatever the rest, so its streams are decoded under that cap, and pypdf's own is back after
    from pypdf import get_configuration
    from pypdf.filters import FlateDecode

    decode = FlateDecode.decode
    caps: list[int] = []

    def seen(data, *args, **kwargs):
        caps.extend([get_configuration().zlib_maximum_output_length] if len(data) == len(over_pypdf_cap()) else [])
        return decode(data, *args, **kwargs)

    monkeypatch.setattr(FlateDecode, "decode", staticmethod(seen))
    body = bomb_pdf([["The quay opened in October."], over_pypdf_cap()])
    read = pdf.pdf_text(response(body), mode="text", provider="fetch")
    assert (read.text, read.cuts, caps) == (
        "--- Page 1 ---\n\nThe quay opened in October.",
        {CUT_LARGE_PAGES},
        [pdf.MAX_PAGE_CONTENT + 1],
    )
    assert get_configuration().zlib_maximum_output_length == 75_000_000
