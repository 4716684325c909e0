"""No key ever shows, with a key set for every backend (and the fetch service), on every
error path: not in messages, ``to_dict()``, reprs, logs at DEBUG (urllib3's included),
recorded fixtures (``websearch-sync record`` into a temporary folder) or CLI output.

Error paths: every fault of the fault lab for every network backend, plus answers that
echo the request back (its headers, body and query: where a careless service would
repeat the key) with statuses 200, 400, 401, 403, 422, 429 and 500, for search, fetch
(service first, then the page), ``tool.call_tool`` and the CLI.
"""

import json
import logging
import os
import re
import threading
import zlib
from pathlib import Path

import faultlab
import pytest
from backend_kit import env_vars, project_backends, required, secret_settings
from faults import head

import websearch_sync as ws
from websearch_sync import cli, tool
from websearch_sync.cli import main
from websearch_sync.contract.recording import record_case
from websearch_sync.engine import registry
from websearch_sync.net.ssrf import static_resolver
from websearch_sync.net.transport import HttpTransport
from websearch_sync.reader.page import fetch_page

BACKENDS = faultlab.network_backends()
FAST_FAULTS = [f.name for f in faultlab.FAULT_LIST if f.name not in ("never_answer", "headers_then_stall", "trickle")]
ECHO_STATUSES = (200, 400, 401, 403, 422, 429, 500)
SERVICE_KEY = "svc-SECRET-77aa66bb55cc"


KEYS: dict[str, dict[str, str]] = {
    name: {
        setting: "%s-%s-SECRET-%08x" % (name, setting, zlib.crc32(("%s/%s" % (name, setting)).encode()))
        for setting in secret_settings(registry.backend_class(name))
    }
    for name in project_backends()
}
ALL_KEYS = [key for sub in KEYS.values() for key in sub.values()] + [SERVICE_KEY]


def setting_value(setting: str, secret: str) -> str:
    """What goes into the setting: the secret itself, or for extra-header settings a JSON
    object holding it as a header value (the service gateway's WEB_SEARCH_SERVICE_HEADERS)."""
    return json.dumps({"X-Lab-Secret": secret}) if setting.endswith("headers") else secret


SETTING_VALUES = {
    name: {setting: setting_value(setting, secret) for setting, secret in keys.items()} for name, keys in KEYS.items()
}
assert any(KEYS.values()), "no backend has a key setting"


def assert_no_key(text, where=""):
    for key in ALL_KEYS:
        assert key not in text, "a key leaked%s: ...%s..." % (
            where,
            text[max(0, text.find(key) - 120) : text.find(key) + 60],
        )


def echo(status: int):
    """An answer repeating the request (line, headers, body) in every field a vendor uses for messages."""

    def handler(conn, request, server):
        seen = "%s %s %s %s" % (
            request.method,
            request.path,
            json.dumps(request.headers),
            request.body.decode("utf-8", "replace"),
        )
        body = json.dumps(
            {
                "type": "ErrorResponse",
                "error": {"code": "SUBSCRIPTION_TOKEN_INVALID" if status == 422 else "X", "detail": seen},
                "code": str(status),
                "message": seen,
                "msg": seen,
                "detail": seen,
                "log_id": seen[:60],
                "results": [{"title": seen[:80], "url": "https://echo.example/?" + seen[:200], "content": seen}],
                "unresponsive_engines": [["echo", seen]],
            }
        ).encode()
        conn.sendall(
            head(
                status,
                {
                    "Content-Type": "application/json",
                    "Content-Length": str(len(body)),
                    "Connection": "close",
                    "X-Echo": seen[:300].replace("\r", " ").replace("\n", " "),
                },
            )
            + body
        )

    return handler


def html_echo(status: int):
    def handler(conn, request, server):
        seen = "%s %s %s" % (request.path, json.dumps(request.headers), request.body.decode("utf-8", "replace"))
        body = (
            '<html><body><div id="links"><p>%s</p></div><div id="content_left">%s</div></body></html>' % (seen, seen)
        ).encode()
        conn.sendall(
            head(status, {"Content-Type": "text/html", "Content-Length": str(len(body)), "Connection": "close"}) + body
        )

    return handler


@pytest.fixture(scope="module")
def lab():
    targets = [faultlab.search_target(name) for name in BACKENDS] + [faultlab.fetch_target()]
    with faultlab.LabServer(targets) as server:
        for target in targets:
            for status in ECHO_STATUSES:
                server.handlers[(target.name, "echo_%d" % status)] = echo(status)
                server.handlers[(target.name, "html_echo_%d" % status)] = html_echo(status)
        yield server


@pytest.fixture(scope="module")
def one_parser():
    """``main`` parses every command line of the module with one parser (built as ``main`` builds it):
    building argparse's parser, a few milliseconds, was half the CPU of the 300 CLI runs here."""
    parser = cli.build_parser()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cli, "build_parser", lambda: parser)
        yield parser


