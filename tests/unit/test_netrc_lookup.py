"""The requests wire's netrc look-up (``RequestsWire._netrc_auth``): requests' own answer, without
looking for a file again where none was found while ``NETRC`` and ``HOME`` keep their values."""

import os

from websearch_sync.net.wire_requests import RequestsWire

URL = "http://127.0.0.1:8080/page"


def _stats(monkeypatch):
    """The paths the look-up tests for existence, in order."""
    looked = []
    exists = os.path.exists

    def counting(path):
        looked.append(str(path))
        return exists(path)

    monkeypatch.setattr(os.path, "exists", counting)
    return looked


def test_no_netrc_is_looked_for_once_per_value_of_its_variables(monkeypatch, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.delenv("NETRC", raising=False)
    monkeypatch.setenv("HOME", str(home))
    wire = RequestsWire()
    looked = _stats(monkeypatch)
    try:
        assert wire._netrc_auth(URL) is None
        first = len(looked)
        assert first >= 2  # ~/.netrc and ~/_netrc, by requests and by the wire
        assert wire._netrc_auth(URL) is None and len(looked) == first  # not looked for again
        netrc = tmp_path / "netrc"
        netrc.write_text("machine 127.0.0.1 login reader password s3cret\n")
        monkeypatch.setenv("NETRC", str(netrc))  # another value: looked for, and read
        assert wire._netrc_auth(URL) == ("reader", "s3cret")
        netrc.write_text("machine elsewhere.example login other password x\n")  # a file there: read each time
        assert wire._netrc_auth(URL) is None
        netrc.write_text("machine 127.0.0.1 login again password y\n")
        assert wire._netrc_auth(URL) == ("again", "y")
        monkeypatch.delenv("NETRC")
        (home / ".netrc").write_text("machine 127.0.0.1 login home password z\n")
        assert wire._netrc_auth(URL) is None  # (the values it found none under: not looked for)
        fresh = RequestsWire()  # a new client looks afresh
        try:
            assert fresh._netrc_auth(URL) == ("home", "z")
        finally:
            fresh.close()
    finally:
        wire.close()
