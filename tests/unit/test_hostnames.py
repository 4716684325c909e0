"""A host name IDNA cannot encode is refused in the library's words, the same on every Python:
the codec's own changed in 3.13 ("label empty or too long" became "'idna' codec can't encode
character '\\x2e' in position 2: label empty"), and messages that passed them through changed with it."""

import pytest

from websearch_sync.hostnames import idna_refusal

REFUSED = [
    ("a..b.com", "label 2 is empty"),
    ("...", "label 1 is empty"),
    ("a.com..", "label 3 is empty"),  # one trailing dot names the root; a second is an empty label
    ("a.\u3002b.com", "label 2 is empty"),  # an ideographic full stop separates labels too
    ("\u00ad.com", "label 1 is empty"),  # a soft hyphen, which nameprep drops
    ("a" * 64 + ".com", "label 1 is 64 characters long, over 63"),
    ("ok." + "a" * 300, "label 2 is 300 characters long, over 63"),
    ("\u00fc" * 70 + ".de", "label 1 is 76 characters long once IDNA-encoded, over 63"),
    ("ab\udc80.com", "label 1 holds U+DC80, a character IDNA refuses"),
    ("\u2ff0x.com", "label 1 holds U+2FF0, a character IDNA refuses"),
    ("\u05d0a.com", "label 1 mixes right-to-left and left-to-right characters"),
    ("xn--b\u00fccher.de", "label 1 starts with xn-- but is not ASCII"),
    # right-to-left without a left-to-right character, but a digit last: nameprep's bidi rule 3, no mixing
    ("\u05d01.com", "label 1 holds right-to-left characters but does not start and end with one"),
    ("1\u0627.com", "label 1 holds right-to-left characters but does not start and end with one"),
]


@pytest.mark.parametrize(("host", "reason"), REFUSED)
def test_a_host_idna_refuses_is_refused_naming_the_label_and_why(host, reason):
    with pytest.raises(UnicodeError):
        host.encode("idna")  # the codec refuses it: the reason is only worded here
    assert idna_refusal(host) == reason


@pytest.mark.parametrize("host", ["example.com", "example.com.", "b\u00fccher.de", "xn--zz.com", "a" * 63 + ".com"])
def test_a_host_idna_encodes_is_not_refused(host):
    assert idna_refusal(host) is None


@pytest.mark.parametrize(
    ("host", "reason"),
    [
        ("xn--zz.com", "label 1 starts with xn-- but is no punycode"),
        ("XN--ZZ.com", "label 1 starts with xn-- but is no punycode"),
        ("b\u00fccher.xn--zz", "label 2 starts with xn-- but is no punycode"),
    ],
)
def test_read_back_refuses_a_label_xn_that_is_no_punycode(host, reason):
    assert idna_refusal(host, read_back=True) == reason


@pytest.mark.parametrize(
    ("host", "reason"),
    [
        # U+FE52 (small full stop) and U+2024 (one dot leader) are a "." once nameprep maps them:
        # the label they sit in encodes to two, and the xn-- one is named in the mapped name
        ("a\ufe52xn--zz.com", "label 2 starts with xn-- but is no punycode"),
        ("a\u2024xn--zz.com", "label 2 starts with xn-- but is no punycode"),
        ("a\ufe52xn--zz.", "label 2 starts with xn-- but is no punycode"),
    ],
)
def test_read_back_names_an_xn_label_hidden_behind_a_character_mapped_to_a_dot(host, reason):
    assert host.encode("idna").lower() == host.replace("\ufe52", ".").replace("\u2024", ".").encode()
    assert idna_refusal(host, read_back=True) == reason


@pytest.mark.parametrize(
    ("host", "reason"),
    [
        ("a\ufe52\ufe52b.com", "label 2 is empty"),  # encodes to a..b.com
        ("\ufe52\ufe52\ufe52", "label 1 is empty"),  # encodes to ...
        ("a\u2025b.com", "label 2 is empty"),  # a two dot leader, NFKC ".."
        ("a.com\ufe52\ufe52", "label 3 is empty"),  # a.com..: one trailing dot names the root, not two
    ],
)
def test_read_back_refuses_an_empty_label_hidden_in_a_character_mapped_to_dots(host, reason):
    host.encode("idna")  # the codec encodes it, empty labels and all
    assert idna_refusal(host, read_back=True) == reason


@pytest.mark.parametrize("host", ["example.com.", "a\ufe52", "b\u00fccher.de\ufe52"])
def test_read_back_takes_one_trailing_dot_for_the_root(host):
    assert idna_refusal(host, read_back=True) is None


@pytest.mark.parametrize("host", ["xn--bcher-kva.de", "XN--BCHER-KVA.de", "b\u00fccher.de"])
def test_read_back_takes_punycode_in_either_case(host):
    assert idna_refusal(host, read_back=True) is None
