"""Registered backends as the tests see them: what a backend declares (its settings, its
secrets, where its requests go) and what was recorded for it under ``fixtures/<name>/``.

Shared by the conformance suite (``tests/conformance/``), the fault lab
(``tests/reliability/faultlab.py``) and the secret-leak tests, so that "a dummy
configuration for backend X" and "X's best recorded answer" mean one thing everywhere.
"""

import contextlib
import functools
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional, Union

import responses

import websearch_sync as ws
from websearch_sync.contract.cases import Case, discover, load_golden
from websearch_sync.engine import registry
from websearch_sync.engine.base import Backend
from websearch_sync.secrets import is_secret_name

__all__ = [
    "FIXTURES",
    "registered",
    "Recorded",
    "network_backends",
    "secret_settings",
    "dummy_config",
    "declared_endpoint",
    "recorded_exchanges",
    "recorded_success",
    "env_for",
    "recorded_json",
    "replay_search",
    "web_cases",
    "fixture_cases",
]

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


@contextlib.contextmanager
def registered(*classes: type[Backend]) -> Iterator[None]:
    """``classes`` registered as backends within the block (a test's plugins), unregistered after it."""
    for cls in classes:
        registry.register(cls)
    try:
        yield
    finally:
        for cls in classes:
            registry.unregister(cls.name)


def project_backends() -> list[str]:
    """The registered backends this project ships (defined in ``websearch_sync``): what the
    sweeping tests cover. A third-party plugin installed in the same environment registers
    too, but its fixtures, docs rows and dummy settings are its own: it runs the conformance
    kit on itself (docs/backends.md), never inside this project's suite."""
    return [
        name
        for name in registry.backend_names()
        if registry.backend_class(name).__module__.startswith("websearch_sync.")
    ]


def network_backends() -> list[str]:
    """Every backend of the project that sends requests (kind other than ``offline``)."""
    return [name for name in project_backends() if registry.backend_class(name).kind != "offline"]


def env_vars(cls: type[Backend]) -> dict[str, str]:
    """``{setting: ENV_VAR}`` of the settings ``cls`` declares with an environment variable."""
    return {s.name: s.env for s in cls.declared_settings() if s.env}


def required(cls: type[Backend]) -> list[str]:
    """The settings ``cls`` cannot search without, in declaration order."""
    return [s.name for s in cls.declared_settings() if s.required]


def secret_settings(cls: type[Backend]) -> list[str]:
    """The secret provider settings of a backend class (its keys, and header settings whose values are secret)."""
    return sorted(s.name for s in cls.declared_settings() if s.secret)


def dummy_config(cls: type[Backend], url: str, secret: Union[str, Mapping[str, str]]) -> dict[str, Any]:
    """Provider settings that make ``cls`` usable: every required and every secret setting.

    A secret setting gets ``secret`` (or ``secret[setting]``), a settings of extra headers a
    mapping holding it as a header value; a URL setting gets ``url``; anything else ``"lab"``.
    """
    config: dict[str, Any] = {}
    for key in sorted(set(required(cls)) | set(secret_settings(cls))):
        if key.endswith("headers"):  # extra headers whose values are secrets (the service gateway)
            config[key] = {"X-Lab-Secret": secret if isinstance(secret, str) else secret[key]}
        elif is_secret_name(key):
            config[key] = secret if isinstance(secret, str) else secret[key]
        elif key.endswith("url"):
            config[key] = url
        else:
            config[key] = "lab"
    return config


def env_for(cls: type[Backend], config: Mapping[str, Any]) -> dict[str, str]:
    """The environment variables that give ``config`` (header mappings as JSON objects)."""
    env = {}
    for key, value in config.items():
        env[cls.setting(key).env] = json.dumps(value) if isinstance(value, dict) else str(value)
    return env


def declared_endpoint(
    cls: type[Backend], config: Mapping[str, Any], endpoints: Optional[Mapping[str, str]] = None
) -> str:
    """Where the declaration says requests go, for provider settings ``config``.

    ``Settings.endpoints[name]`` if given; a required ``url`` setting as it is (a gateway);
    else the ``base_url`` setting or ``default_base_url`` plus ``endpoint_path``; else
    ``default_endpoint``.
    """
    if endpoints and endpoints.get(cls.name):
        return endpoints[cls.name]
    if "url" in required(cls):
        return config["url"]
    base = config.get("base_url") or getattr(cls, "default_base_url", None)
    if base:
        return str(base).rstrip("/") + getattr(cls, "endpoint_path", "")
    return cls.default_endpoint or ""


@dataclass
class Recorded:
    """One recorded single-exchange case of a backend: what was sent, what came back, the golden."""

    case: Case
    request: dict[str, Any]
    response: dict[str, Any]
    golden: dict[str, Any]

    @functools.cached_property
    def body(self) -> bytes:
        """The recorded body (empty when none was recorded); read once."""
        return (
            self.case.body_bytes(self.response)
            if (self.response.get("body") or self.response.get("body_text"))
            else b""
        )

    @property
    def content_type(self) -> str:
        """The recorded Content-Type (``text/html; charset=utf-8`` when none was recorded)."""
        headers = {k.lower(): v for k, v in (self.response.get("headers") or {}).items()}
        return headers.get("content-type", "text/html; charset=utf-8")

    @property
    def error(self) -> dict[str, Any]:
        """The golden's error (empty for a success)."""
        return self.golden.get("error") or {}


