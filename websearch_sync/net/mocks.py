"""Whether a test double has patched ``requests`` (``responses``, requests-mock, ``unittest.mock``).

Such a mock replaces a method of ``requests``' ``Session`` or ``HTTPAdapter``; a wire that opens
its own sockets (libcurl) would go around it and reach the real host. The transport asks
:func:`requests_patched` before each browser request and sends it through ``requests`` instead
while a patch is active, so the mock sees every request; :func:`say_once` logs that choice once
per reason, so a test run shows which wire carried its requests.
"""

import logging
from typing import Optional

import requests
import requests.adapters

from ..forks import module_lock

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

logger = logging.getLogger("websearch_sync")

#: The methods a mock of ``requests`` replaces (responses: ``HTTPAdapter.send``; requests-mock:
#: ``Session.send`` and ``Session.get_adapter``).
_PATCHABLE = (
    (requests.adapters.HTTPAdapter, "send"),
    (requests.Session, "send"),
    (requests.Session, "get_adapter"),
    (requests.Session, "request"),
)
_said: set[str] = set()
_said_lock = module_lock(__name__, "_said_lock")


def requests_patched() -> Optional[str]:
    """The top-level module whose function stands in for one of ``requests``' own methods
    (``"responses"``, ``"requests_mock"``, ``"unittest"``), or ``None`` when ``requests`` is as shipped."""
    for owner, attribute in _PATCHABLE:
        patcher = _patcher(owner, attribute)
        if patcher is not None:
            return patcher
    return None


def _patcher(owner: type, attribute: str) -> Optional[str]:
    module = getattr(getattr(owner, attribute, None), "__module__", None) or ""
    if module == "requests" or module.startswith("requests."):
        return None
    return module.split(".", 1)[0] or "an unknown module"


def say_once(message: str) -> None:
    """Log ``message`` (INFO, logger ``websearch_sync``) the first time it is said in this process."""
    with _said_lock:
        if message in _said:
            return
        _said.add(message)
    logger.info("%s", message)