def keyed_settings(server, **overrides) -> ws.Settings:
    settings = faultlab.lab_settings(server, BACKENDS, **overrides)
    for name, values in SETTING_VALUES.items():
        settings.providers.setdefault(name, {}).update(values)
    return settings


def check_error(error: ws.WebSearchError) -> None:
    for item in [error] + list(error.errors):
        for text in (
            str(item),
            item.message,
            repr(item),
            json.dumps(item.to_dict(), ensure_ascii=False),
            " ".join(map(str, item.args)),
        ):
            assert_no_key(text, " in %r" % type(item).__name__)


def fault_url(server, backend: str, fault: str) -> str:
    spec = faultlab.FAULTS.get(fault)
    if spec is not None and spec.endpoint is not None:
        return spec.endpoint(server, server.targets[backend])
    return server.cell_url(backend, fault)


def run_search(client: ws.SearchClient, settings: ws.Settings, server, backend: str, fault: str) -> None:
    settings.endpoints[backend] = fault_url(server, backend, fault)
    try:
        result = client.search("secret check", backend=backend, timeout_ms=400)
    except ws.WebSearchError as error:
        check_error(error)
    else:
        assert_no_key(json.dumps(result, ensure_ascii=False), " in a result")


def test_search_error_paths_never_show_a_key(lab, caplog):
    caplog.set_level(logging.DEBUG)
    faults = FAST_FAULTS + ["echo_%d" % s for s in ECHO_STATUSES] + ["html_echo_%d" % s for s in ECHO_STATUSES]
    failures: list[str] = []

    def one_backend(backend):
        settings = keyed_settings(lab)
        with ws.SearchClient(
            settings=settings,
            retries=0,
            cache_ttl_s=0,
            min_interval_s=0,
            cooldowns={"captcha_required": 0, "http_403": 0, "http_429": 0},
        ) as client:
            assert_no_key(repr(client))
            for fault in faults:
                try:
                    run_search(client, settings, lab, backend, fault)
                except AssertionError as exc:
                    failures.append("%s x %s: %s" % (backend, fault, exc))
                except Exception as exc:  # noqa: BLE001 - reported below
                    failures.append("%s x %s: %s: %s" % (backend, fault, type(exc).__name__, exc))

    threads = [threading.Thread(target=one_backend, args=(name,)) for name in BACKENDS]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not failures, "\n".join(failures)
    assert any(r.name.startswith("urllib3") for r in caplog.records), "urllib3 DEBUG logging was not captured"
    sent = [r for r in lab.requests if "authorization" in r.headers or "x-subscription-token" in r.headers]
    assert sent, "no request carried a key: the test would prove nothing"
    assert_no_key(caplog.text, " in the logs")
    for record in caplog.records:
        assert_no_key(record.getMessage(), " in a log record")


def test_every_key_was_sent_to_its_service(lab):
    """Keys go where they belong (else the other tests would prove nothing)."""
    settings = keyed_settings(lab)
    with ws.SearchClient(settings=settings, retries=0, cache_ttl_s=0, min_interval_s=0) as client:
        for backend in BACKENDS:
            if not KEYS.get(backend):
                continue
            before = len(lab.requests)
            settings.endpoints[backend] = lab.cell_url(backend, "good")
            # the lab's 600 ms is the timed faults' deadline: a good answer is not timed here
            client.search("q", backend=backend, timeout_ms=faultlab.RECOVERY_DEADLINE_MS)
            request = lab.requests[before]
            seen = json.dumps(request.headers) + request.path + request.body.decode("utf-8", "replace")
            assert any(key in seen for key in KEYS[backend].values()), backend


def test_reprs_never_show_a_key(lab):
    settings = keyed_settings(lab, fetch_service_url="http://127.0.0.1:1/", fetch_service_key=SERVICE_KEY)
    assert_no_key(repr(settings))
    assert_no_key(str(settings))
    for name in project_backends():
        assert_no_key(repr(registry.backend_class(name)(settings)))
    with ws.SearchClient(BACKENDS, settings=settings) as client:
        assert_no_key(repr(client))
        assert_no_key(repr(client._transport))


@pytest.mark.parametrize("service_fault", ["echo_401", "echo_500", "echo_200", "http_429", "binary_garbage"])
def test_fetch_with_a_service_key_never_shows_it(lab, caplog, service_fault):
    caplog.set_level(logging.DEBUG)
    settings = ws.Settings(fetch_service_url=lab.cell_url("fetch", service_fault), fetch_service_key=SERVICE_KEY)
    resolver = static_resolver({faultlab.FETCH_HOST: "127.0.0.1"})
    transport = HttpTransport()
    try:
        for fault in ["good", "http_503", "empty_200", "redirect_private", "captcha_200", "echo_401"]:
            url = "http://%s:%d/fetch/%s" % (faultlab.FETCH_HOST, lab.port, fault)
            try:
                page = fetch_page(
                    url,
                    transport=transport,
                    settings=settings,
                    timeout_ms=2000,
                    resolver=resolver,
                    trusted_networks=["127.0.0.1/32"],
                )
            except ws.WebSearchError as error:
                check_error(error)
            else:
                assert_no_key(json.dumps(page, ensure_ascii=False))
    finally:
        transport.close()
    assert any(SERVICE_KEY in json.dumps(r.headers) for r in lab.requests), "the service never got the key"
    assert_no_key(caplog.text, " in the logs")


