"""Every error a user can get is in the docs' error table: each detail code the package
raises by name appears in docs/errors.md."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_ERROR_CLASSES = (
    "InvalidInput|AuthError|WebBlocked|BadGateway|Timeout|NetworkError|WebParseError|WebProviderError|ToolNotFound"
)
_LITERALS = (
    re.compile(r'detail_code\s*=\s*"([a-z0-9_]*[a-z0-9])"'),  # SomeError(..., detail_code="bad_url")
    re.compile(
        r'\(\s*(?:%s)\s*,\s*"([a-z0-9_]*[a-z0-9])"\s*\)' % _ERROR_CLASSES
    ),  # vendor tables: (AuthError, "invalid_api_key")
)


def _raised_detail_codes():
    codes = set()
    for path in (ROOT / "websearch_sync").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for pattern in _LITERALS:
            codes.update(pattern.findall(text))
    return codes


def test_every_detail_code_the_package_raises_is_in_the_error_table():
    codes = _raised_detail_codes()
    assert len(codes) > 50  # the scan itself works
    table = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
    missing = sorted(code for code in codes if "`%s`" % code not in table)
    assert not missing, missing
