"""JSON-RPC batches over the MCP stdio transport, served where the negotiated version has them.

Of MCP's protocol versions only 2025-03-26 has batches (its servers *must* receive them;
2025-06-18 dropped them, and 2026-07-28 sends one message a line). :class:`Batches` is what
the transport's reader and writer (:mod:`.transport`) know of them: the version the handshake
negotiated (read from the server's answer to ``initialize``), and, for each batch under way, the
ids of its requests still unanswered and the answers gathered so far, which go out as one array,
as JSON-RPC answers a batch, once the last request is answered or cancelled (a cancelled request
gets no answer). The reader and the writer are tasks of one event loop: no lock.
"""

from dataclasses import dataclass, field
from typing import Any, Optional

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: The one protocol version that has batches.
SERVED_IN = "2025-03-26"


@dataclass
class _Batch:
    """One batch under way: the ids of its requests the server has not answered yet, and its answers."""

    waiting: set[Any]
    answers: list[dict[str, Any]] = field(default_factory=list)


class Batches:
    """The batches of one connection (see the module's docstring)."""

    def __init__(self) -> None:
        self.negotiated: Optional[str] = None  # the version of the handshake's answer
        self._initialize_ids: set[Any] = set()
        self._batch_of: dict[Any, _Batch] = {}  # the id of a request under way in a batch: its batch

    def served(self) -> bool:
        """Whether a batch is served (the handshake negotiated the version that has them)."""
        return self.negotiated == SERVED_IN

    def passed_on(self, method: Optional[str], request_id: Any) -> None:
        """Note a message passed to the server: an ``initialize``'s answer says the version."""
        if method == "initialize" and request_id is not None:
            self._initialize_ids.add(request_id)

    def watches(self, request_id: Any) -> bool:
        """Whether an answer to ``request_id`` concerns these records (an ``initialize``'s, or a batch's
        request's): the writer reads no other answer (an image's runs to megabytes)."""
        return request_id in self._initialize_ids or request_id in self._batch_of

    def in_use(self, request_id: Any) -> bool:
        """Whether ``request_id`` is a request of a batch under way (another with it would take its answer)."""
        return request_id in self._batch_of

    def start(self, waiting: list[Any], answers: list[dict[str, Any]]) -> Optional[list[dict[str, Any]]]:
        """A batch whose requests ``waiting`` go to the server and whose ``answers`` are already
        known; its answer now when none waits (None: later, or never for notifications only)."""
        batch = _Batch(set(waiting), list(answers))
        for request_id in waiting:
            self._batch_of[request_id] = batch
        return None if batch.waiting else (batch.answers or None)

    def cancelled(self, request_id: Any) -> Optional[list[dict[str, Any]]]:
        """A request cancelled by the client (the server will not answer it): its batch's answer
        when that was the last one it waited for."""
        batch = self._batch_of.pop(request_id, None)
        if batch is None:
            return None
        batch.waiting.discard(request_id)
        return None if batch.waiting else (batch.answers or None)

    def held(self, message: dict[str, Any]) -> tuple[bool, Optional[list[dict[str, Any]]]]:
        """A message from the server: ``(held, answer)``: whether it is an answer gathered into a
        batch (not written alone), and that batch's answer when it was the last one waited for."""
        request_id = message.get("id")
        if request_id in self._initialize_ids and isinstance(message.get("result"), dict):
            self._initialize_ids.discard(request_id)
            self.negotiated = message["result"].get("protocolVersion")
        if "method" in message or request_id not in self._batch_of:  # a notification, or no batch's
            return False, None
        batch = self._batch_of.pop(request_id)
        batch.waiting.discard(request_id)
        batch.answers.append(message)
        return True, (None if batch.waiting else batch.answers)
