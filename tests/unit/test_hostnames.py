"""One rule for host names, a browser's (UTS #46 without transitional mapping, checked as the
``idna`` package checks an IDNA 2008 label, with DNS's lengths), and its refusals in the library's
words, naming the label: the same on every Python (the standard library's IDNA 2003 codec words its
own differently in 3.13) and whatever the ``idna`` package's wording."""

import idna
import pytest

from websearch_sync.hostnames import HostRefused, ascii_host, idna_refusal, with_ascii_host
from websearch_sync.net.encode import endpoint

REFUSED = [
    ("a..b.com", "label 2 is empty"),
    ("...", "label 1 is empty"),
    ("a.com..", "label 3 is empty"),  # one trailing dot names the root; a second is an empty label
    ("a.\u3002b.com", "label 2 is empty"),  # an ideographic full stop separates labels too
    ("a\u3002\u3002b", "label 2 is empty"),
    ("\u00ad.com", "label 1 is empty"),  # a soft hyphen, which UTS #46 drops
    ("a" * 64 + ".com", "label 1 is 64 characters long, over 63"),
    ("ok." + "a" * 300, "label 2 is 300 characters long, over 63"),
    ("\u00fc" * 70 + ".de", "label 1 is 70 characters long, over 63"),
    ("\u00fc" * 60 + ".de", "label 1 is 66 characters long once IDNA-encoded, over 63"),
    (".".join(["a" * 63] * 4), "the name is 255 characters long, over 253"),
    ("ab\udc80.com", "label 1 holds U+DC80, a character IDNA refuses"),
    ("\u2ff0x.com", "label 1 holds U+2FF0, a character IDNA refuses"),
    ("\u2603.net", "label 1 holds U+2603, a character IDNA refuses"),  # valid in UTS #46, not in IDNA 2008
    ("a\ufe52\ufe52b.com", "label 1 holds U+FE52, a character IDNA refuses"),  # a small full stop
    ("a\uff0fb.com", "label 1 holds U+002F, a character IDNA refuses"),  # a fullwidth solidus is a "/"
    ("\u05d0a.com", "label 1 mixes right-to-left and left-to-right characters"),
    ("a\u05d0.com", "label 1 mixes right-to-left and left-to-right characters"),  # left-to-right first
    # U+02B9, a modifier prime (bidi class ON): a right-to-left label may hold it, not end with it
    (
        "\u05d0\u02b9.com",
        "label 1 holds right-to-left characters but does not end with a right-to-left letter or a digit",
    ),
    (
        "\u05d01\u02b9.com",
        "label 1 holds right-to-left characters but does not end with a right-to-left letter or a digit",
    ),
    ("1\u0627.com", "label 1 holds right-to-left characters but does not start with a right-to-left letter"),
    ("\u0627\u0661\u0031.com", "label 1 mixes European and Arabic-Indic digits in right-to-left text"),
    ("ab--c\u00e9.com", "label 1 has hyphens as its third and fourth characters"),
    ("-\u00e9.com", "label 1 starts or ends with a hyphen"),
    ("\u0301a.com", "label 1 starts with a combining mark"),
    ("a\u200cb.com", "label 1 holds U+200C, a joiner IDNA allows only next to certain characters"),
    ("xn--b\u00fccher.de", "label 1 starts with xn-- but is not ASCII"),
    # an xn-- label that is no punycode: empty, undecodable, ending with a hyphen, not the encoding
    # of what it decodes to; or the punycode of a label IDNA refuses
    ("xn--.com", "label 1 starts with xn-- but is no punycode"),
    ("xn--zz.com", "label 1 starts with xn-- but is no punycode"),
    ("XN--ZZ.com", "label 1 starts with xn-- but is no punycode"),
    ("b\u00fccher.xn--zz", "label 2 starts with xn-- but is no punycode"),
    ("xn--abc-.com", "label 1 starts with xn-- but is no punycode"),
    ("xn---kva.de", "label 1 starts with xn-- but is no punycode"),  # decodes to U+0369, which encodes as "kva"
    ("xn--n3h.net", "label 1 starts with xn-- but decodes to a label that holds U+2603, a character IDNA refuses"),
    ("xn--a.com", "label 1 starts with xn-- but decodes to a label that holds U+0080, a character IDNA refuses"),
    # lengths as typed, before any mapping: over the idna package's 1,024 characters a label was
    # refused as "holds U+00E9"; a name of 130 one-letter labels was counted once encoded (1042)
    ("\u00e9" * 2000 + ".com", "label 1 is 2000 characters long, over 63"),
    ("\u00e9." * 130 + "de", "the name is 262 characters long, over 253"),
    # percent-decoded first (WHATWG), then no character WHATWG forbids in a domain
    ("%2f.example", "holds U+002F, a character no host name holds"),
    ("a%40b.example", "holds U+0040, a character no host name holds"),
    ("a%2525.example", "holds U+0025, a character no host name holds"),  # decoded once: %25 is "%"
    ("a%zz.example", "holds U+0025, a character no host name holds"),  # no escape: a "%" as such
    ("%ff.example", "its percent-escapes are no UTF-8"),
    # percent-decoding encodes the text first: a lone surrogate beside an escape raised UnicodeEncodeError
    # out of fetch("http://%\ud800") (hypothesis found it: test_any_string_as_a_fetch_url_is_refused_cleanly)
    ("%\ud800", "it holds a lone surrogate, which is no text"),
    ("a%41\udc80.example", "it holds a lone surrogate, which is no text"),
    ("a b.example", "holds U+0020, a character no host name holds"),
    ("a=b.example", "holds U+003D, a character no host name holds"),  # ASCII punctuation no DNS name holds
    ("a{b}.example", "holds U+007B, a character no host name holds"),
    ("", "label 1 is empty"),  # no label at all: not the root's dot
]


