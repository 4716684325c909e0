"""Handlers that take records Python would print on stderr, without hiding the others.

With no handler on a log record's way up the loggers, Python hands a warning or worse to its
last-resort handler, which prints it on stderr. A handler the package adds (the CLI's retry
lines, the PDF reader's notes of pypdf) takes that place for the records it wants; for the
other records it does what Python would have done without it (:func:`last_resort`, when
:func:`only_handler`). It imports nothing of the package.
"""

import logging
from typing import Optional

__all__: list[str] = []  # internal: the public names are documented in docs/ and README


def only_handler(handler: logging.Handler, record: logging.LogRecord) -> bool:
    """Whether ``handler`` is the only handler on ``record``'s way up the loggers (without it
    Python would give the record to its last-resort handler)."""
    logger: Optional[logging.Logger] = logging.getLogger(record.name)
    while logger is not None:
        if any(other is not handler for other in logger.handlers):
            return False
        logger = logger.parent if logger.propagate else None
    return True


def last_resort(record: logging.LogRecord) -> None:
    """Hand ``record`` to Python's last-resort handler, which prints a warning or worse on stderr."""
    if logging.lastResort is not None and record.levelno >= logging.lastResort.level:
        logging.lastResort.handle(record)
