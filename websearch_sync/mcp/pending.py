"""What the MCP stdio transport still owes its client, and whether the client is still there.

A client may write its requests and close stdin at once (``printf '...' | websearch-sync mcp``).
The SDK's dispatcher takes the end of its read stream for the end of the connection and cancels
every request still being served, answering each ``-32000`` "Connection closed": the calls read
before the end of input never got their answers. So the transport's reader keeps the SDK's read
stream open past stdin's end until every request it passed on is settled (:class:`Pending`):
answered (the writer saw its response or error) or ended unanswered (the client cancelled it: the
SDK calls the hook each request carries). Each call ends within its deadline, so this wait does too.

Waiting is pointless once the client has gone (its end of stdout closed: no answer has a reader),
and so is serving at all: :func:`wait_hangup` watches stdout's descriptor for the error or hang-up
the system reports on a pipe or socket whose reader has gone, and the writer reports a broken pipe;
either way :meth:`Pending.client_gone` cancels the reader's scope, ending the server at once.
"""

import os
import select
from collections import Counter
from typing import Any, Optional

import anyio
from mcp.shared.dispatcher import coerce_request_id

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: What ``poll`` reports on a descriptor whose other end has gone (asked for or not).
_GONE = select.POLLERR | select.POLLHUP if hasattr(select, "poll") else 0


class Pending:
    """The requests of one connection passed to the SDK and not yet settled (ids as the SDK
    correlates them: ``7`` is ``"7"``; a reused id counts twice), and whether the client has gone.
    The reader, the writer and the SDK's hooks are tasks of one event loop: no lock."""

    def __init__(self) -> None:
        self._open: Counter[Any] = Counter()
        self._changed: Optional[anyio.Event] = None
        self.gone = False
        #: The reader's scope, cancelled when the client goes: the server stops reading and ends.
        self.scope = anyio.CancelScope()

    def passed_on(self, request_id: Any) -> None:
        """Note a request handed to the SDK: it is owed an answer."""
        self._open[coerce_request_id(request_id)] += 1

    def settled(self, request_id: Any) -> None:
        """Note a request answered, or ended unanswered (an id never passed on is ignored)."""
        key = coerce_request_id(request_id)
        if self._open[key] > 1:
            self._open[key] -= 1
        else:
            self._open.pop(key, None)
        self._wake()

    def client_gone(self) -> None:
        """The client has gone (stdout closed): stop reading and waiting, nothing has a reader."""
        self.gone = True
        self.scope.cancel()
        self._wake()

    def owed(self) -> int:
        """How many requests passed on are not settled yet."""
        return sum(self._open.values())

    async def answered(self) -> None:
        """Return once every request passed on is settled, or the client has gone."""
        while self.owed() and not self.gone:
            self._changed = anyio.Event()
            await self._changed.wait()

    def _wake(self) -> None:
        if self._changed is not None:
            self._changed.set()


def wait_hangup(fd: int, stop_fd: int) -> bool:
    """Block until ``fd`` (stdout's) reports its reader gone (True), or ``stop_fd``, the read end of
    a pipe, becomes readable or hangs up: the server has ended (False). Run in a daemon thread. A
    regular file, a terminal left open or the null device never report it: only ``stop_fd`` ends
    the wait. Without ``select.poll`` (Windows) it returns False at once: a broken pipe on writing
    is then the only sign of a client gone."""
    try:
        if not hasattr(select, "poll"):
            return False
        poller = select.poll()
        poller.register(fd, 0)  # no event asked for: errors and hang-ups are always reported
        poller.register(stop_fd, select.POLLIN)
        while True:
            for ready, events in poller.poll():
                if ready == stop_fd:
                    return False
                if events & select.POLLNVAL:  # closed under the watch: the server is ending
                    return False
                if events & _GONE:
                    return True
    finally:
        os.close(stop_fd)
