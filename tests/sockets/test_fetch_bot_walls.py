"""Fetch recognises the keyless engines' bot walls (the signatures search uses), served
by a real local server: Bing's Cloudflare Turnstile, Mojeek's ALTCHA page and the JavaScript
challenge recorded in front of a public SearXNG instance."""

from pathlib import Path

import pytest
from faults import respond
from servers import FaultServer

import websearch_sync as ws

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.mark.parametrize(
    "page, wall",
    [
        (FIXTURES / "bing_html" / "web-search-mcp__turnstile.html", "Turnstile"),
        (FIXTURES / "mojeek_html" / "argos-engine__altcha.html", "ALTCHA"),
        (FIXTURES / "searxng" / "searx-be__js_challenge.html", "Verifying your request"),
    ],
)
def test_fetch_recognises_the_bot_wall(page, wall):
    with FaultServer({"/search": respond(200, page.read_bytes())}) as server:
        with pytest.raises(ws.WebBlocked) as info:
            # 30 s, not the subject: a process's first fetch builds its wire and extractor (2-7 s under load)
            ws.fetch(server.url("/search"), allow_private=True, settings=ws.Settings(), timeout_ms=30_000)
    assert info.value.detail_code == "captcha_required" and wall in info.value.message
