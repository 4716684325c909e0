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


@pytest.mark.parametrize("host", ["xn--bcher-kva.de", "XN--BCHER-KVA.de", "b\u00fccher.de"])
def test_read_back_takes_punycode_in_either_case(host):
    assert idna_refusal(host, read_back=True) is None
