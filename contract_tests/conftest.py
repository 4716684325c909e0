"""Options of the contract suite."""


def pytest_addoption(parser):
    parser.addoption(
        "--update-goldens",
        action="store_true",
        default=False,
        help="rewrite fixtures/*/*.expected.json from the current parsers (review the diff with git)",
    )


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _offline():
    """Contract cases replay recordings; any real connection is a bug. (``no_network`` imported
    here, not by the module: the xdist controller imports this module and runs no test.)"""
    from websearch_sync.testing import no_network

    with no_network():
        yield
