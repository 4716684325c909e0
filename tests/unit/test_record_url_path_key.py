"""A key a backend sends in its URL's path (no field names it, so only the settings' value finds it)
is redacted at record, ``https://pk.example/v1/<redacted>/search``. On replay the backend puts the
placeholder setting in its path as it put the key, quoted (``%3Credacted%3E``): compared as it came,
the address never matched, and every such case was an ``ERROR`` on ``verify``."""

import json
from urllib.parse import quote

import pytest
from recorded_exchanges import json_exchange

from websearch_sync.backends import JsonApiEngine, RequestSpec, SearchParams, register
from websearch_sync.config import Settings
from websearch_sync.contract import recording
from websearch_sync.contract.cases import load_case, run_case
from websearch_sync.contract.recording import record_case
from websearch_sync.contract.replay import same_address
from websearch_sync.engine.setting import Setting


class PathKeyEngine(JsonApiEngine):
    """Sends its key as a segment of its URL's path."""

    name = "path_key"
    summary = "a key in the URL's path"
    default_endpoint = "https://pk.example/v1"
    provider_settings = (Setting("api_key", env="PATH_KEY_API_KEY", required=True),)
    results_at = "hits"
    result_fields = {"title": "name", "url": "link"}

    def build_request(self, params: SearchParams) -> RequestSpec:
        """``/v1/<key>/search?q=...``."""
        key = quote(str(self.config["api_key"]), safe="")
        return RequestSpec("GET", "%s/%s/search" % (self.endpoint_url(), key), params={"q": params.query})


@pytest.mark.parametrize("key", ["pathkey-9f3a77c1", "a/b+c key-9f3a"])  # the second quoted in the path
def test_a_recorded_case_with_a_key_in_its_path_replays(tmp_path, monkeypatch, key):
    register(PathKeyEngine)  # undone after the test
    url = "https://pk.example/v1/%s/search?q=rust" % quote(key, safe="")
    answer = {"hits": [{"name": "Rust", "link": "https://rust.example/"}]}
    exchange = json_exchange(url, answer)
    monkeypatch.setattr(recording, "_capture", lambda *args: ({"items": []}, [exchange]))
    settings = Settings(providers={"path_key": {"api_key": key}})
    result = record_case("path_key", "rust", fixtures_dir=tmp_path, settings=settings)
    assert result.verdict.status == "NEW", result.verdict.diff
    meta_path = tmp_path / "path_key" / "rust.meta.json"
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    assert meta["request"]["url"] == "https://pk.example/v1/<redacted>/search"
    assert run_case(load_case(meta_path)).status == "PASS"  # verify, as CI runs it


def test_the_placeholder_stands_for_one_non_empty_value_and_the_rest_of_the_address_counts():
    recorded = "https://pk.example/v1/<redacted>/search"
    assert same_address(recorded, "https://pk.example/v1/%3Credacted%3E/search?q=x")
    assert same_address(recorded, "https://PK.example/v1/a%2Fb/search")
    assert not same_address(recorded, "https://pk.example/v1//search")
    assert not same_address(recorded, "https://pk.example/v2/k/search")
    assert not same_address(recorded, "https://other.example/v1/k/search")
    assert not same_address("https://pk.example/v1/a%2Fb", "https://pk.example/v1/a/b")  # no placeholder: as sent