def test_tool_errors_never_show_a_key(lab):
    settings = keyed_settings(lab)
    for backend in BACKENDS:
        with ws.SearchClient(backend, settings=settings, retries=0, cache_ttl_s=0, min_interval_s=0) as client:
            for fault in ("echo_401", "echo_422", "echo_500", "echo_200", "html_echo_200"):
                settings.endpoints[backend] = lab.cell_url(backend, fault)
                result = tool.call_tool("web_search", {"query": "q"}, client=client)
                assert_no_key(json.dumps(result, ensure_ascii=False), " in a tool result")
                assert_no_key(tool.format_results(result), " in a tool reply")


def _env_for(lab, fault: str) -> dict[str, str]:
    env = {}
    for name in BACKENDS:
        cls = registry.backend_class(name)
        for setting, variable in env_vars(cls).items():
            if setting in SETTING_VALUES.get(name, {}):
                env[variable] = SETTING_VALUES[name][setting]
            elif setting == "base_url" or (setting in required(cls) and setting.endswith("url")):
                env[variable] = lab.cell_url(name, fault)
        env["WEB_SEARCH_ENDPOINT_%s" % name.upper()] = lab.cell_url(name, fault)
    env["WEB_FETCH_SERVICE_KEY"] = SERVICE_KEY
    return env


@pytest.mark.parametrize("fault", ["echo_401", "echo_422", "echo_200", "html_echo_200", "redirect_private", "good"])
def test_cli_output_never_shows_a_key(lab, one_parser, monkeypatch, capsys, caplog, fault):
    caplog.set_level(logging.DEBUG)
    for variable, value in _env_for(lab, fault).items():
        monkeypatch.setenv(variable, value)
    outputs = []
    for backend in BACKENDS:
        for argv in (
            ["search", "q", "-b", backend, "--timeout-ms", "2000"],
            ["search", "q", "-b", backend, "--json"],
            ["check-live", backend, "q", "--timeout-ms", "2000", "--json"],
        ):
            main(argv)
            captured = capsys.readouterr()
            outputs.append(captured.out + captured.err)
    main(["backends", "--json"])
    main(["backends"])
    captured = capsys.readouterr()
    outputs.append(captured.out + captured.err)
    for text in outputs:
        assert_no_key(text, " in CLI output")
    assert_no_key(caplog.text, " in the logs")


def test_recorded_fixtures_never_hold_a_key(lab, one_parser, tmp_path, monkeypatch, capsys):
    # the service key too, as the command line below has it from the environment: the same
    # secrets give both halves one redactor pattern, compiled once (each took 2-3 s of CPU)
    settings = keyed_settings(lab, fetch_service_key=SERVICE_KEY)
    recorded = 0
    for backend in BACKENDS:
        for fault in ("good", "echo_401", "echo_200", "html_echo_200", "echo_429"):
            settings.endpoints[backend] = lab.cell_url(backend, fault)
            try:
                record_case(
                    backend,
                    "secret check %s" % fault,
                    fixtures_dir=tmp_path,
                    name=fault,
                    settings=settings,
                    allow_error=True,
                    overwrite=True,
                    timeout_ms=2000,
                )
                recorded += 1
            except ws.WebSearchError as error:
                check_error(error)
    # and through the command line, with the keys in the environment
    for variable, value in _env_for(lab, "echo_401").items():
        monkeypatch.setenv(variable, value)
    for backend in BACKENDS:
        main(
            [
                "record",
                backend,
                "cli check",
                "--fixtures",
                str(tmp_path / "cli"),
                "--allow-error",
                "--timeout-ms",
                "2000",
            ]
        )
        main(["verify", "--fixtures", str(tmp_path / "cli"), "--backend", backend])
    captured = capsys.readouterr()
    assert_no_key(captured.out + captured.err, " in CLI output")
    files = [p for p in Path(tmp_path).rglob("*") if p.is_file()]
    assert recorded >= len(BACKENDS) and len(files) >= 3 * len(BACKENDS)
    for path in files:
        assert_no_key(path.read_bytes().decode("utf-8", "replace"), " in %s" % path.relative_to(tmp_path))
    assert any(re.search("<redacted>", p.read_text("utf-8", "replace")) for p in files if p.name.endswith(".meta.json"))
    assert os.path.isdir(tmp_path / "cli")
