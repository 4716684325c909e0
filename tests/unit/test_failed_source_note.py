"""The note on a source that failed beside results names its detail code (why it failed)."""

import websearch_sync as ws
from websearch_sync import tool


def test_the_note_on_a_failed_source_says_why_it_failed():
    """``Note: 1 source(s) failed: demo WebProviderError``: the type alone, which a dozen causes share;
    a fallback's text (the command line's, the tools') now names the detail code, as an error line does."""
    result = {
        "items": [{"title": "t", "url": "https://a.example/", "snippet": "", "provider": "stub", "rank": 1}],
        "provider_meta": {"provider_name": "stub"},
        "errors": [
            ws.WebProviderError("backend demo returned ...", provider="demo", detail_code="bad_parse_result").to_dict()
        ],
    }
    assert "Note: 1 source(s) failed: demo WebProviderError (bad_parse_result)" in tool.format_results(result)
