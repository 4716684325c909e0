"""The contract-suite engine: discover fixture cases, replay them offline through
the real request path, compare with goldens, check the contract's invariants.

A case is ``fixtures/<backend>/<case>.meta.json`` (what to send, what the service
answered, where the recording comes from), an optional body file
``<case>.html`` / ``<case>.json`` and the golden ``<case>.expected.json``.
Replaying uses the ``responses`` library (in the ``test`` extra) to intercept
``requests``: URL, method, query parameters, form/JSON body and headers our
backend sends are asserted against the meta file.

Used by ``contract_tests/``, by ``websearch-sync verify`` and ``record``.

Recorded secrets: a request value stored as ``<redacted>`` (or containing it, as in
``Bearer <redacted>``) matches any non-empty value in its place when replaying,
so a case recorded with a real API key replays without it.
"""

import json
import os
import re
from dataclasses import dataclass, field
from itertools import groupby
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple
from urllib.parse import parse_qsl, urlsplit

from ..client import SearchClient
from ..config import Settings
from ..errors import InvalidInput, WebSearchError

__all__ = [
    "PLACEHOLDER",
    "STATUSES",
    "Case",
    "ReplayMismatch",
    "discover",
    "load_case",
    "orphan_files",
    "require_responses",
    "replay",
    "outcome_of",
    "contract_violations",
    "compare",
    "describe",
    "query_params",
    "write_golden",
    "load_golden",
    "CaseResult",
    "run_case",
    "run_cases",
    "count_statuses",
]

#: What a redacted secret is stored as; matches any non-empty value on replay.
PLACEHOLDER = "<redacted>"
#: The verdicts of :func:`run_case`, best first.
STATUSES = ("PASS", "NEW", "DRIFT", "ERROR")

_BODY_SUFFIXES = (".html", ".json", ".txt", ".bin")
_VOLATILE_META = ("latency_ms",)
_SHOWN_CHARS = 160


@dataclass
class Case:
    """One recorded exchange (or chain of exchanges) and its golden."""

    backend: str
    name: str
    meta_path: Path
    meta: Dict[str, Any]
    problem: Optional[str] = None  #: why the meta file could not be read, if it could not

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
    """Every case under ``fixtures_dir`` (optionally one backend's), sorted by id.

    A meta file that is not valid JSON still yields a case (with ``problem`` set),
    so that it is reported instead of silently skipped.
    """
    root = Path(fixtures_dir)
    cases = []
    for meta_path in sorted(root.glob("*/*.meta.json")):
        if backend is not None and meta_path.parent.name != backend:
            continue
        cases.append(load_case(meta_path))
    return cases


def load_case(meta_path: "os.PathLike[str]") -> Case:
    """The case described by one ``<case>.meta.json`` file."""
    path = Path(meta_path)
    folder_backend = path.parent.name
    name = path.name[: -len(".meta.json")]
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return Case(backend=folder_backend, name=name, meta_path=path, meta={}, problem="unreadable meta file: %s" % exc)
    if not isinstance(meta, dict):
        return Case(backend=folder_backend, name=name, meta_path=path, meta={}, problem="the meta file is not a JSON object")
    return Case(backend=meta.get("backend", folder_backend), name=name, meta_path=path, meta=meta)


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


def require_responses() -> Any:
    """The ``responses`` module, or ``InvalidInput(missing_test_extra)`` telling how to install it."""
    try:
        import responses
    except ImportError:
        raise InvalidInput(
            "replaying fixture cases needs the 'responses' library: pip install responses "
            "(or, from a checkout of websearch-sync, pip install -e '.[test]')",
            detail_code="missing_test_extra",
        ) from None
    return responses


# -- matching requests against a recording ----------------------------------------------------


