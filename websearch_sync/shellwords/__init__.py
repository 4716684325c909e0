"""A word written as one argument of a command line shown to paste into a shell (standard library
only, below every layer that shows one): the command line's hints (``cli``) and the contract kit's
``record`` command in an error (``contract``) quote alike, for sh, cmd.exe and PowerShell."""

import re
import shlex
import sys
from typing import Optional

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: What sh, cmd.exe or PowerShell reads otherwise inside double quotes (an expansion, an escape, the end;
#: PowerShell takes typographic quotes for quotes).
_DOUBLE_QUOTED_SPECIAL = frozenset('$`\\"!%\n\r\u201c\u201d\u2018\u2019')
#: A word no shell reads anything in: shlex's own rule lets ``%PATH%`` (cmd.exe expands it) and
#: ``@x`` (PowerShell's splatting) through.
_BARE_WORD = re.compile(r"[A-Za-z0-9_\-./:=,+]+")


def shell_quote(word: str, platform: Optional[str] = None) -> str:
    """``word`` as one argument of a command line shown to paste into a shell: as it is when no
    shell reads anything in it; in double quotes when sh, cmd.exe and PowerShell all read them
    alike (``"python requests"``, ``"it's"``, ``"@x"``); else quoted for the shell of ``platform`` (default
    ``sys.platform``): ``shlex.quote``'s single quotes, which cmd.exe, Windows' own, does not
    know, there the C runtime's double quotes with backslash escapes, always (``"%PATH%"``, and a
    line break, which ends the command line bare)."""
    if _BARE_WORD.fullmatch(word):
        return word
    if not _DOUBLE_QUOTED_SPECIAL.intersection(word):
        return '"%s"' % word
    if (platform or sys.platform) == "win32":
        return _runtime_quoted(word)
    return shlex.quote(word)


def _runtime_quoted(word: str) -> str:
    """``word`` in double quotes as the C runtime reads an argument: a backslash is itself but
    before a quote, where each is doubled and the quote escaped (``subprocess.list2cmdline``'s
    rule, which leaves a word without a space or tab unquoted)."""
    quoted, backslashes = ['"'], 0
    for char in word:
        if char == "\\":
            backslashes += 1
            continue
        quoted.append("\\" * (2 * backslashes + 1) + '"' if char == '"' else "\\" * backslashes + char)
        backslashes = 0
    quoted.append("\\" * (2 * backslashes) + '"')
    return "".join(quoted)
