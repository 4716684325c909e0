"""``site_filter`` is a domain (a port and a path may follow): one that is no domain is
``InvalidInput(bad_site_filter)`` before any request, and an internationalised domain is one."""

import pytest

import websearch_sync as ws


@pytest.mark.parametrize(
    ("site", "reason"),
    [
        ("...", "label 1 is empty"),
        (".", "label 1 is empty"),
        ("..gov", "label 1 is empty"),  # after the one leading dot of a suffix
        ("a..b.com", "label 2 is empty"),
        ("a" * 64 + ".com", "label 1 is 64 characters long, over 63"),
        ("docs..python.org/3", "label 2 is empty"),
        # a small full stop and a two dot leader, which IDNA 2003 mapped to dots (a..b.com), UTS #46 refuses
        ("a\ufe52\ufe52b.com", "label 1 holds U+FE52, a character IDNA refuses"),
        ("\ufe52\ufe52\ufe52", "label 1 holds U+FE52, a character IDNA refuses"),
        ("a\u2025b.com", "label 1 holds U+2025, a character IDNA refuses"),
        ("b\u00fccher.xn--zz", "label 2 starts with xn-- but is no punycode"),
        ("1\u0627.com", "label 1 holds right-to-left characters but does not start with a right-to-left letter"),
    ],
)
def test_a_site_with_an_empty_or_over_long_label_is_refused(site, reason):
    """``...`` matched the pattern of letters, digits, dots and hyphens and was sent as
    ``site:...``, which narrows nothing: the results came back unfiltered, as if it had worked.
    The reason is the library's, the same on every Python (3.13's codec words its own differently)."""
    with pytest.raises(ws.InvalidInput) as info:
        ws.search("q", backend="stub", site_filter=site)
    assert (info.value.detail_code, info.value.message) == (
        "bad_site_filter",
        "invalid site_filter: %r (%s; expected a domain such as docs.python.org)" % (site, reason),
    )


@pytest.mark.parametrize(
    "site",
    [
        "bücher.de",
        "Bücher.de/neu",  # upper case is sent as typed: a host's case does not matter to a search engine
        "straße.de",  # IDNA 2003 (Python's codec) read it as strasse.de, another registered domain
        "ςοφία.gr",  # ... and this as σοφία.gr
        "bücher.XN--P1AI",
        "docs.python.org/3/",
        "example.com.",
        "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645.ir",  # a zero-width non-joiner, part of a Persian name
        "\u05d01.com",  # right-to-left text may end with a digit (RFC 5893; IDNA 2003 refused it)
        # a '://' in the path or query is no URL given as the filter: only a value starting with a scheme is
        "web.archive.org/web/2020/https://python.org",
        "example.com/redirect?to=http://x",
        "python.org/a://b",
    ],
)
def test_a_domain_is_sent_as_given(site):
    """``bücher.de`` is a domain: it was refused with "expected a domain such as docs.python.org";
    then it was sent as Python's IDNA 2003 codec reads it, ``straße.de`` as ``strasse.de``."""
    result = ws.search("q", backend="stub", site_filter=site, max_results=1)
    assert result["items"][0]["title"] == "q site:%s - Overview" % site


@pytest.mark.parametrize(
    "site",
    [
        "a\u200b.example",
        "ex\u00adample.com",
        "example.com\ufeff",
        # characters UTS #46 maps to nothing that stringprep's table of invisible ones lacks: they went out hidden
        "a\u180e.com",
        "a\u2061.com",
        "a\u2064.com",
        "a\u206a.com",
        "a\u206f.com",
        "a\U0001d173.com",
        "a\U0001d17a.com",
        "a\u115f.com",
        "a\u3164.com",
        "a\uffa0.com",
        "a\U000e0100.com",
        "a\U000e01ef.com",
    ],
)
def test_a_domain_with_an_invisible_character_is_refused(site):
    """A zero-width space was dropped silently (``a\u200b.example`` sent as ``a.example``): a domain
    the user did not type. Sent as typed it would be one no search engine has: it is refused."""
    with pytest.raises(ws.InvalidInput) as info:
        ws.search("q", backend="stub", site_filter=site)
    assert info.value.detail_code == "bad_site_filter" and "invisible character U+" in info.value.message


@pytest.mark.parametrize("site", ["xn--zz.com", "XN--ZZ.com"])
def test_a_label_xn_that_is_no_punycode_is_refused_in_an_ascii_domain_too(site):
    """One rule whatever the host's alphabet: ``bücher.xn--zz`` is refused, so is ``xn--zz.com``."""
    with pytest.raises(ws.InvalidInput) as info:
        ws.search("q", backend="stub", site_filter=site)
    assert info.value.detail_code == "bad_site_filter" and "punycode" in info.value.message


def test_an_internationalised_domain_with_a_label_xn_that_is_no_punycode_is_refused():
    """``bücher.xn--zz``: its IDNA form was read back outside the check, and the codec's own
    ``UnicodeError`` escaped (the CLI printed a traceback and ended with status 1)."""
    with pytest.raises(ws.InvalidInput) as info:
        ws.search("q", backend="stub", site_filter="bücher.xn--zz")
    assert info.value.detail_code == "bad_site_filter" and "punycode" in info.value.message


@pytest.mark.parametrize("site", [".gov", ".edu", ".ac.uk/", ".bücher.de"])
def test_one_leading_dot_restricts_to_a_domain_suffix(site):
    """``site:.gov`` (any domain ending in ``gov``) is a common idiom: its empty first label
    made it "label empty or too long"."""
    result = ws.search("q", backend="stub", site_filter=site, max_results=1)
    assert result["items"][0]["title"] == "q site:%s - Overview" % site


def test_a_site_filter_longer_than_any_domain_with_a_path_is_refused_before_it_is_read():
    """A megabyte took 8.9 s to map and was echoed whole in the error message."""
    with pytest.raises(ws.InvalidInput) as info:
        ws.search("q", backend="stub", site_filter="\u00e9" * 1_000_000)
    assert (info.value.detail_code, info.value.message) == (
        "bad_site_filter",
        "invalid site_filter: %r (1000000 characters long, over 1024; expected a domain such as docs.python.org)"
        % ("\u00e9" * 80 + "..."),
    )
