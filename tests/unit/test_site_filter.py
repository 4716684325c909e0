"""``site_filter`` is a domain (a port and a path may follow): one that is no domain is
``InvalidInput(bad_site_filter)`` before any request, and an internationalised domain is one."""

import pytest

import websearch_sync as ws


@pytest.mark.parametrize("site", ["...", ".", "a..b.com", "a" * 64 + ".com", "docs..python.org/3"])
def test_a_site_with_an_empty_or_over_long_label_is_refused(site):
    """``...`` matched the pattern of letters, digits, dots and hyphens and was sent as
    ``site:...``, which narrows nothing: the results came back unfiltered, as if it had worked."""
    with pytest.raises(ws.InvalidInput) as info:
        ws.search("q", backend="stub", site_filter=site)
    assert info.value.detail_code == "bad_site_filter" and "label empty or too long" in info.value.message


@pytest.mark.parametrize(
    ("site", "sent"),
    [
        ("bücher.de", "bücher.de"),
        ("Bücher.de/neu", "bücher.de/neu"),
        ("a\u200b.example", "a.example"),  # a zero-width space is no part of a name
        ("docs.python.org/3/", "docs.python.org/3/"),
        ("example.com.", "example.com."),
    ],
)
def test_a_domain_is_sent_as_idna_reads_it(site, sent):
    """``bücher.de`` is a domain: it was refused with "expected a domain such as docs.python.org"."""
    result = ws.search("q", backend="stub", site_filter=site, max_results=1)
    assert result["items"][0]["title"] == "q site:%s - Overview" % sent
