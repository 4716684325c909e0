"""pypdf's notes on the PDFs fetch reads, routed to the package's logger.

pypdf reports what it repaired in a malformed file (a wrong cross-reference offset, a stream
of the wrong length) as WARNING records of its modules' loggers (``pypdf._reader``...), not
as ``warnings``. With no logging configured, Python's last-resort handler prints such a
record on stderr: a fetch would write there, which a library must not do. So while a thread
reads a PDF for fetch (:func:`pypdf_notes_of`), each of pypdf's records that no handler of
the application would show is logged again on the ``websearch_sync`` logger, at INFO, naming
the host that served the PDF: silent by default, shown once the application turns logging on
for the package. A record that a handler of the application shows (logging configured at the
root) is left to it, not logged twice; pypdf's records from other threads (the application's
own use of pypdf) go where they went before, the last-resort handler included.
"""

import contextlib
import logging
import threading
from collections.abc import Iterator
from typing import Optional

from ..forks import module_lock
from .lastresort import last_resort, only_handler

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

logger = logging.getLogger("websearch_sync")

#: The logger above all of pypdf's.
PYPDF_LOGGER = "pypdf"

_reading = threading.local()  # .host: the host whose PDF this thread reads, while it does
_install = module_lock(__name__, "_install")


class _PypdfNotes(logging.Handler):
    """On pypdf's logger: a record of a thread reading a PDF for fetch goes to the package's
    logger; any other goes to the last-resort handler when no other handler would see it,
    as if this one were not there."""

    def emit(self, record: logging.LogRecord) -> None:
        if not only_handler(self, record):
            return  # the application's logging shows it
        host: Optional[str] = getattr(_reading, "host", None)
        if host is None:
            last_resort(record)
        else:
            logger.info("pypdf, reading a PDF from %s: %s", host, record.getMessage())


_HANDLER = _PypdfNotes()


@contextlib.contextmanager
def pypdf_notes_of(host: str) -> Iterator[None]:
    """Within the block, pypdf's log records of this thread are notes on a PDF from ``host``
    (see the module's docstring)."""
    with _install:
        pypdf_logger = logging.getLogger(PYPDF_LOGGER)
        if _HANDLER not in pypdf_logger.handlers:
            pypdf_logger.addHandler(_HANDLER)
    outer = getattr(_reading, "host", None)
    _reading.host = host
    try:
        yield
    finally:
        _reading.host = outer
