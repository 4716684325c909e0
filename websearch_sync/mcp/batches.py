"""JSON-RPC batches over the MCP stdio transport, served where the negotiated version has them.

Of MCP's protocol versions only 2025-03-26 has batches (its servers *must* receive them;
2025-06-18 dropped them, and 2026-07-28 sends one message a line). :class:`Batches` is what
the transport's reader and writer (:mod:`.transport`) know of them: the version the handshake
negotiated (read from the server's answer to ``initialize``), and, for each batch under way, the
ids of its requests still unanswered and the answers gathered so far, which go out as one array,
as JSON-RPC answers a batch, once the last request is answered or settled unanswered (a request
the client cancelled: the SDK says so through the hook the transport gives each batch request).
Ids are compared as the SDK's dispatcher compares them (``coerce_request_id``: ``7`` and ``"7"``
are one id). The reader and the writer are tasks of one event loop: no lock.
"""

from dataclasses import dataclass, field
from typing import Any, Optional

from mcp.shared.dispatcher import coerce_request_id

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
            self._initialize_ids.add(_key(request_id))

    def watches(self, request_id: Any) -> bool:
        """Whether an answer to ``request_id`` concerns these records (an ``initialize``'s, or a batch's
        request's): the writer reads no other answer (an image's runs to megabytes)."""
        key = _key(request_id)
        return key in self._initialize_ids or key in self._batch_of

    def in_use(self, request_id: Any) -> bool:
        """Whether ``request_id`` is a request of a batch under way (another with it would take its answer)."""
        return _key(request_id) in self._batch_of

    def start(self, waiting: list[Any], answers: list[dict[str, Any]]) -> Optional[list[dict[str, Any]]]:
        """A batch whose requests ``waiting`` go to the server and whose ``answers`` are already
        known; its answer now when none waits (None: later, or never for notifications only)."""
        batch = _Batch({_key(request_id) for request_id in waiting}, list(answers))
        for request_id in waiting:
            self._batch_of[_key(request_id)] = batch
        return None if batch.waiting else (batch.answers or None)

    def unanswered(self, request_id: Any) -> Optional[list[dict[str, Any]]]:
        """A request of a batch the server settled without an answer (the client cancelled it): its
        batch's answer when that was the last one it waited for."""
        key = _key(request_id)
        batch = self._batch_of.pop(key, None)
        if batch is None:
            return None
        batch.waiting.discard(key)
        return None if batch.waiting else (batch.answers or None)

    def held(self, message: dict[str, Any]) -> tuple[bool, Optional[list[dict[str, Any]]]]:
        """A message from the server: ``(held, answer)``: whether it is an answer gathered into a
        batch (not written alone), and that batch's answer when it was the last one waited for."""
        if "method" in message:  # a notification or a request of the server's: no answer
            return False, None
        key = _key(message.get("id"))
        if key in self._initialize_ids:  # answered, whether accepted or refused: the id is free again
            self._initialize_ids.discard(key)
            result = message.get("result")
            if isinstance(result, dict) and isinstance(result.get("protocolVersion"), str):
                self.negotiated = result["protocolVersion"]
        if key not in self._batch_of:
            return False, None
        batch = self._batch_of.pop(key)
        batch.waiting.discard(key)
        batch.answers.append(message)
        return True, (None if batch.waiting else batch.answers)


def _key(request_id: Any) -> Any:
    """``request_id`` as the SDK's dispatcher correlates it (``"7"`` is ``7``); None stays None."""
    return None if request_id is None else coerce_request_id(request_id)
