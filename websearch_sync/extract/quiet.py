"""readability's steps without their debug descriptions while its debug log is off.

readability-lxml formats a description of every candidate it scores, drops or keeps
(``describe(elem)``: the element, its parent, their classes and ids) into a ``log.debug``
message, whether or not the message is logged: about a twentieth of the extraction of a small
page. :func:`quiet_steps` gives readability's own step functions (the same code objects) a
namespace whose ``describe`` and ``text_content`` only describe while that log is enabled for
debug messages, so its debug log reads as before when it is on. The descriptions have no other
use (every call sits in a ``log.debug`` argument) and no effect on the steps (they only read the
tree; readability's own ``describe`` also keeps each described element in a module-wide table
until the next page, which is not done for a message never logged).
"""

import logging
import types
from typing import Any, Callable

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: readability's ``Document`` methods that describe elements for ``log.debug``.
STEPS = ("score_paragraphs", "select_best_candidate", "remove_unlikely_candidates", "sanitize")


def quiet_steps(document: type) -> dict[str, Callable[..., Any]]:
    """``{name: function}`` of :data:`STEPS` of readability's ``document`` class, each running its
    own code in a copy of its module's namespace whose descriptions are made only when logged."""
    from readability import debug, readability

    log = readability.log

    def describe(node: Any, depth: int = 1) -> str:
        return str(debug.describe(node, depth)) if log.isEnabledFor(logging.DEBUG) else ""

    def text_content(elem: Any, length: int = 40) -> str:
        return str(debug.text_content(elem, length)) if log.isEnabledFor(logging.DEBUG) else ""

    namespace = dict(vars(readability), describe=describe, text_content=text_content)
    steps: dict[str, Callable[..., Any]] = {}
    for name in STEPS:
        step = getattr(document, name)
        quiet = types.FunctionType(step.__code__, namespace, step.__name__, step.__defaults__, step.__closure__)
        quiet.__kwdefaults__, quiet.__qualname__, quiet.__doc__ = step.__kwdefaults__, step.__qualname__, step.__doc__
        steps[name] = quiet
    return steps
