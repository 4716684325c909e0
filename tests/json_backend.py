"""``JsonTestBackend``: a minimal JSON backend for tests of the shared HTTP path (the ``testjson``
and ``json_backends`` fixtures of ``conftest.py``, and processes the tests start).

Apart from ``conftest.py`` so that the xdist controller, which imports the conftest but runs no
test, does not import the library for it."""

from websearch_sync.engine.base import Backend, dig, json_body
from websearch_sync.models import ParseResult
from websearch_sync.net.transport import RequestSpec


class JsonTestBackend(Backend):
    """A minimal JSON backend used to exercise the shared HTTP path."""

    name = "testjson"
    kind = "json"
    summary = "test-only JSON backend"
    env_vars = {"api_key": "TESTJSON_API_KEY"}

    def build_request(self, params):
        headers = {"Authorization": "Bearer %s" % self.config["api_key"]} if self.config.get("api_key") else {}
        return RequestSpec("GET", self.endpoint_url(), params={"q": params.full_query}, headers=headers)

    def parse(self, response, params):
        data = json_body(response, self.name)
        return ParseResult(items=[dict(r) for r in dig(data, ["results"], self.name)])
