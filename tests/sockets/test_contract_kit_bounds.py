"""The contract kit reads and writes only inside the case folder (issue 23, point 10).

A fixture folder is data someone else may have written: a meta file naming a body outside
its folder, a symbolic link planted where a golden or body goes, a request with many
``<redacted>`` placeholders, a meta file of the wrong shape, settings naming a Redis or a
proxy. None of it reads or writes elsewhere, hangs, stops the other cases' report, or
connects anywhere.
"""

import json
import shutil
import socket
import threading
from pathlib import Path

import pytest

from websearch_sync.cli import main
from websearch_sync.contract.cases import discover, run_case
from websearch_sync.contract.replay import request_mismatch
from websearch_sync.net.wire import WireRequest

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
CASE = "brave-search-python-client__1"  # a recorded Brave answer: one GET, a JSON body file


def copy_case(fixtures: Path, name: str = CASE) -> Path:
    """The recorded case copied into ``fixtures/brave``; its meta path."""
    folder = fixtures / "brave"
    folder.mkdir(parents=True, exist_ok=True)
    for suffix in (".meta.json", ".json", ".expected.json"):
        shutil.copy(FIXTURES / "brave" / (CASE + suffix), folder / (name + suffix))
    if name != CASE:
        meta = json.loads((folder / (name + ".meta.json")).read_text(encoding="utf-8"))
        meta["response"]["body"] = name + ".json"
        (folder / (name + ".meta.json")).write_text(json.dumps(meta), encoding="utf-8")
    return folder / (name + ".meta.json")


def edit_meta(meta_path: Path, change) -> None:
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    change(meta)
    meta_path.write_text(json.dumps(meta), encoding="utf-8")


# -- reads stay inside the folder -----------------------------------------------------------------


@pytest.mark.parametrize("where", ["parent", "absolute", "symlink"])
def test_a_body_outside_the_case_folder_is_refused(tmp_path, capsys, where):
    secret = tmp_path / "secret.txt"
    secret.write_text('{"web": {"results": []}, "secret": "do-not-print-me"}', encoding="utf-8")
    meta_path = copy_case(tmp_path / "fixtures")
    if where == "symlink":
        link = meta_path.parent / "link.json"
        link.symlink_to(secret)
        body = "link.json"
    else:
        body = {"parent": "../../secret.txt", "absolute": str(secret)}[where]
    edit_meta(meta_path, lambda meta: meta["response"].update(body=body))
    assert main(["verify", "--fixtures", str(tmp_path / "fixtures")]) == 1
    out = capsys.readouterr().out
    assert "ERROR" in out and "not a file of the case's folder" in out
    assert "do-not-print-me" not in out


# -- writes never go through a link ---------------------------------------------------------------


def test_verify_update_replaces_a_dangling_golden_link_instead_of_writing_through_it(tmp_path, capsys):
    meta_path = copy_case(tmp_path / "fixtures")
    outside = tmp_path / "created-outside.json"
    golden = meta_path.parent / (CASE + ".expected.json")
    golden.unlink()
    golden.symlink_to(outside)  # no file there yet: the case is NEW
    assert main(["verify", "--fixtures", str(tmp_path / "fixtures"), "--update"]) == 0
    assert not outside.exists()
    assert not golden.is_symlink() and json.loads(golden.read_text(encoding="utf-8"))["items"]


def test_a_golden_linked_to_a_file_elsewhere_is_not_read_or_written(tmp_path, capsys):
    meta_path = copy_case(tmp_path / "fixtures")
    target = tmp_path / "elsewhere.json"
    target.write_text('{"items": [], "secret": "do-not-print-me"}', encoding="utf-8")
    golden = meta_path.parent / (CASE + ".expected.json")
    golden.unlink()
    golden.symlink_to(target)
    assert main(["verify", "--fixtures", str(tmp_path / "fixtures"), "--update"]) == 1
    out = capsys.readouterr().out
    assert "ERROR" in out and "do-not-print-me" not in out
    assert target.read_text(encoding="utf-8") == '{"items": [], "secret": "do-not-print-me"}'


@pytest.mark.parametrize("planted", ["one.html", "one.meta.json", "one.expected.json"])
def test_record_never_writes_through_a_planted_link(testhtml_server, tmp_path, planted):
    folder = tmp_path / "fixtures" / "testhtml"
    folder.mkdir(parents=True)
    target = tmp_path / "elsewhere.txt"
    target.write_text("precious\n", encoding="utf-8")
    (folder / planted).symlink_to(target)
    force = ["--force"] if planted == "one.meta.json" else []  # a meta that is there is an existing case
    main(["record", "testhtml", "rust async", "--fixtures", str(tmp_path / "fixtures"), "--name", "one"] + force)
    assert target.read_text(encoding="utf-8") == "precious\n"


