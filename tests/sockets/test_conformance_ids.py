"""A conformance check's node id, as a report gives it (``FAILED websearch-conformance::conformance[...]``),
pasted as pytest's argument runs that check alone, as a test's node id does: it was pytest's "file
or directory not found" (only ``-k`` picked a check). In-process runs of pytest (pytester)."""

import pytest

pytest_plugins = ["pytester"]

#: The runs load our plugin alone, as a user's run with it installed would (no xdist, no hypothesis).
PLUGIN = ("--disable-plugin-autoload", "-p", "websearch_sync.testing", "-p", "no:cacheprovider")
CHECK = "websearch-conformance::conformance[ddg_lite-declaration]"


@pytest.fixture
def folder(pytester):
    """A project with a test of its own, which a run naming only a check must not run."""
    pytester.makepyfile(test_own="def test_own():\n    pass\n")
    return pytester


def test_the_reported_id_of_a_check_runs_that_check_alone(folder):
    run = folder.runpytest(*PLUGIN, "-v", "--websearch-conformance", "ddg_lite", CHECK)
    run.assert_outcomes(passed=1)
    assert [line.split()[:2] for line in run.stdout.lines if line.startswith("websearch-conformance")] == [
        [CHECK, "PASSED"]
    ]
    assert "test_own" not in run.stdout.str()


def test_the_id_names_its_backend_without_the_option(folder):
    run = folder.runpytest(*PLUGIN, "-v", CHECK, "test_own.py")
    run.assert_outcomes(passed=2)
    assert [line.split()[:2] for line in run.stdout.lines if line.startswith("websearch-conformance")] == [
        [CHECK, "PASSED"]
    ]


def test_the_node_alone_runs_every_check_of_the_option(folder):
    run = folder.runpytest(*PLUGIN, "--websearch-conformance", "ddg_lite", "websearch-conformance", "--co", "-q")
    listed = [line for line in run.stdout.lines if line.startswith("websearch-conformance::")]
    assert CHECK in listed and len(listed) > 1
    assert not any("test_own" in line for line in run.stdout.lines)


@pytest.mark.parametrize(
    "argv, error",
    [
        (
            ["websearch-conformance::conformance[ddg_lite-declarations]"],
            "ERROR: not found: websearch-conformance::conformance[ddg_lite-declarations] (the checks of ddg_lite: "
            "ddg_lite-declaration, ddg_lite-options, ddg_lite-request, ",
        ),
        (
            ["websearch-conformance::conformance[ddg_lit-declaration]"],
            "ERROR: websearch-conformance::conformance[ddg_lit-declaration]: unknown backend 'ddg_lit'",
        ),
        (
            ["websearch-conformance::conformance[nope]"],
            "ERROR: not found: websearch-conformance::conformance[nope] (a conformance check's id reads ",
        ),
        (
            ["websearch-conformance::conformance[ddg_lite-recorded_cases]"],
            "ERROR: not found: websearch-conformance::conformance[ddg_lite-recorded_cases] (a recorded_cases check"
            " runs with --websearch-fixtures DIR, the folder of the cases)",
        ),
        (
            ["websearch-conformance"],
            "ERROR: websearch-conformance is read by --websearch-conformance BACKEND only: name the backend to check",
        ),
    ],
    ids=["no-such-check", "misspelt-backend", "no-check-id", "recorded-cases-without-fixtures", "no-backend"],
)
def test_an_id_of_no_check_is_a_usage_error_saying_so(folder, argv, error):
    run = folder.runpytest(*PLUGIN, *argv)
    assert run.ret == pytest.ExitCode.USAGE_ERROR
    assert any(line.startswith(error) for line in run.stderr.lines), run.stderr.str()


def test_the_checks_an_id_of_no_check_lists_are_its_backends_and_bounded(folder):
    """A backend with verticals has dozens of checks, and every backend of the option had its own:
    the line listed them all (14.6 KB)."""
    run = folder.runpytest(
        *PLUGIN, "--websearch-conformance", "ddg_lite,searxng", "websearch-conformance::conformance[searxng-nope]"
    )
    assert run.ret == pytest.ExitCode.USAGE_ERROR
    (line,) = [line for line in run.stderr.lines if line.startswith("ERROR: not found")]
    listed = line.split("(the checks of searxng: ", 1)[1].rstrip(")").split(", ")
    assert listed[0] == "searxng-declaration" and not any(name.startswith("ddg_lite") for name in listed)
    assert len(listed) == 21 and listed[-1].startswith("and ") and listed[-1].endswith(" more")


def test_a_folder_of_the_users_named_as_the_node_is_collected_as_the_users(folder):
    folder.mkpydir("websearch-conformance").joinpath("test_theirs.py").write_text("def test_theirs():\n    pass\n")
    run = folder.runpytest(*PLUGIN, "-v", "websearch-conformance")
    run.assert_outcomes(passed=1)
    assert "websearch-conformance/test_theirs.py::test_theirs PASSED" in run.stdout.str()
