"""The command line, through main(argv) and as a real subprocess."""

import json
import subprocess
import sys

import pytest

from websearch_sync.cli import main


def test_search_prints_numbered_results(capsys):
    assert main(["search", "python requests timeout"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1. python requests timeout - Overview\n   https://example.com/search?q=python+requests+timeout\n")
    assert "\n3. " in out


def test_json_output_is_the_canonical_shape(capsys):
    assert main(["search", "q", "-n", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [i["rank"] for i in data["items"]] == [1, 2]
    assert data["provider_meta"]["provider_name"] == "stub"


@pytest.mark.parametrize(
    "argv, status, line",
    [
        (["search", "   "], 2, "error: InvalidInput/empty_query: "),
        (["search", "q", "-n", "11"], 2, "error: InvalidInput/bad_max_results: "),
        (["search", "q", "-b", "nope"], 2, "error: InvalidInput/unknown_backend: "),
        (["search", "q", "--timeout-ms", "0"], 2, "error: InvalidInput/bad_timeout: "),
    ],
)
def test_errors_are_one_line_on_stderr_with_a_status(capsys, argv, status, line):
    assert main(argv) == status
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(line) and captured.err.count("\n") == 1


def test_usage_errors_exit_2(capsys):
    assert main([]) == 2
    assert main(["search"]) == 2
    assert main(["search", "q", "-n", "many"]) == 2


def test_version_and_help(capsys):
    assert main(["--version"]) == 0
    assert "websearch-sync" in capsys.readouterr().out
    assert main(["--help"]) == 0
    assert "example" in capsys.readouterr().out


def test_upstream_failures_have_their_own_statuses(testjson, capsys):
    from servers import FaultServer, respond, free_port
    import os

    os.environ["WEB_SEARCH_ENDPOINT_TESTJSON"] = "http://127.0.0.1:%d/s" % free_port()
    try:
        assert main(["search", "q", "-b", "testjson"]) == 4
        assert capsys.readouterr().err.startswith("error: NetworkError/connection_refused: ")
        with FaultServer({"/s": respond(429, b"")}) as server:
            os.environ["WEB_SEARCH_ENDPOINT_TESTJSON"] = server.url("/s")
            assert main(["search", "q", "-b", "testjson"]) == 3
        with FaultServer({"/s": respond(502, b"")}) as server:
            os.environ["WEB_SEARCH_ENDPOINT_TESTJSON"] = server.url("/s")
            assert main(["search", "q", "-b", "testjson"]) == 5
    finally:
        del os.environ["WEB_SEARCH_ENDPOINT_TESTJSON"]


def test_module_runs_as_a_subprocess():
    proc = subprocess.run([sys.executable, "-m", "websearch_sync", "search", "hello world", "--json"],
                          capture_output=True, text=True, timeout=60, env={"PATH": "", "PYTHONIOENCODING": "utf-8"})
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["items"][0]["url"] == "https://example.com/search?q=hello+world"
    proc = subprocess.run([sys.executable, "-m", "websearch_sync", "search", " "], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stderr.startswith("error: InvalidInput")
