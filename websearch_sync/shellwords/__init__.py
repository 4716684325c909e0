"""A word written as one argument of a command line shown to paste into a shell (standard library
only, below every layer that shows one): the command line's hints (``cli``) and the contract kit's
``record`` command in an error (``contract``) quote alike, for sh and, on Windows, PowerShell."""

import re
import shlex
import sys
from typing import Optional

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: What sh or PowerShell reads otherwise inside double quotes (an expansion, an escape, the end;
#: PowerShell takes typographic double quotes for quotes).
_DOUBLE_QUOTED_SPECIAL = frozenset('$`\\"!\n\r\u201c\u201d\u201e')
#: A word neither shell reads anything in: shlex's own rule lets ``@x`` (PowerShell's splatting) and
#: ``a,b`` (an array in PowerShell: two arguments) through.
_BARE_WORD = re.compile(r"[A-Za-z0-9_\-./:=+]+")
#: What ends a single-quoted string in PowerShell (its typographic single quotes too); doubled inside one.
_POWERSHELL_SINGLE_QUOTES = re.compile("['\u2018\u2019\u201a\u201b]")


def shell_quote(word: str, platform: Optional[str] = None) -> str:
    """``word`` as one argument of a command line shown to paste into a shell: as it is when no
    shell reads anything in it; in double quotes when sh and PowerShell both read them alike
    (``"python requests"``, ``"it's"``, ``"@x"``, ``"a,b"``); else quoted for the shell of ``platform``
    (default ``sys.platform``): ``shlex.quote``'s single quotes for sh, on Windows PowerShell's
    (``'$HOME'``, ``'it''s $HOME'``), where nothing is expanded and a quote is doubled."""
    if _BARE_WORD.fullmatch(word):
        return word
    if not _DOUBLE_QUOTED_SPECIAL.intersection(word):
        return '"%s"' % word
    if (platform or sys.platform) == "win32":
        return "'%s'" % _POWERSHELL_SINGLE_QUOTES.sub(lambda quote: quote.group() * 2, word)
    return shlex.quote(word)