def fixture_cases(name: str) -> list[Case]:
    """``discover(FIXTURES, name)``, from one reading of every case per process: each of the
    16 backends' questions read all 160 meta files again (at collection, in every worker, 38
    times: 6,080 meta files parsed and checked). The recordings are not to be changed by their
    readers."""
    return [case for case in _fixture_cases() if case.backend == name]


@functools.cache
def _fixture_cases() -> tuple[Case, ...]:
    return tuple(discover(FIXTURES))


def recorded_exchanges(name: str) -> list[Recorded]:
    """The backend's readable web cases of exactly one recorded HTTP exchange (transport failures
    excluded; a news, image or video case is another engine's, of the same name). Read once per
    process (the conformance tests of each backend asked again, each reading every case of it):
    the recordings are not to be changed by their readers."""
    return list(_recorded_exchanges(name))


@functools.cache
def _recorded_exchanges(name: str) -> tuple[Recorded, ...]:
    found = []
    for case in fixture_cases(name):
        if case.problem or len(case.exchanges()) != 1 or (case.meta.get("vertical") or "web") != "web":
            continue
        exchange = case.exchanges()[0]
        response = exchange.get("response") or {}
        if response.get("status") is None:  # a recorded connection failure or timeout
            continue
        found.append(Recorded(case, exchange.get("request") or {}, response, load_golden(case) or {}))
    return tuple(found)


def recorded_success(name: str) -> Recorded:
    """The backend's best recorded success: HTTP 200 with items, a real recording before a
    synthetic one, then the most items. ``LookupError`` when there is none."""
    best = None
    for recorded in recorded_exchanges(name):
        if recorded.response.get("status") != 200 or not recorded.body or not recorded.golden.get("items"):
            continue
        synthetic = (recorded.case.meta.get("provenance") or {}).get("status") == "synthetic"
        rank = (not synthetic, len(recorded.golden["items"]), recorded.case.name)
        if best is None or rank > best[0]:
            best = (rank, recorded)
    if best is None:
        raise LookupError("fixtures/%s has no recorded success with items: the tests need one" % name)
    return best[1]


def recorded_json(name: str, file: str) -> Any:
    """A recorded JSON body of ``fixtures/<name>/<file>``, parsed (tests edit copies of real answers)."""
    return json.loads((FIXTURES / name / file).read_text(encoding="utf-8"))


def replay_search(
    backend: str,
    url: str,
    body: Any,
    *,
    status: int = 200,
    headers: Optional[Mapping[str, str]] = None,
    content_type: str = "application/json",
    query: str = "q",
    settings: Optional[ws.Settings] = None,
    client: Optional[ws.SearchClient] = None,
    extra: Iterable[Callable[[Any], None]] = (),
    **options: Any,
) -> tuple[Any, list[Any]]:
    """One search of ``backend`` against one replayed answer at ``url`` (GET or POST): ``(result or error, calls)``.

    ``body`` is bytes, text, an exception to raise, or JSON data; ``extra`` registers more answers
    on the mock. Through ``client`` if given, else ``websearch_sync.search`` with ``settings``
    and no retries (unless ``retries`` is given).
    """
    payload = body if isinstance(body, (bytes, str, BaseException)) else json.dumps(body, ensure_ascii=False)
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        for method in ("GET", "POST"):
            mock.add(method, url, body=payload, status=status, headers=dict(headers or {}), content_type=content_type)
        for register in extra:
            register(mock)
        try:
            if client is not None:
                outcome = client.search(query, backend=backend, **options)
            else:
                outcome = ws.search(
                    query, backend=backend, settings=settings or ws.Settings(), **dict({"retries": 0}, **options)
                )
        except ws.WebSearchError as error:
            outcome = error
        return outcome, list(mock.calls)


def web_cases(name: str, golden_marker: str) -> Iterator[tuple[str, str, str, Optional[str]]]:
    """``(case id, url, body text, Location)`` of ``name``'s single-answer web cases whose golden
    holds ``golden_marker`` (``'"captcha_required"'``: its recorded bot walls). Read once per
    process and question: several test modules build their parameters from them when they are
    collected, in every worker (72 asks, each reading every case's meta file, golden and body)."""
    return iter(_web_cases(name, golden_marker))


@functools.cache
def _web_cases(name: str, golden_marker: str) -> tuple[tuple[str, str, str, Optional[str]], ...]:
    found = []
    for case in fixture_cases(name):
        if case.meta.get("vertical"):
            continue
        golden = case.meta_path.with_name(case.name + ".expected.json").read_text(encoding="utf-8")
        response = case.meta.get("response")  # absent in a case of several exchanges (pages 1 and 2)
        if golden_marker not in golden or response is None:
            continue
        body = response.get("body")
        text = (FIXTURES / name / body).read_text(encoding="utf-8") if body else response.get("body_text", "")
        found.append((case.case_id, case.meta["request"]["url"], text, (response.get("headers") or {}).get("Location")))
    return tuple(found)
