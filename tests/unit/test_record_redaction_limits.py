"""Limits of ``record``'s redaction that docs/contract.md listed, closed one by one: a short secret
as an HTML attribute's value, in HTML's other character references, as a URL's path segment, inside
compressed JSON, and the length rule for a short secret in prose."""

import time

import pytest

from websearch_sync.contract import recording

SHORT = "ab12x"  # a session token of 5 characters, sent under a credential's name


# -- 1. an HTML attribute's value, HTML's other character references ------------------------------


@pytest.mark.parametrize(
    "attribute",
    ['value="%s"', "value='%s'", "value=%s>", 'data-key = "%s"', "value=%s data-x=1", 'value=\\"%s\\"'],
)
def test_a_short_secret_as_an_html_attribute_value_is_redacted(attribute):
    """``<input value="ab12x">``: the page echoes the token as an attribute's whole value."""
    redactor = recording.Redactor([], whole=[SHORT])
    page = ("<input %s <p>next</p>" % (attribute % SHORT)).encode()
    cleaned = redactor.body(page, "body")
    assert SHORT.encode() not in cleaned
    assert cleaned == page.replace(SHORT.encode(), b"<redacted>")


def test_a_short_secret_inside_an_attribute_value_of_more_is_kept():
    """Only the attribute's whole value: ``title="the ab12x key"`` is prose."""
    redactor = recording.Redactor([], whole=[SHORT])
    page = b'<a title="the ab12x key" class="ab12xy">x</a>'
    assert redactor.body(page, "body") == page


@pytest.mark.parametrize(
    "spelt",
    [
        "tok&sol;en&plus;9f3a77c1",  # HTML5's named references of ASCII characters
        "tok&#47en+9f3a77c1",  # a numeric reference without its ';' (what follows cannot extend it)
        "tok/en&#x2b&#57;f3a77c1",
        "tok&#x2F;en&#43;9f3a77c1",
    ],
)
def test_html_references_of_every_kind_are_redacted(spelt):
    redactor = recording.Redactor(["tok/en+9f3a77c1"])
    assert redactor.text('<a href="/v2?t=%s&amp;p=2">' % spelt, "body") == '<a href="/v2?t=<redacted>&amp;p=2">'


def test_a_reference_without_its_semicolon_stops_where_its_number_does():
    """``&#471`` is another character than ``&#47`` followed by ``1``: no secret there."""
    redactor = recording.Redactor(["a/1bcd"])
    assert redactor.text("a&#471bcd", "t") == "a&#471bcd"
    assert redactor.text("a&#x2f1bcd", "t") == "a&#x2f1bcd"
    assert redactor.text("a&#47 1bcd", "t") == "a&#47 1bcd"
    assert redactor.text("[a&#x2f;1bcd]", "t") == "[<redacted>]"


ADVERSARIAL = [
    "=" * 4096,
    "= \t" * 4096,
    "=ab12" * 4096,
    "='ab12x" * 4096,
    "&#" + "0" * 16384,
    "&#x" + "0" * 16384,
    "&amp" * 4096,
    "&#47" * 4096,
    "/" * 16384,
    "%2F" * 4096,
    "/ab12" * 4096,
]


@pytest.mark.parametrize("text", ADVERSARIAL, ids=range(len(ADVERSARIAL)))
def test_redacting_takes_linear_time(text):
    """The redactor's patterns read a recorded body (upstream input): 16 times the text (from
    64 KB and more) takes about 16 times as long, not 256 times (the best of three timings of each size, in CPU time:
    other processes' load does not count)."""
    redactor = recording.Redactor(["tok/en+9f3a77c1", "a&b&c&d&e"], whole=[SHORT, "x/y=z"])

    def best(sample: str) -> float:
        timings = []
        for _ in range(3):
            started = time.process_time()
            redactor.text(sample, "t")
            timings.append(time.process_time() - started)
        return min(timings)

    small, large = best(text * 4), best(text * 64)
    assert large < max(small, 2e-3) * 64, (small, large)  # quadratic: 256 times


# -- 2. a URL's path segment ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "echo",
    [
        '<a href="https://api.example/v1/%s/search?q=1">',
        "<a href=/v1/%s>",
        '{"next": "https:\\/\\/api.example\\/v1\\/%s\\/search"}',
        '<a href="/go?to=%%2Fv1%%2F%s%%2Fsearch&amp;p=2">',
        "see https://api.example/v1/%s#top",
        '"/v1/%s"',
    ],
)
def test_a_short_secret_as_a_url_path_segment_is_redacted(echo):
    """The key the backend put in its path, echoed in the answer's links: a short one stood there whole."""
    redactor = recording.Redactor([], whole=[SHORT])
    body = (echo % SHORT).encode()
    assert redactor.body(body, "body") == (echo % "<redacted>").encode()
    location = "https://api.example/v1/%s/search" % SHORT
    assert redactor.header("Location", location, "h") == "https://api.example/v1/<redacted>/search"


def test_a_path_segment_holding_more_than_a_short_secret_is_kept():
    redactor = recording.Redactor([], whole=[SHORT])
    for text in ("/v1/%sy/s" % SHORT, "/v1/x%s/s" % SHORT, "/v1/%s.html" % SHORT, "and/or %s" % SHORT):
        assert redactor.text(text, "t") == text
