"""The cap on a cross-reference stream's entries pypdf reads (reader/pdf.py ``_open``): one per
8 bytes of the file, at least 10,000, and never above pypdf's own 2,000,000 (a file over 16 MB,
fetched with ``max_bytes`` raised, would otherwise have loosened pypdf's protection)."""

import types

import pytest

from websearch_sync.reader import pdf


@pytest.mark.parametrize(
    ("size", "entries"),
    [(6_000, 10_000), (800_000, 100_000), (20_000_000, 2_000_000)],
)
def test_the_entries_pypdf_may_read_follow_the_file_size_within_bounds(size, entries):
    asked = {}

    def reader(stream, **options):
        asked.update(options)
        return "the reader"

    fake_pypdf = types.SimpleNamespace(PdfReader=reader)
    assert pdf._open(fake_pypdf, b"%" * size, "example.org", None, 200) == "the reader"
    assert asked == {"xref_stream_maximum_entries": entries}
