"""Time of ``Redactor.body`` (``record``'s secret search) on a large page, its patterns as they were
(the short-token form's lookbehinds leading it; the secrets' spellings an alternation of one group each,
which ``re`` cannot skip ahead in) and as they are (the spellings first, as one alternation of choices
each beginning with a literal; a token's left edge checked where one is found), side by side in one run.

    python bench/redaction.py [--size BYTES] [--repeat N]

The page: the largest recorded HTML fixtures joined and cut to ``--size`` (default 1.9 MB), with a few
echoes of the secrets sown in it. The secrets: two long ones (settings: replaced everywhere) and two
short sent tokens (``ab12x``, ``k-9x``: each standing whole, and as a whole token in prose). CPU time of
this thread, best of ``--repeat`` (default 3). Each line: the whole body (every form), then the token
form alone, the long secrets' pattern alone, the form of a short one as a JSON string alone (a JSON
body's); the outputs of the two are checked equal.

Then a redactor of nine keys of 23-31 characters (settings: replaced everywhere), its spellings as they
were (each key's rest spelt again after each of its first character's 13 or more spellings, each
character's spellings one alternation of them whole: a pattern of 779 KB) and as they are (each rest
once, common leading characters once: :func:`recording._spelt_any`): the CPU time of making it, with
every cache of patterns emptied first (as in a ``websearch-sync record`` run, which makes one), and of
``Redactor.body`` on the page with echoes of the keys sown in it (outputs checked equal).
"""

import argparse
import random
import re
import string
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from websearch_sync.contract import recording  # noqa: E402
from websearch_sync.contract.replay import PLACEHOLDER  # noqa: E402

#: The token form as it was before the left edge moved out of the pattern.
LOOKBEHIND_FIRST = (
    r"(?:(?<![^\W_])|(?<=%%[0-9A-Fa-f]{2})|(?<=%%25[0-9A-Fa-f]{2})|(?<=\\u[0-9A-Fa-f]{4})|(?<=\\[bfnrt]))"
    r"(?:%s)(?![^\W_])"
)
LONG = ["tok/en+9f3a77c1", "k3y-9f3a77c1abcd"]
SHORT = ["ab12x", "k-9x"]
#: Nine keys of 23-31 characters (the setup figure's), and their echoes as plain text and URL-encoded.
KEYS = [
    "".join(random.Random(7 + n).choice(string.ascii_letters + string.digits + "-_") for _ in range(n))
    for n in range(23, 32)
]
KEY_ECHOES = " ".join(" %s %s " % (key, recording.quote(key, safe="")) for key in KEYS[::3])
ECHOES = " tok%2Fen%2B9f3a77c1 the ab12x key, xab12x, k-9x; k3y-9f3a77c1abcd &#97;b12x %2Fk-9x "


def page(size: int) -> str:
    """The largest fixture pages joined, cut to ``size`` bytes, with echoes every 100 KB."""
    files = sorted((ROOT / "fixtures").rglob("*.html"), key=lambda p: p.stat().st_size, reverse=True)
    data = b""
    for path in files:
        data += path.read_bytes()
        if len(data) >= size:
            break
    text = data[:size].decode("utf-8", "surrogateescape")
    step = 100_000
    return "".join(text[i : i + step] + ECHOES for i in range(0, len(text), step))


def _char_spellings_as_it_was(char: str) -> str:
    return "(?:" + "|".join(recording._char_forms(char)) + ")"


def _spelt_any_as_it_was(secrets: list[str]) -> str:
    return "|".join(
        first + "".join(_char_spellings_as_it_was(char) for char in secret[1:])
        for secret in secrets
        for first in recording._char_forms(secret[0])
    )


def made(as_it_was: bool) -> tuple[float, "recording.Redactor"]:
    """The CPU time of making a redactor of :data:`KEYS` (every cache of patterns emptied), and it."""
    kept = recording._char_spellings, recording._spelt_any
    if as_it_was:
        recording._char_spellings, recording._spelt_any = _char_spellings_as_it_was, _spelt_any_as_it_was
    for cache in (recording._compiled, recording._char_forms, kept[0]):
        cache.cache_clear()
    re.purge()
    try:
        start = time.thread_time()
        redactor = recording.Redactor(KEYS, whole=SHORT)
        return time.thread_time() - start, redactor
    finally:
        recording._char_spellings, recording._spelt_any = kept


def best(function, repeat: int) -> tuple[float, object]:
    """The least CPU time of ``repeat`` calls, and the last result."""
    times, result = [], None
    for _ in range(repeat):
        start = time.thread_time()
        result = function()
        times.append(time.thread_time() - start)
    return min(times), result


def main() -> None:
    """Print the before/after figures."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=1_900_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    text = page(args.size)
    data = text.encode("utf-8", "surrogateescape")
    new = recording.Redactor(LONG, whole=SHORT)
    old = recording.Redactor(LONG, whole=SHORT)
    spelt = "|".join(recording._spelt(s) for s in SHORT if not recording._reads_as_word(s))  # as it was
    lookbehind = re.compile(LOOKBEHIND_FIRST % spelt)
    old._standing_forms[0] = (lookbehind, PLACEHOLDER)
    old._pattern = re.compile("|".join(recording._spelt(s) for s in recording._longest_first(LONG)))  # as it was
    old._in_json = re.compile(r'(?<!\\)"(?:%s)"' % "|".join(recording._spelt(s) for s in SHORT))  # as it was
    token = new._standing_forms[0][0]
    print("page: %d bytes, secrets: %d long, %d short" % (len(data), len(LONG), len(SHORT)))
    rows = [
        ("Redactor.body", lambda r: lambda: r.body(data, "body")),
        ("token form alone", lambda r: lambda: r._standing_forms[0][0].sub(PLACEHOLDER, text)),
        ("long secrets alone", lambda r: lambda: r._pattern.sub(PLACEHOLDER, text)),
        ("JSON string form", lambda r: lambda: r._in_json.sub('"%s"' % PLACEHOLDER, text)),
    ]
    print("%-18s %12s %12s" % ("", "as it was", "as it is"))
    for name, call in rows:
        before, old_out = best(call(old), args.repeat)
        after, new_out = best(call(new), args.repeat)
        assert old_out == new_out, name
        print("%-18s %11.3fs %11.3fs" % (name, before, after))
    assert token is not lookbehind
    print("nine keys of 23-31 characters:")
    (before, old), (after, new) = made(True), made(False)
    print(
        "%-18s %11.3fs %11.3fs   (pattern %d KB, %d KB)"
        % ("Redactor setup", before, after, len(old._pattern.pattern) // 1000, len(new._pattern.pattern) // 1000)
    )
    step = 100_000
    keyed = "".join(text[i : i + step] + KEY_ECHOES for i in range(0, len(text), step)).encode(
        "utf-8", "surrogateescape"
    )
    before, old_out = best(lambda: old.body(keyed, "body"), args.repeat)
    after, new_out = best(lambda: new.body(keyed, "body"), args.repeat)
    assert old_out == new_out and old_out != keyed
    print("%-18s %11.3fs %11.3fs" % ("Redactor.body", before, after))


if __name__ == "__main__":
    main()
