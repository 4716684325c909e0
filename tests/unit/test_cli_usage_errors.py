"""A usage error names only what is missing: ``check-live`` without arguments said
"the following arguments are required: backend, QUERY", though its queries are optional
(two common ones by default, as its help says)."""

from websearch_sync.cli import main


def test_check_live_without_a_backend_asks_for_the_backend_only(capsys):
    assert main(["check-live"]) == 2
    assert capsys.readouterr().err.strip().endswith("the following arguments are required: BACKEND")


def test_json_and_another_format_together_are_refused(capsys):
    """``--json --format markdown`` printed JSON, silently dropping the markdown asked for."""
    assert main(["search", "q", "--json", "--format", "markdown"]) == 2
    assert (
        "error: InvalidInput/bad_arguments: --json is --format json: give one of them, not --format markdown as well"
        in (capsys.readouterr().err)
    )


def test_a_batch_with_a_text_format_is_refused(tmp_path, capsys):
    """A batch writes one JSON line per query: ``--format text`` with ``--queries-file`` changed
    nothing, silently (as the other flags that would change nothing are refused)."""
    queries = tmp_path / "queries.txt"
    queries.write_text("a\n", encoding="utf-8")
    assert main(["search", "--queries-file", str(queries), "--format", "text"]) == 2
    assert "--format text does not apply to a batch (--queries-file): it writes one JSON line per query" in (
        capsys.readouterr().err
    )


def test_the_json_forms_stay_usable_together(capsys):
    assert main(["search", "q", "--json", "--format", "json"]) == 0
    assert capsys.readouterr().out.startswith("{")


def test_a_bad_max_concurrent_of_the_mcp_server_comes_alone(capsys, monkeypatch):
    """``mcp --max-concurrent 0`` printed the offline stub's warning before its usage error, as if
    the server had started; the number is checked first, as the other flags are, before the MCP
    SDK is imported (require_mcp: a second of CPU for a usage error)."""
    import websearch_sync.mcp

    def no_sdk_import():
        raise AssertionError("the SDK is imported before the usage error")

    monkeypatch.setattr(websearch_sync.mcp, "require_mcp", no_sdk_import)
    monkeypatch.delenv("WEB_SEARCH_BACKEND", raising=False)
    assert main(["mcp", "--max-concurrent", "0"]) != 0
    err = capsys.readouterr().err
    assert "bad_max_concurrent" in err
    assert "warning" not in err


def test_state_without_an_action_names_each_action(capsys):
    """``websearch-sync state`` said "the following arguments are required: ACTION", naming none of them."""
    assert main(["state"]) == 2
    err = capsys.readouterr().err
    assert err.splitlines()[-1] == (
        "websearch-sync state: error: give an action: clear: lift cool-downs (every backend's, or one's);"
        " show: list the shared cool-downs and paces, count questions in flight and cached answers"
    )


def test_state_asking_for_help_gets_it(capsys):
    assert main(["state", "--help"]) == 0
    assert "ACTION" in capsys.readouterr().out
