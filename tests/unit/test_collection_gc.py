"""tests/conftest.py: no cyclic garbage collection while the suite is collected, and as usual after."""

import gc

#: Whether the collector ran while pytest imported this module (that is, while it collected).
COLLECTOR_ON_WHILE_COLLECTING = gc.isenabled()


def test_the_collector_is_off_while_the_suite_is_collected():
    assert COLLECTOR_ON_WHILE_COLLECTING is False


def test_the_collector_runs_again_once_the_suite_is_collected():
    assert gc.isenabled()
