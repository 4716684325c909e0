"""Whether a test double has patched ``requests`` (``responses``, requests-mock, ``unittest.mock``).

Such a mock replaces a method of ``requests``' ``Session`` or ``HTTPAdapter``; a wire that opens
its own sockets (libcurl) would go around it and reach the real host. The transport asks
:func:`requests_patched` before each browser request and sends it through ``requests`` instead
while a patch is active, so the mock sees every request; :func:`say_once` logs that choice once
per reason, so a test run shows which wire carried its requests.
"""

import logging
import sys
from typing import Optional

from ..errors import CONNECTION_ERROR, NetworkError
from ..once import Once

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

logger = logging.getLogger("websearch_sync")

#: The methods a mock of ``requests`` replaces (responses: ``HTTPAdapter.send``; requests-mock:
#: ``Session.send`` and ``Session.get_adapter``), by the names of their class in ``requests``.
_PATCHABLE = (
    ("adapters", "HTTPAdapter", "send"),
    ("sessions", "Session", "send"),
    ("sessions", "Session", "get_adapter"),
    ("sessions", "Session", "request"),
)
#: The messages :func:`say_once` has logged.
_SAID = Once()


def requests_patched() -> Optional[str]:
    """The top-level module whose function stands in for one of ``requests``' own methods
    (``"responses"``, ``"requests_mock"``, ``"unittest"``), or ``None`` when ``requests`` is as shipped."""
    for module, owner, attribute in _PATCHABLE:
        # nothing patched requests before it was imported (and this imports no requests)
        cls = getattr(sys.modules.get("requests." + module), owner, None)
        patcher = _patcher(cls, attribute) if cls is not None else None
        if patcher is not None:
            return patcher
    return None


def _patcher(owner: type, attribute: str) -> Optional[str]:
    module = getattr(getattr(owner, attribute, None), "__module__", None) or ""
    if module == "requests" or module.startswith("requests."):
        return None
    return module.split(".", 1)[0] or "an unknown module"


#: The text ``responses`` opens its refusal of a request no mock is registered for with (a bare
#: ``requests.ConnectionError``, as a failed connection is).
_RESPONSES_REFUSAL = "Connection refused by Responses"


def foreign_refusals() -> tuple[type[Exception], ...]:
    """The exceptions a mock of ``requests`` refuses a request with that are no ``RequestException``
    of ``requests``: requests-mock's ``NoMockAddress``, once requests-mock is imported."""
    requests_mock = sys.modules.get("requests_mock.exceptions")
    return (requests_mock.NoMockAddress,) if requests_mock is not None else ()


def refusing_mock(exc: BaseException) -> Optional[str]:
    """The mock of ``requests`` that raised ``exc`` for a request no mock is registered for
    (``"requests_mock"``, ``"responses"``), told by the exception itself (another mock may be active
    around it), or ``None``: a failed connection, or a failure a test registered."""
    if isinstance(exc, foreign_refusals()):
        return "requests_mock"
    requests_errors = sys.modules.get("requests.exceptions")  # imported: a wire of requests raised ``exc``
    connection_error = requests_errors.ConnectionError if requests_errors is not None else ()
    if isinstance(exc, connection_error) and str(exc).startswith(_RESPONSES_REFUSAL):
        return "responses"
    return None


def refusal(host: str, exc: BaseException, provider: Optional[str]) -> NetworkError:
    """The error for ``exc``, a mock's refusal of a request it has no answer for, said as its refusal
    (:func:`refusing_mock` names it): ``connection failed`` alone reads as if the network had been
    tried. Not retryable: the mock has no answer on a retry either."""
    return NetworkError(
        "connection failed: %s (refused by %s, which patches requests: no mock is registered for this request)"
        % (host, refusing_mock(exc) or "a mock"),
        provider=provider,
        detail_code=CONNECTION_ERROR,
        retryable=False,
    )


def say_once(message: str) -> None:
    """Log ``message`` (INFO, logger ``websearch_sync``) the first time it is said in this process."""
    if _SAID.first(message):
        logger.info("%s", message)
