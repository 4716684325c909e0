"""The fields of a record read back from Redis, each checked as untrusted input: text of at most a
few characters, a line without control characters (what a message or a hint may show). A value of
another type is ``None``: the record's reader decides whether the record is then of any use."""

import json
import re
from typing import Any, Optional

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: The longest hint a record carries (a limiter's advice is a sentence or two).
MAX_HINT_CHARS = 500
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def text_field(value: Any, limit: int = 64) -> Optional[str]:
    """``value`` cut to ``limit`` characters when it is text, else ``None``."""
    return value[:limit] if isinstance(value, str) else None


def line_field(value: Any, limit: int = MAX_HINT_CHARS) -> Optional[str]:
    """``value`` as :func:`text_field` gives it, each control character a space (shown to a user:
    a planted escape sequence would reach a terminal); ``None`` for empty text too."""
    text = text_field(value, limit)
    return _CONTROL.sub(" ", text) if text else None


def status_field(value: Any) -> Optional[int]:
    """``value`` when it is an HTTP status (a whole number 100..599), else ``None``."""
    return value if isinstance(value, int) and not isinstance(value, bool) and 100 <= value <= 599 else None


def json_object(value: Optional[bytes]) -> Optional[dict[str, Any]]:
    """The JSON object ``value`` holds, or ``None`` (absent, not JSON, nested too deep, not an object)."""
    if value is None:
        return None
    try:
        data = json.loads(value)
    except (ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None
