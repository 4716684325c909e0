"""A usage error names only what is missing: ``check-live`` without arguments said
"the following arguments are required: backend, QUERY", though its queries are optional
(two common ones by default, as its help says)."""

from websearch_sync.cli import main


def test_check_live_without_a_backend_asks_for_the_backend_only(capsys):
    assert main(["check-live"]) == 2
    assert capsys.readouterr().err.strip().endswith("the following arguments are required: backend")