# -- placeholders match in linear time ------------------------------------------------------------


def _prepared(value: str) -> WireRequest:
    return WireRequest("GET", "https://api.example/s", [("X-Token", value)])


def _mismatch_within(recorded, request, seconds):
    """``request_mismatch`` run in a thread; fails when it has not answered after ``seconds``."""
    answer = []
    worker = threading.Thread(target=lambda: answer.append(request_mismatch(recorded, request)), daemon=True)
    worker.start()
    worker.join(seconds)
    assert answer, "matching %d placeholders did not finish in %s s" % (
        recorded["headers"]["X-Token"].count("<redacted>"),
        seconds,
    )
    return answer[0]


@pytest.mark.parametrize("placeholders", [8, 12, 40])
def test_many_placeholders_match_in_linear_time(placeholders):
    recorded = {
        "method": "GET",
        "url": "https://api.example/s",
        "headers": {"X-Token": "-".join(["<redacted>"] * placeholders) + "!"},
    }
    # Linear matching answers in microseconds; one regex `.+` per placeholder needed
    # 18 s for 8 and did not finish for 12: a minute is no thin margin.
    assert _mismatch_within(recorded, _prepared("-" * 3000), 60) is not None
    assert _mismatch_within(recorded, _prepared("-".join(["k"] * placeholders) + "!"), 60) is None


@pytest.mark.parametrize(
    "expected, actual, same",
    [
        ("Bearer <redacted>", "Bearer abc", True),
        ("Bearer <redacted>", "Bearer ", False),
        ("<redacted>", "", False),
        ("<redacted><redacted>", "ab", True),
        ("<redacted><redacted>", "a", False),
        ("a<redacted>b<redacted>c", "axbyc", True),
        ("a<redacted>b<redacted>c", "abbc", False),
        ("a<redacted>b<redacted>c", "axbbc", True),
        ("k=<redacted>&x=1", "k=s&x=1&x=1", True),
        ("k=<redacted>", "j=s", False),
    ],
)
def test_placeholder_semantics(expected, actual, same):
    recorded = {"method": "GET", "url": "https://api.example/s", "headers": {"X-Token": expected}}
    assert (request_mismatch(recorded, _prepared(actual)) is None) is same


# -- a malformed meta file is one ERROR, not the end of the report --------------------------------


@pytest.mark.parametrize(
    "name, change",
    [
        ("settings_string", lambda meta: meta.update(settings="brave")),
        ("response_string", lambda meta: meta.update(response="200 OK")),
        ("exchanges_object", lambda meta: meta.update(exchanges={"request": {}, "response": {}})),
        ("exchange_string", lambda meta: meta.update(exchanges=["GET /"])),
        ("options_list", lambda meta: meta.update(options=["x"])),
    ],
)
def test_a_malformed_meta_file_is_an_error_verdict_and_the_others_still_report(tmp_path, capsys, name, change):
    fixtures = tmp_path / "fixtures"
    copy_case(fixtures)
    edit_meta(copy_case(fixtures, "broken"), change)
    assert main(["verify", "--fixtures", str(fixtures)]) == 1
    out = capsys.readouterr().out
    assert "ERROR  brave/broken" in out and "malformed meta file" in out
    assert "PASS   brave/" + CASE in out
    assert "2 cases: 1 PASS" in out


# -- an offline replay connects nowhere -----------------------------------------------------------


class Listener:
    """A loopback port that counts the connections made to it."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.05)
        self.connections = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def url(self, scheme):
        return "%s://127.0.0.1:%d" % (scheme, self.sock.getsockname()[1])

    def _accept(self):
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.connections += 1
            conn.close()

    def close(self):
        self._stop.set()
        self._thread.join(5)
        self.sock.close()


def test_an_offline_replay_connects_to_no_redis_or_proxy(tmp_path, monkeypatch):
    listener = Listener()
    try:
        for var in ("WEB_SEARCH_STATE_URL", "WEB_SEARCH_PROXY"):
            monkeypatch.setenv(var, listener.url("redis" if "STATE" in var else "http"))
        for var in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy"):
            monkeypatch.setenv(var, listener.url("http"))
        meta_path = copy_case(tmp_path / "fixtures")
        edit_meta(
            meta_path,
            lambda meta: meta["settings"].update(
                state_url=listener.url("redis") + "/0", state_required=True, proxy=listener.url("http")
            ),
        )
        (case,) = discover(tmp_path / "fixtures")
        result = run_case(case)
        assert result.status == "PASS", result.diff
        assert main(["verify", "--fixtures", str(tmp_path / "fixtures")]) == 0
    finally:
        listener.close()
    assert listener.connections == 0
