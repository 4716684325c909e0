"""The contract-suite engine: discover fixture cases, replay them offline through
the real request path, compare with goldens, check the contract's invariants.

A case is ``fixtures/<backend>/<case>.meta.json`` (what to send, what the service
answered, where the recording comes from), an optional body file
``<case>.html`` / ``<case>.json`` and the golden ``<case>.expected.json``.
Replaying uses the ``responses`` library (in the ``test`` extra) to intercept
``requests``: URL, method, query parameters, form/JSON body and headers our
backend sends are asserted against the meta file.

Used by ``contract_tests/`` and by ``websearch-sync verify``.
"""

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from .config import Settings
from .errors import WebSearchError

__all__ = ["Case", "discover", "replay", "outcome_of", "contract_violations", "compare", "write_golden", "load_golden", "CaseResult", "run_case"]

_BODY_SUFFIXES = (".html", ".json", ".txt", ".bin")
_VOLATILE_META = ("latency_ms",)


@dataclass
class Case:
    """One recorded exchange (or chain of exchanges) and its golden."""

    backend: str
    name: str
    meta_path: Path
    meta: Dict[str, Any]

    @property
    def case_id(self) -> str:
        """``<backend>/<case>``."""
        return "%s/%s" % (self.backend, self.name)

    @property
    def folder(self) -> Path:
        """The folder holding the case's files."""
        return self.meta_path.parent

    @property
    def expected_path(self) -> Path:
        """Where the golden lives."""
        return self.folder / (self.name + ".expected.json")

    def exchanges(self) -> List[Dict[str, Any]]:
        """The request/response pairs to replay, in order (may be empty for offline backends)."""
        if "exchanges" in self.meta:
            return list(self.meta["exchanges"])
        if "response" in self.meta:
            return [{"request": self.meta.get("request", {}), "response": self.meta["response"]}]
        return []

    def body_bytes(self, response: Dict[str, Any]) -> bytes:
        """The recorded body of one response (file named by ``body``, else inline ``body_text``)."""
        if response.get("body"):
            return (self.folder / response["body"]).read_bytes()
        return (response.get("body_text") or "").encode("utf-8")


def discover(fixtures_dir: "os.PathLike[str]", backend: Optional[str] = None) -> List[Case]:
    """Every case under ``fixtures_dir`` (optionally one backend's), sorted by id."""
    root = Path(fixtures_dir)
    cases = []
    for meta_path in sorted(root.glob("*/*.meta.json")):
        folder_backend = meta_path.parent.name
        if backend is not None and folder_backend != backend:
            continue
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        name = meta_path.name[: -len(".meta.json")]
        cases.append(Case(backend=meta.get("backend", folder_backend), name=name, meta_path=meta_path, meta=meta))
    return cases


def orphan_files(fixtures_dir: "os.PathLike[str]") -> List[Path]:
    """Body files that no case's meta refers to, and goldens without a meta."""
    root = Path(fixtures_dir)
    referenced = set()
    for case in discover(root):
        referenced.add(case.meta_path)
        referenced.add(case.expected_path)
        for exchange in case.exchanges():
            body = exchange.get("response", {}).get("body")
            if body:
                referenced.add((case.folder / body).resolve())
    orphans = []
    for path in sorted(root.glob("*/*")):
        if path.is_file() and path.name != "README.md" and path.resolve() not in referenced and path not in referenced:
            orphans.append(path)
    return orphans


def _settings_for(case: Case) -> Settings:
    values = dict(case.meta.get("settings") or {})
    return Settings(**values)


def _register(mock: Any, exchange: Dict[str, Any], case: Case) -> None:
    import requests
    from responses import matchers

    request = exchange.get("request") or {}
    response = exchange["response"]
    match = []
    if "query_params" in request:
        match.append(matchers.query_param_matcher(request["query_params"]))
    if "form" in request:
        match.append(matchers.urlencoded_params_matcher(request["form"]))
    if "json" in request:
        match.append(matchers.json_params_matcher(request["json"]))
    if request.get("headers"):
        match.append(matchers.header_matcher(request["headers"]))
    exception = response.get("exception")
    if exception:
        body: Any = getattr(requests.exceptions, exception)("replayed %s" % exception)
    else:
        body = case.body_bytes(response)
    headers = dict(response.get("headers") or {})
    content_type = headers.pop("Content-Type", headers.pop("content-type", None))
    mock.add(
        request.get("method", "GET"),
        request["url"],
        body=body,
        status=response.get("status", 200),
        headers=headers,
        content_type=content_type,
        match=match,
    )


class ReplayMismatch(Exception):
    """The backend sent a request the recording does not describe."""


def replay(case: Case) -> Dict[str, Any]:
    """Run the case's search through ``websearch_sync.search`` with HTTP replayed; return its outcome."""
    import responses

    from .api import search

    meta = case.meta
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        for exchange in case.exchanges():
            _register(mock, exchange, case)
        try:
            result: Any = search(
                meta["query"],
                backend=case.backend,
                max_results=meta.get("max_results"),
                settings=_settings_for(case),
                retries=0,  # one recorded answer per exchange: a replay never retries
                **(meta.get("options") or {}),
            )
        except WebSearchError as error:
            result = error
        unmatched = [c for c in mock.calls if "Connection refused by Responses" in str(c.response)]
        if unmatched:
            raise ReplayMismatch(str(unmatched[0].response))
        expected_calls = len(case.exchanges())
        if len(mock.calls) != expected_calls:
            raise ReplayMismatch("expected %d request(s), the backend sent %d" % (expected_calls, len(mock.calls)))
    return outcome_of(result)