def _has_placeholder(value: Any) -> bool:
    if isinstance(value, str):
        return PLACEHOLDER in value
    if isinstance(value, dict):
        return any(_has_placeholder(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_placeholder(v) for v in value)
    return False


def _pattern(text: str) -> "re.Pattern[str]":
    """``text`` as an anchored regex in which each placeholder stands for any non-empty value."""
    return re.compile("".join(".+" if part == PLACEHOLDER else re.escape(part) for part in re.split("(%s)" % re.escape(PLACEHOLDER), text)) + r"\Z", re.S)


def _same(expected: Any, actual: Any) -> bool:
    """Equality in which strings holding the placeholder match any non-empty value in its place."""
    if isinstance(expected, str) and PLACEHOLDER in expected:
        return isinstance(actual, str) and _pattern(expected).match(actual) is not None
    if isinstance(expected, dict):
        return isinstance(actual, dict) and set(expected) == set(actual) and all(_same(v, actual[k]) for k, v in expected.items())
    if isinstance(expected, list):
        return isinstance(actual, list) and len(expected) == len(actual) and all(_same(e, a) for e, a in zip(expected, actual))
    return bool(expected == actual)


def query_params(url: str) -> Dict[str, Any]:
    """The query string of ``url`` as the matchers see it: ``{name: value}``, a list for a repeated name."""
    params: Dict[str, Any] = {}
    for key, group in groupby(parse_qsl(urlsplit(url).query, keep_blank_values=True), lambda kv: kv[0]):
        values = [v for _, v in group]
        params[key] = values[0] if len(values) == 1 else values
    return params


def _redacted_matcher(what: str, expected: Any, actual_of: Any) -> Any:
    def match(request: Any) -> Tuple[bool, str]:
        try:
            actual = actual_of(request)
        except ValueError as exc:
            return False, "%s of the request unreadable: %s" % (what, exc)
        if _same(expected, actual):
            return True, ""
        return False, "%s do not match. %r doesn't match %r" % (what, actual, expected)

    return match


def _form_of(request: Any) -> Dict[str, Any]:
    body = request.body or ""
    if isinstance(body, bytes):
        body = body.decode("utf-8")
    return dict(parse_qsl(body, keep_blank_values=True))


def _json_of(request: Any) -> Any:
    body = request.body or b""
    if isinstance(body, bytes):
        body = body.decode("utf-8")
    return json.loads(body) if body else None


def _matchers(request: Dict[str, Any]) -> List[Any]:
    """responses matchers for a recorded request (placeholder-aware where secrets were redacted)."""
    from responses import matchers

    match = []
    if "query_params" in request:
        params = request["query_params"]
        if _has_placeholder(params):
            match.append(_redacted_matcher("query parameters", {k: _str_values(v) for k, v in params.items()}, lambda r: query_params(r.url)))
        else:
            match.append(matchers.query_param_matcher(params))
    if "form" in request:
        form = request["form"]
        if _has_placeholder(form):
            match.append(_redacted_matcher("form fields", form, _form_of))
        else:
            match.append(matchers.urlencoded_params_matcher(form, allow_blank=any(v == "" for v in form.values())))
    if "json" in request:
        if _has_placeholder(request["json"]):
            match.append(_redacted_matcher("JSON body", request["json"], _json_of))
        else:
            match.append(matchers.json_params_matcher(request["json"]))
    if request.get("headers"):
        headers = {k: (_pattern(v) if isinstance(v, str) and PLACEHOLDER in v else v) for k, v in request["headers"].items()}
        match.append(matchers.header_matcher(headers))
    return match


def _str_values(value: Any) -> Any:
    if isinstance(value, list):
        return [_str_values(v) for v in value]
    return str(value) if isinstance(value, (int, float)) else value


def _register(mock: Any, exchange: Dict[str, Any], case: Case) -> None:
    import requests

    request = exchange.get("request") or {}
    response = exchange["response"]
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
        match=_matchers(request),
    )


class ReplayMismatch(Exception):
    """The backend sent a request the recording does not describe."""