@pytest.mark.parametrize(("host", "reason"), REFUSED)
def test_a_host_the_rule_refuses_is_refused_naming_the_label_and_why(host, reason):
    assert idna_refusal(host) == reason
    with pytest.raises(HostRefused) as refused:
        ascii_host(host)
    assert str(refused.value) == "%s is not a valid host name (%s)" % (host, reason)


ENCODED = [
    ("example.com", "example.com"),
    ("Example.COM.", "example.com."),
    ("B\u00fccher.de", "xn--bcher-kva.de"),
    ("b\u00fccher.de\u3002", "xn--bcher-kva.de."),
    ("XN--BCHER-KVA.de", "xn--bcher-kva.de"),
    ("stra\u00dfe.de", "xn--strae-oqa.de"),  # no transitional mapping: not strasse.de, another domain
    ("\u05d01.com", "xn--1-zhc.com"),  # RFC 5893: a right-to-left label may end with a digit
    ("a\u200bb.com", "ab.com"),  # UTS #46 drops a zero-width space
    ("\uff21\uff22\uff23.com", "abc.com"),  # fullwidth letters fold to ASCII
    (
        "\u0641\u0627\u0631\u0633\u06cc\u200c\u0632\u0628\u0627\u0646.ir",
        "xn--mgbac9aff9g0b08f485m.ir",
    ),  # ZWNJ in Persian
    ("searx_1", "searx_1"),  # a label typed in ASCII is taken as typed: a container's name
    ("ab--cd.com", "ab--cd.com"),
    ("a" * 63 + ".com", "a" * 63 + ".com"),
    (".".join(["a" * 63] * 3 + ["a" * 61]), ".".join(["a" * 63] * 3 + ["a" * 61])),  # 253 characters: the limit
    # a Unicode label whose punycode is 63 characters (the limit), typed so and as its A-label
    ("a" * 55 + "\u00fc.de", "xn--" + "a" * 55 + "-8yf.de"),
    ("xn--" + "a" * 55 + "-8yf.de", "xn--" + "a" * 55 + "-8yf.de"),
    ("%41B.example", "ab.example"),  # percent-decoded, as a browser and libcurl read it
    ("%e2%91%a0.example", "1.example"),  # U+2460, a circled digit one
    ("%E2%91%A0%e2%91%a1%e2%91%a6.%e2%93%aa.%e2%93%aa.%e2%91%a0", "127.0.0.1"),
    ("::1", "::1"),  # an IPv6 literal (urlsplit's hostname): an address, no name
    ("fe80::1%25eth0", "fe80::1%25eth0"),
]


@pytest.mark.parametrize(("host", "ascii"), ENCODED)
def test_a_host_the_rule_takes_is_encoded_as_a_browser_sends_it(host, ascii):
    assert idna_refusal(host) is None
    assert ascii_host(host) == ascii


