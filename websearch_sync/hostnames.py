"""Why a host name is no host name, in the library's own words.

Python's IDNA codec decides (the resolver encodes a name with it, so a name it refuses cannot be
looked up), but its reasons are worded differently in each Python ("label empty or too long" up to
3.12, "'idna' codec can't encode character '\\x2e' in position 2: label empty" in 3.13): an error
message passing them through would change with the interpreter. :func:`idna_refusal` asks the
codec, then says which label is refused and why. A leaf module (standard library only): both
``validate`` (``site_filter``) and ``net`` (fetch and endpoint hosts) use it.
"""

import encodings.idna as idna
import unicodedata
from typing import Optional

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: The longest label DNS carries (RFC 1035), counted as IDNA encodes it.
MAX_LABEL = 63


def idna_refusal(host: str, *, read_back: bool = False) -> Optional[str]:
    """Why IDNA cannot encode ``host`` ("label 2 is empty", "label 1 is 64 characters long, over 63"),
    or ``None`` when it can. ``read_back`` also reads the encoded name back, refusing an ``xn--``
    label that is no punycode and an empty label hidden in a character nameprep maps to dots
    (``a\ufe52\ufe52b.com`` encodes to ``a..b.com``); a ``site_filter`` is sent as typed, so only
    the check reads it.

    The codec is the judge of encoding (a name it encodes is never refused for that here); the
    walk over the labels (as typed, then as encoded) only words its refusal, the same on every Python."""
    try:
        encoded = host.encode("idna")
    except UnicodeError:  # the codec's ToASCII refused a label as typed
        labels = host.split(".") if host.isascii() else idna.dots.split(host)
        return _first_refusal(labels, False) or "IDNA 2003 cannot encode it"
    if not read_back:
        return None
    # read back the labels of the encoded name, not those typed: a character nameprep maps to dots
    # (U+FE52, U+2024) makes one typed label two or more encoded ones, maybe empty
    encoded_labels = [label.decode("ascii") for label in encoded.split(b".")]
    try:
        encoded.lower().decode("idna")  # lower-cased: the codec takes only a lower-case xn-- as punycode
    except UnicodeError:
        return _first_refusal(encoded_labels, True) or "IDNA 2003 cannot read it back"
    return _first_refusal(encoded_labels, True)


def _first_refusal(labels: list[str], read_back: bool) -> Optional[str]:
    """The first of ``labels`` IDNA refuses, numbered, and why; ``None`` when none is."""
    for number, label in enumerate(_without_root(labels), 1):
        reason = _label_refusal(label, read_back)
        if reason is not None:
            return "label %d %s" % (number, reason)
    return None


def _without_root(labels: list[str]) -> list[str]:
    """``labels`` without the empty one a trailing dot gives: it names the root, no empty label."""
    return labels[:-1] if len(labels) > 1 and not labels[-1] else labels


def _label_refusal(label: str, read_back: bool) -> Optional[str]:
    """Why IDNA refuses ``label`` (the steps of its ToASCII, then ToUnicode when ``read_back``), or ``None``."""
    ascii_label = label
    if not label.isascii():
        try:
            prepared = idna.nameprep(label)
        except UnicodeError:
            refused = next((char for char in label if _refused_character(char)), None)
            if refused is not None:
                return "holds U+%04X, a character IDNA refuses" % ord(refused)
            return _bidi_refusal(label)
        if not prepared.isascii() and prepared.lower().startswith(idna.sace_prefix):
            return "starts with xn-- but is not ASCII"
        ascii_label = prepared if prepared.isascii() else "xn--" + prepared.encode("punycode").decode("ascii")
    if not ascii_label:
        return "is empty"
    if len(ascii_label) > MAX_LABEL:
        encoded = " once IDNA-encoded" if ascii_label != label else ""
        return "is %d characters long%s, over %d" % (len(ascii_label), encoded, MAX_LABEL)
    if read_back and ascii_label.lower().startswith(idna.sace_prefix):
        try:
            ascii_label.lower().encode("ascii").decode("idna")
        except UnicodeError:
            return "starts with xn-- but is no punycode"
    return None


def _refused_character(char: str) -> bool:
    """True when nameprep refuses ``char`` on its own (a prohibited character, not the bidi rule)."""
    try:
        idna.nameprep(char)
    except UnicodeError:
        return True
    return False


def _bidi_refusal(label: str) -> str:
    """Which of nameprep's bidi rules (RFC 3454 section 6) ``label`` breaks: it mixes right-to-left
    and left-to-right characters, or (right-to-left only) does not start and end with a
    right-to-left one (``\u05d01``: a digit is neither)."""
    directions = {unicodedata.bidirectional(char) for char in label}
    if "L" not in directions and directions & {"R", "AL"}:
        return "holds right-to-left characters but does not start and end with one"
    return "mixes right-to-left and left-to-right characters"
