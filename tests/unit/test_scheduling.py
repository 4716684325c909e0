"""tests/scheduling.py: a unit that mostly waits goes to a worker only while few others run one."""

import types
from pathlib import Path

import pytest
import scheduling

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("workers", "cores", "limit"), [(4, 2, 2), (3, 2, 1), (5, 2, 3), (2, 2, None), (4, 8, None), (2, 1, 1)]
)
def test_as_many_workers_may_wait_at_once_as_there_are_workers_beyond_the_cores(workers, cores, limit):
    assert scheduling.waiting_limit(workers, cores) == limit


def test_every_waiting_unit_is_a_test_module():
    assert [module for module in sorted(scheduling.WAITING) if not (ROOT / module).is_file()] == []


class Worker:
    """Stands for an xdist worker controller: the test indexes it was sent."""

    def __init__(self, name):
        self.name, self.shutting_down, self.queue = name, False, []
        self.gateway = types.SimpleNamespace(id=name)

    def send_runtest_some(self, indexes):
        self.queue.extend(indexes)

    def shutdown(self):
        self.shutting_down = True


def test_a_third_waiting_unit_waits_for_one_of_two_running_to_end(monkeypatch):
    monkeypatch.setattr(scheduling, "cores", lambda: 2)
    waiting = sorted(scheduling.WAITING)[:3]
    computing = ["tests/unit/test_%s.py" % name for name in "abcde"]
    collection = ["%s::test_%d" % (module, i) for module in waiting + computing for i in range(5)]
    config = types.SimpleNamespace(
        getvalue=lambda name: ["4*popen"], option=types.SimpleNamespace(loadscopereorder=False)
    )
    sched = scheduling.make_scheduler(config, None)
    workers = [Worker("gw%d" % i) for i in range(4)]
    for worker in workers:
        sched.add_node(worker)
        sched.add_node_collection(worker, collection)
    sched.schedule()

    def units_of(worker):
        return [scheduling.unit_of(collection[i]) for i in worker.queue]

    assert [units_of(worker)[0] for worker in workers] == waiting[:2] + computing[:2]
    first = workers[0]
    for index in list(first.queue):
        sched.mark_test_complete(first, index)
    assert units_of(first)[-1] == waiting[2]


def test_this_runs_worker_has_its_tests_in_the_order_the_units_go_out(request):
    """tests/conftest.py orders a worker's tests by ``run_order``; the controller hands the units
    out in that order, the long ones (``RUN_FIRST``) first."""
    config = request.config
    if not hasattr(config, "workerinput"):
        pytest.skip("not in an xdist worker (-n 0)")
    ordered = config.workerinput.get(scheduling.RUN_ORDER_KEY)
    if ordered is False:
        pytest.skip("the worker of a run of another --dist")
    assert ordered is True, "the controller did not tell its workers whether to order their tests"
    nodeids = [item.nodeid for item in request.session.items]
    assert scheduling.run_order(nodeids) == list(range(len(nodeids)))
    ranked = [scheduling.unit_of(nodeid) in scheduling.RUN_FIRST for nodeid in nodeids]
    assert ranked == sorted(ranked, reverse=True)


def test_a_crashed_workers_unit_waits_for_its_replacement_to_collect():
    """xdist adds a crashed worker's replacement before its collection arrives; the crash's
    rescheduling must not hand it work then (``KeyError``, the unit lost), and the unit the crash
    left must reach a worker."""
    collection = ["tests/unit/test_%s.py::test_%d" % (name, i) for name in "abcdef" for i in range(5)]
    config = types.SimpleNamespace(
        getvalue=lambda name: ["2*popen"], option=types.SimpleNamespace(loadscopereorder=False)
    )
    sched = scheduling.make_scheduler(config, None)
    first, crashed = Worker("gw0"), Worker("gw1")
    for worker in (first, crashed):
        sched.add_node(worker)
        sched.add_node_collection(worker, collection)
    sched.schedule()
    lost = {collection[i] for i in crashed.queue}
    replacement = Worker("gw2")
    sched.add_node(replacement)
    assert sched.remove_node(crashed) == collection[crashed.queue[0]]
    sched.add_node_collection(replacement, collection)
    sched.schedule()
    done = dict.fromkeys((first, replacement), 0)
    while any(len(worker.queue) > done[worker] for worker in done):
        for worker in done:
            for index in worker.queue[done[worker] :]:
                done[worker] += 1
                sched.mark_test_complete(worker, index)
    assert lost <= {collection[i] for worker in done for i in worker.queue}
