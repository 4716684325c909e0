"""A question's failure read back from Redis is untrusted data (``client/state/failures.py``):
anything but a record of the expected shape is no record, and the waiter asks itself."""

import json

import pytest

from websearch_sync.client.state.failures import failure_record, read_failure
from websearch_sync.errors import AuthError, WebBlocked, WebProviderError, error_from_code
from websearch_sync.net.status import MAX_RETRY_AFTER_S


def _record(**change):
    form = {"type": "AuthError", "message": "refused", "detail_code": "http_401", "retryable": False}
    form.update(change)
    return json.dumps({"error": form}).encode()


def test_a_record_written_is_read_back_as_the_error_with_its_fields():
    wall = WebBlocked("a captcha", provider="bing", detail_code="captcha_required", status=200, hint="slow down")
    wall.errors = [WebProviderError("gone", provider="brave", detail_code="http_404", status=404)]
    got = read_failure(failure_record(wall, []).encode())
    assert repr(got) == repr(wall)


@pytest.mark.parametrize(
    "value",
    [
        b"not json",
        b"[1, 2]",
        _record(type="SystemExit"),  # no error code of the vocabulary
        _record(type="WebSearchError"),
        _record(message=7),
        _record(message="x" * 2001),
        _record(detail_code="HTTP 401; rm -rf"),
        _record(retryable="yes"),
        _record(retry_after=-1),
        _record(retry_after=-(10**400)),
        _record(page=True),
        _record(errors=[{"type": "Nope", "message": "m", "retryable": False}]),
        _record(errors=[json.loads(_record())["error"]] * 17),
    ],
)
def test_a_record_of_another_shape_is_no_record(value):
    assert read_failure(value) is None


def test_text_is_read_without_control_characters():
    got = read_failure(_record(message="refused\x1b[2J", hint="\x07ring", provider="brave\x00"))
    assert isinstance(got, AuthError)
    assert (got.message, got.hint, got.provider) == ("refused [2J", " ring", "brave ")


def test_a_wait_no_float_holds_is_read_as_the_longest_wait():
    """A JSON integer of hundreds of digits is no float (``OverflowError``, out of the waiter's search):
    a record's wait past the longest is cut to it, whatever its size."""
    got = read_failure(_record(type="WebBlocked", detail_code="http_429", retry_after=10**400))
    assert isinstance(got, WebBlocked) and got.retry_after == MAX_RETRY_AFTER_S


@pytest.mark.parametrize("secret", ['pa"ss"word', "back\\slash\\key", "tab\tsecret", "bell\x07secret"])
def test_a_secret_that_json_escapes_is_redacted_from_every_text_field(secret):
    # redacting the JSON text missed a secret whose characters JSON escapes: only the message was
    # redacted before it was written; the hint, url and provider went out as they came
    attached = WebProviderError("gone", provider="p-" + secret, detail_code="http_404", hint="use " + secret + " later")
    error = error_from_code(
        "WebBlocked",
        "blocked with " + secret,
        provider="bing " + secret,
        detail_code="captcha_required",
        hint="the key " + secret + " is spent",
        url="https://example.com/?k=" + secret,
        engine="e " + secret,
        errors=[attached],
    )
    error.stale_words = "with " + secret
    text = failure_record(error, [secret])
    escaped = json.dumps(secret, ensure_ascii=False)[1:-1]
    assert escaped not in text and secret not in text
    data = json.loads(text)["error"]
    assert data["hint"] == "the key *** is spent"
    assert data["url"] == "https://example.com/?k=***"
    assert data["provider"] == "bing ***"
    assert data["engine"] == "e ***"
    assert data["message"] == "blocked with ***"
    assert data["stale_words"] == "with ***"
    assert data["errors"][0]["provider"] == "p-***"
    assert data["errors"][0]["hint"] == "use *** later"
    got = read_failure(text.encode())
    assert secret not in repr(got) and got.hint == "the key *** is spent"


def test_stale_words_in_a_phrasing_outside_the_vocabulary_are_not_aged():
    message = "aa is cooling down after http_429 until 10:00:00 (25 s left); not contacting it"
    form = {"type": "WebBlocked", "detail_code": "http_429", "retryable": True, "retry_after": 25, "message": message}
    good = read_failure(_record(**form, stale_words="(25 s left)", stale_phrasing="left"))
    assert (good.stale_words, good.stale_phrasing) == ("(25 s left)", "left")
    bad = read_failure(_record(**form, stale_words="(25 s left)", stale_phrasing="%s%s%n"))
    assert bad.stale_words is None and bad.stale_phrasing is None and bad.retry_after == 25.0


def test_a_record_of_thousands_of_failed_engines_counts_those_it_leaves_out():
    """The error of a SearXNG call whose 3,000 engines (invented) failed lists 20 of them and the first
    of each other kind, counting the others (``engines_not_listed``); its record, which holds at most
    16 attached failures, counts those it leaves out too: read back, it lost the count."""
    from websearch_sync.backends.searxng_failures import engine_failure, no_results_because

    entries = [["engine%d" % n, "timeout"] for n in range(3000)] + [["lastengine", "CAPTCHA"]]
    error = no_results_because([engine_failure(entry, "searxng", []) for entry in entries], 200, "searxng")
    assert len(error.errors) + error.engines_not_listed == 3001
    got = read_failure(failure_record(error, []).encode())
    assert len(got.errors) == 16 and got.engines_not_listed == 3001 - 16
    assert got.to_dict()["engines_not_listed"] == 3001 - 16
