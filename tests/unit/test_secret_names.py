"""One credential-name rule: settings, redirects, recorded fixtures and the fetch service's
URL check all ask :func:`websearch_sync.secrets.is_secret_name` (issue 22 point 4)."""

import pytest

from websearch_sync.reader.service import carries_credentials
from websearch_sync.secrets import is_secret_name

#: Names the three former lists disagreed on, and the plain names none of them may take for secrets.
SECRET = [
    "jwt",
    "sessionid",
    "session_id",
    "keys",
    "api_keys",
    "passwords",
    "access_tokens",
    "Proxy-Authorization",
    "Cookie",
    "X-Subscription-Token",
    "apiKey",
    "credentials",
    "PHPSESSID",
    "sig",
]
PLAIN = ["q", "keyword", "keywords", "max_results", "page", "Accept", "User-Agent", "Referer", "kl", "s", "dc"]


@pytest.mark.parametrize("name", SECRET)
def test_credential_names_are_secret_everywhere(name):
    assert is_secret_name(name)
    assert carries_credentials("https://example.com/a?%s=1" % name)


@pytest.mark.parametrize("name", PLAIN)
def test_plain_names_are_not(name):
    assert not is_secret_name(name)
    assert not carries_credentials("https://example.com/a?%s=1" % name)


def test_a_name_is_judged_once_however_often_it_is_asked(monkeypatch):
    """Every request asks the rule of the same few names: the verdict is remembered by name."""
    from websearch_sync import secrets

    splits = []
    pattern = secrets._NON_WORD

    class CountingPattern:
        def split(self, text):
            splits.append(text)
            return pattern.split(text)

    monkeypatch.setattr(secrets, "_NON_WORD", CountingPattern())
    assert all(is_secret_name("X-Judged-Once-Token") for _ in range(5))
    assert not any(is_secret_name("judged_once_page") for _ in range(5))
    assert len(splits) == 2


def test_redaction_builds_its_pattern_once_for_the_same_secrets(monkeypatch):
    """A search redacts every text field of every item with the same secrets: the pattern for
    them is built once, and still redacts the longest first and leaves short values alone."""
    import re

    from websearch_sync.secrets import redact

    compiled = []
    compile_ = re.compile
    monkeypatch.setattr(re, "compile", lambda pattern, *args: compiled.append(pattern) or compile_(pattern, *args))
    secrets = ["key-once-0123", "key-once-0123-longer", "abc", None]
    texts = ["a key-once-0123-longer b", "key-once-0123!", "abc stays", "nothing here", "key-once-0123"]
    assert [redact(text, secrets) for text in texts] == ["a *** b", "***!", "abc stays", "nothing here", "***"]
    assert [redact(text, iter(secrets)) for text in texts[:2]] == ["a *** b", "***!"]
    assert len(compiled) == 1