@pytest.mark.parametrize(
    "host",
    ["b\u00fccher.de", "\u05d01.com", "stra\u00dfe.de", "\u2603.net", "a\u3002\u3002b", "\u0627\u0661\u0031.com"],
)
def test_a_host_typed_in_unicode_is_judged_and_encoded_as_requests_encodes_it(host):
    """The rule's Unicode labels are the ``idna`` package's UTS #46 encoding, the one ``requests``
    sends with: what is checked is what would be sent."""
    try:
        theirs = idna.encode(host, uts46=True).decode("ascii")
    except idna.IDNAError:
        theirs = None
    assert (None if idna_refusal(host) else ascii_host(host)) == theirs


@pytest.mark.parametrize(
    ("url", "sent"),
    [
        ("http://B\u00fccher.de/\u00e9", "http://xn--bcher-kva.de/\u00e9"),
        (
            "https://user:p\u00e4ss@b\u00fccher.de:8080/?q=\u00fc#f",
            "https://user:p\u00e4ss@xn--bcher-kva.de:8080/?q=\u00fc#f",
        ),
        ("http://example.com/\u00e9", "http://example.com/\u00e9"),  # an ASCII host: the URL as it is
        ("http://EXAMPLE.com/\u00e9", "http://EXAMPLE.com/\u00e9"),  # not even lower-cased
        ("http://[::1]:80/\u00e9", "http://[::1]:80/\u00e9"),
        ("http://u:p%40@%e2%91%a0.example:80/a%20b?q=%41", "http://u:p%40@1.example:80/a%20b?q=%41"),
        ("http://[fe80::1%25eth0]:80/%41", "http://[fe80::1%25eth0]:80/%41"),
    ],
)
def test_with_ascii_host_rewrites_the_host_only(url, sent):
    assert with_ascii_host(url) == sent


def test_with_ascii_host_refuses_a_host_the_rule_refuses():
    with pytest.raises(HostRefused, match=r"label 2 is empty"):
        with_ascii_host("http://a\u3002\u3002b/")


@pytest.mark.parametrize(
    ("url", "sent"),
    [
        ("http://\u05d01.com/search", "http://xn--1-zhc.com/search"),
        ("http://searx_1.b\u00fccher.example:8888/", "http://searx_1.xn--bcher-kva.example:8888/"),
        ("http://b\u00fccher\u3002example:8888/", "http://xn--bcher-kva.example:8888/"),
        ("http://\uff21\uff22\uff23.example/", "http://abc.example/"),
    ],
)
def test_an_endpoint_is_prepared_with_its_host_encoded_by_the_rule(url, sent):
    """The URL both wires are handed for a search: urllib3's IDNA (under ``requests``) refused an
    ideographic full stop and fullwidth letters, which the rule maps as a browser does, and fetch too."""
    assert endpoint(url) == sent


def test_with_ascii_host_refuses_a_url_whose_host_it_cannot_place():
    """``urlsplit`` drops a tab from the host: the text holds no host to rewrite, and sent as it
    is, ``requests``' own IDNA would encode it (an endpoint refused so is ``bad_endpoint``)."""
    with pytest.raises(ValueError):
        with_ascii_host("http://b\u00fc\tcher.de/")


def test_a_character_unknown_to_this_pythons_unicode_data_is_named_so(monkeypatch):
    """A character newer than Python's ``unicodedata`` (U+A7C1 on 3.10) has no direction: ``idna``'s
    right-to-left check raised, and the label was refused as mixing right-to-left and left-to-right
    text, which it holds none of. Here ``unicodedata`` is told not to know it, as 3.10's does not."""
    import unicodedata

    import websearch_sync.hostnames as hostnames

    class OlderData:
        def __getattr__(self, name):
            return getattr(unicodedata, name)

        @staticmethod
        def bidirectional(char):
            return "" if char == "\ua7c1" else unicodedata.bidirectional(char)

    monkeypatch.setattr(hostnames, "unicodedata", OlderData())
    monkeypatch.setattr(idna.core, "unicodedata", OlderData())
    hostnames._encoded.cache_clear()
    try:
        assert idna_refusal("\ua7c1.com") == "label 1 holds U+A7C1, unknown to this Python's Unicode data"
    finally:
        hostnames._encoded.cache_clear()


def test_a_character_this_python_knows_is_judged_by_the_rule_on_every_python():
    """U+A7C1 (Unicode 14) is a host name where this Python knows it, and named as unknown where not."""
    import unicodedata

    known = bool(unicodedata.bidirectional("\ua7c1"))
    expected = None if known else "label 1 holds U+A7C1, unknown to this Python's Unicode data"
    assert idna_refusal("\ua7c1.com") == expected