def outcome_of(result: Any) -> Dict[str, Any]:
    """The comparable part of a search result or error (no latency, no messages)."""
    if isinstance(result, WebSearchError):
        error = {"type": result.code, "detail_code": result.detail_code, "retryable": result.retryable}
        if result.status is not None:
            error["status"] = result.status
        return {"error": error}
    outcome: Dict[str, Any] = {"items": result["items"]}
    if result.get("errors"):
        outcome["errors"] = [{k: v for k, v in e.items() if k != "message"} for e in result["errors"]]
    request_id = (result.get("provider_meta") or {}).get("request_id")
    if request_id:
        outcome["request_id"] = request_id
    return outcome


def contract_violations(outcome: Dict[str, Any], *, max_results: int, provider: Optional[str] = None) -> List[str]:
    """What in a success outcome breaks the canonical contract (empty when it holds)."""
    problems = []
    items = outcome.get("items")
    if not isinstance(items, list):
        return ["items is not a list"]
    if len(items) > max_results:
        problems.append("%d items > max_results %d" % (len(items), max_results))
    for position, item in enumerate(items, 1):
        for key in ("title", "url", "snippet", "provider"):
            if not isinstance(item.get(key), str):
                problems.append("item %d: %s is not a string" % (position, key))
        if item.get("rank") != position:
            problems.append("item %d: rank is %r" % (position, item.get("rank")))
        url = item.get("url") or ""
        if not url.startswith(("http://", "https://")):
            problems.append("item %d: url %r is not http(s)" % (position, url))
        for key in ("title", "snippet"):
            text = item.get(key) or ""
            if text != text.strip() or "\n" in text or "  " in text:
                problems.append("item %d: %s is not whitespace-collapsed" % (position, key))
        if provider is not None and item.get("provider") != provider and provider not in (item.get("providers") or []):
            problems.append("item %d: provider %r, expected %r" % (position, item.get("provider"), provider))
    urls = [item.get("url") for item in items]
    if len(set(urls)) != len(urls):
        problems.append("duplicate URLs")
    return problems


def load_golden(case: Case) -> Optional[Dict[str, Any]]:
    """The case's golden, or ``None`` when it has none yet."""
    if not case.expected_path.exists():
        return None
    return json.loads(case.expected_path.read_text(encoding="utf-8"))


def write_golden(case: Case, outcome: Dict[str, Any]) -> None:
    """(Re)write the case's golden from an outcome."""
    case.expected_path.write_text(json.dumps(outcome, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def compare(expected: Any, actual: Any) -> List[str]:
    """A readable diff between two outcomes: items added, removed, changed fields."""
    if expected == actual:
        return []
    lines: List[str] = []
    if "error" in expected or "error" in actual:
        lines.append("expected %s" % json.dumps(expected.get("error") or {"items": len(expected.get("items", []))}, ensure_ascii=False))
        lines.append("got      %s" % json.dumps(actual.get("error") or {"items": len(actual.get("items", []))}, ensure_ascii=False))
        return lines
    old_items = {item["url"]: item for item in expected.get("items", [])}
    new_items = {item["url"]: item for item in actual.get("items", [])}
    for url, item in old_items.items():
        if url not in new_items:
            lines.append("- removed #%s %s  %r" % (item.get("rank"), url, item.get("title")))
    for url, item in new_items.items():
        if url not in old_items:
            lines.append("+ added   #%s %s  %r" % (item.get("rank"), url, item.get("title")))
    for url in old_items:
        if url in new_items and old_items[url] != new_items[url]:
            for key in sorted(set(old_items[url]) | set(new_items[url])):
                before, after = old_items[url].get(key), new_items[url].get(key)
                if before != after:
                    lines.append("~ changed %s %s: %r -> %r" % (url, key, before, after))
    for key in sorted((set(expected) | set(actual)) - {"items"}):
        if expected.get(key) != actual.get(key):
            lines.append("~ %s: %s -> %s" % (key, json.dumps(expected.get(key), ensure_ascii=False), json.dumps(actual.get(key), ensure_ascii=False)))
    return lines or ["outcomes differ"]


@dataclass
class CaseResult:
    """The verdict on one case: ``PASS``, ``DRIFT`` (differs from the golden),
    ``NEW`` (no golden yet) or ``ERROR`` (could not replay / broke the contract)."""

    case: Case
    status: str
    diff: List[str] = field(default_factory=list)
    outcome: Optional[Dict[str, Any]] = None


def run_case(case: Case) -> CaseResult:
    """Replay one case and judge it against its golden and the contract."""
    try:
        outcome = replay(case)
    except ReplayMismatch as exc:
        return CaseResult(case, "ERROR", ["request mismatch: " + str(exc).strip().splitlines()[0]] + str(exc).strip().splitlines()[1:8])
    if "items" in outcome:
        problems = contract_violations(outcome, max_results=case.meta.get("max_results") or 5, provider=case.backend)
        if problems:
            return CaseResult(case, "ERROR", ["contract violated: " + p for p in problems], outcome)
    golden = load_golden(case)
    if golden is None:
        return CaseResult(case, "NEW", ["no golden: %s" % case.expected_path.name], outcome)
    diff = compare(golden, outcome)
    return CaseResult(case, "DRIFT" if diff else "PASS", diff, outcome)