def replay(case: Case) -> Dict[str, Any]:
    """Run the case's search through ``websearch_sync.search`` with HTTP replayed; return its outcome.

    Retries are off (``retries`` in the meta file turns them on), so that one
    recorded exchange answers one request.
    """
    responses = require_responses()

    meta = case.meta
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        for exchange in case.exchanges():
            _register(mock, exchange, case)
        try:
            with SearchClient(settings=_settings_for(case), cache_ttl_s=0) as client:
                result: Any = client.search(
                    meta["query"],
                    backend=case.backend,
                    max_results=meta.get("max_results"),
                    retries=meta.get("retries", 0),  # one recorded answer per exchange: no retries unless the case says so
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
        if not isinstance(item, dict):
            problems.append("item %d is not a dict" % position)
            continue
        for key in ("title", "url", "snippet", "provider"):
            if not isinstance(item.get(key), str):
                problems.append("item %d: %s is not a string" % (position, key))
        if item.get("rank") != position:
            problems.append("item %d: rank is %r" % (position, item.get("rank")))
        url = item.get("url") or ""
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            problems.append("item %d: url %r is not http(s)" % (position, url))
        for key in ("title", "snippet"):
            text = item.get(key) or ""
            if isinstance(text, str) and (text != text.strip() or "\n" in text or "  " in text):
                problems.append("item %d: %s is not whitespace-collapsed" % (position, key))
        if provider is not None and item.get("provider") != provider and provider not in (item.get("providers") or []):
            problems.append("item %d: provider %r, expected %r" % (position, item.get("provider"), provider))
    urls = [item.get("url") for item in items if isinstance(item, dict)]
    if len(set(map(str, urls))) != len(urls):
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


# -- the readable diff --------------------------------------------------------------------------


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= _SHOWN_CHARS else text[: _SHOWN_CHARS - 3] + "..."


def describe(outcome: Dict[str, Any]) -> str:
    """One line summing up an outcome: ``3 items`` or ``error WebBlocked/captcha_required (HTTP 200)``."""
    error = outcome.get("error")
    if error:
        text = "error %s%s" % (error.get("type"), "/" + error["detail_code"] if error.get("detail_code") else "")
        return text + (" (HTTP %s)" % error["status"] if error.get("status") is not None else "")
    items = outcome.get("items") or []
    return "%d item%s" % (len(items), "" if len(items) == 1 else "s")


def compare(expected: Any, actual: Any) -> List[str]:
    """A readable diff between two outcomes (empty when they are equal).

    Lines start with ``-`` (an item the golden has and the replay lost), ``+``
    (an item the replay found that the golden lacks), ``~`` (a field that changed,
    an item that moved). Items are matched by URL.
    """
    if expected == actual:
        return []
    if "error" in expected or "error" in actual:
        lines = ["- expected %s" % describe(expected), "+ got      %s" % describe(actual)]
        for side, outcome in (("-", expected), ("+", actual)):
            error = outcome.get("error")
            if error and "error" in expected and "error" in actual:
                lines.append("%s %s" % (side, _shown(error)))
        return lines
    old_list = expected.get("items") or []
    new_list = actual.get("items") or []
    old_items = {item.get("url"): item for item in old_list}
    new_items = {item.get("url"): item for item in new_list}
    removed = [u for u in old_items if u not in new_items]
    added = [u for u in new_items if u not in old_items]
    changed = [u for u in old_items if u in new_items and old_items[u] != new_items[u]]
    lines = [
        "items: %d -> %d (%d removed, %d added, %d changed)" % (len(old_list), len(new_list), len(removed), len(added), len(changed))
    ]
    for url in removed:
        item = old_items[url]
        lines.append("- removed #%s %s  %s" % (item.get("rank"), url, _shown(item.get("title"))))
    for url in added:
        item = new_items[url]
        lines.append("+ added   #%s %s  %s" % (item.get("rank"), url, _shown(item.get("title"))))
    for url in changed:
        before, after = old_items[url], new_items[url]
        if before.get("rank") != after.get("rank"):
            lines.append("~ moved   %s  #%s -> #%s" % (url, before.get("rank"), after.get("rank")))
        for key in sorted((set(before) | set(after)) - {"rank"}):
            if before.get(key) != after.get(key):
                lines.append("~ changed %s %s:" % (url, key))
                lines.append("      was %s" % ("(absent)" if key not in before else _shown(before[key])))
                lines.append("      now %s" % ("(absent)" if key not in after else _shown(after[key])))
    for key in sorted((set(expected) | set(actual)) - {"items"}):
        if expected.get(key) != actual.get(key):
            lines.append("~ %s: %s -> %s" % (key, _shown(expected.get(key)), _shown(actual.get(key))))
    return lines


# -- verdicts -----------------------------------------------------------------------------------


@dataclass
class CaseResult:
    """The verdict on one case: ``PASS``, ``DRIFT`` (differs from the golden),
    ``NEW`` (no golden yet) or ``ERROR`` (could not replay / broke the contract)."""

    case: Case
    status: str
    diff: List[str] = field(default_factory=list)
    outcome: Optional[Dict[str, Any]] = None
    golden: Optional[Dict[str, Any]] = None


def run_case(case: Case) -> CaseResult:
    """Replay one case and judge it against its golden and the contract.

    Raises ``InvalidInput(missing_test_extra)`` when ``responses`` is not installed;
    every problem of the case itself is an ``ERROR`` verdict.
    """
    if case.problem:
        return CaseResult(case, "ERROR", [case.problem])
    if "query" not in case.meta:
        return CaseResult(case, "ERROR", ["the meta file has no query"])
    try:
        outcome = replay(case)
    except ReplayMismatch as exc:
        return CaseResult(case, "ERROR", ["request mismatch: " + str(exc).strip().splitlines()[0]] + str(exc).strip().splitlines()[1:8])
    except OSError as exc:  # a body file named in the meta is missing or unreadable
        return CaseResult(case, "ERROR", ["cannot read the recording: %s" % exc])
    except (KeyError, TypeError, AttributeError) as exc:
        return CaseResult(case, "ERROR", ["malformed meta file: %s: %s" % (type(exc).__name__, exc)])
    if "items" in outcome:
        problems = contract_violations(outcome, max_results=case.meta.get("max_results") or 5, provider=case.backend)
        if problems:
            return CaseResult(case, "ERROR", ["contract violated: " + p for p in problems], outcome)
    try:
        golden = load_golden(case)
    except ValueError as exc:
        return CaseResult(case, "ERROR", ["unreadable golden %s: %s" % (case.expected_path.name, exc)], outcome)
    if golden is None:
        return CaseResult(case, "NEW", ["no golden: %s" % case.expected_path.name], outcome)
    diff = compare(golden, outcome)
    return CaseResult(case, "DRIFT" if diff else "PASS", diff, outcome, golden)


def run_cases(fixtures_dir: "os.PathLike[str]", backend: Optional[str] = None) -> List[CaseResult]:
    """Replay every case under ``fixtures_dir`` (optionally one backend's).

    Raises ``InvalidInput(no_cases)`` when there is nothing to replay (a CI job
    pointed at the wrong folder must not pass), ``InvalidInput(missing_test_extra)``
    without ``responses``.
    """
    root = Path(fixtures_dir)
    if not root.is_dir():
        raise InvalidInput("fixture folder %s does not exist" % root, detail_code="no_cases")
    cases = discover(root, backend)
    if not cases:
        where = "%s/%s" % (root, backend) if backend else str(root)
        raise InvalidInput("no fixture cases (*/<case>.meta.json) under %s" % where, detail_code="no_cases")
    require_responses()
    return [run_case(case) for case in cases]


def count_statuses(results: List[CaseResult]) -> Dict[str, int]:
    """``{"PASS": n, "NEW": n, "DRIFT": n, "ERROR": n}``."""
    counts = {status: 0 for status in STATUSES}
    for result in results:
        counts[result.status] = counts.get(result.status, 0) + 1
    return counts
