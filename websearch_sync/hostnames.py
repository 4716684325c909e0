"""Why a host name is no host name, in the library's own words.

Python's IDNA codec decides (the resolver encodes a name with it, so a name it refuses cannot be
looked up), but its reasons are worded differently in each Python ("label empty or too long" up to
3.12, "'idna' codec can't encode character '\\x2e' in position 2: label empty" in 3.13): an error
message passing them through would change with the interpreter. :func:`idna_refusal` asks the
codec, then says which label is refused and why. A leaf module (standard library only): both
``validate`` (``site_filter``) and ``net`` (fetch and endpoint hosts) use it.
"""

import encodings.idna as idna
from typing import Optional

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: The longest label DNS carries (RFC 1035), counted as IDNA encodes it.
MAX_LABEL = 63


def idna_refusal(host: str, *, read_back: bool = False) -> Optional[str]:
    """Why IDNA cannot encode ``host`` ("label 2 is empty", "label 1 is 64 characters long, over 63"),
    or ``None`` when it can. ``read_back`` also reads the encoded name back, refusing an ``xn--``
    label that is no punycode (a ``site_filter`` is sent as typed, so only the check reads it).

    The codec is the judge (a name it encodes is never refused here); the walk over the labels
    only words its refusal, the same on every Python."""
    try:
        encoded = host.encode("idna")
        if read_back:  # lower-cased: the codec takes only a lower-case xn-- as punycode
            encoded.lower().decode("idna")
        return None
    except UnicodeError:
        pass
    labels = host.split(".") if host.isascii() else idna.dots.split(host)
    if len(labels) > 1 and not labels[-1]:
        labels.pop()  # one trailing dot names the root: no empty label
    for number, label in enumerate(labels, 1):
        reason = _label_refusal(label, read_back)
        if reason is not None:
            return "label %d %s" % (number, reason)
    return "IDNA 2003 cannot encode it"  # no label at fault: the codec refused the whole name


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
            return "mixes right-to-left and left-to-right characters"  # nameprep's bidi rule
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
