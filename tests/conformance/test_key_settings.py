"""Conformance, keys given in code: read as the environment reads them.

``Settings.from_env`` strips each variable, so ``BRAVE_API_KEY="$(cat key.txt)"`` or a key pasted
with its newline works; the same key given in code (``Settings(providers=...)``, read from a
file with ``open(...).read()``) used to go out as ``Bearer <key>\\n`` (refused as a header) or, a
key of spaces, as ``Bearer   `` (refused by the service as a wrong key).
"""

import pytest
from backend_kit import env_for
from test_conformance import KEYED, QUERY, REQUIRED, cls_of, config_of

import websearch_sync as ws
from websearch_sync.models import SearchParams
from websearch_sync.secrets import is_secret_name

REQUIRED_KEYS = [(name, key) for name, key in REQUIRED if is_secret_name(key)]


def padded(config):
    """``config`` with every text value wrapped in the blanks a pasted or file-read value brings."""
    return {key: (" %s\n" % value if isinstance(value, str) else value) for key, value in config.items()}


@pytest.mark.parametrize("name", KEYED)
def test_a_key_given_in_code_with_blanks_around_is_sent_as_the_environment_sends_it(name):
    cls, config = cls_of(name), padded(config_of(name))
    in_code = cls(ws.Settings(providers={name: config})).build_request(SearchParams(QUERY, 5))
    from_env = cls(ws.Settings.from_env(environ=env_for(cls, config))).build_request(SearchParams(QUERY, 5))
    assert (in_code.url, in_code.headers) == (from_env.url, from_env.headers)
    assert all(value == value.strip() for value in in_code.headers.values())


@pytest.mark.parametrize(("name", "key"), REQUIRED_KEYS)
def test_a_key_of_blanks_given_in_code_is_a_missing_key(name, key):
    settings = ws.Settings(providers={name: dict(config_of(name), **{key: " \n"})})
    with pytest.raises(ws.AuthError) as caught:
        ws.search(QUERY, backend=name, settings=settings)
    assert caught.value.detail_code == "missing_api_key" and cls_of(name).setting(key).env in caught.value.message
