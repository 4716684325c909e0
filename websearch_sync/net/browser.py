"""Which wire carries a browser's requests, and where certificates come from.

``impersonate`` (``Settings.impersonate``, ``WEB_SEARCH_IMPERSONATE``, ``--impersonate``):
``chrome`` (the default when the ``browser`` extra is installed) or ``off`` (the
library's own ``requests`` client, the default without the extra). Only profiles the
fingerprint lab finds consistent are offered: ``firefox`` and ``safari`` are refused
with the lab's finding (a browser that is wrong in one layer is worse than none).
``curl_cffi`` is imported only when a browser wire is built.
"""

import importlib.util
import os
from typing import TYPE_CHECKING, Optional

from ..errors import MISSING_BROWSER_EXTRA, InvalidInput, install_hint
from ..validate import IMPERSONATE_CHOICES as IMPERSONATE_CHOICES  # re-exported: the wire's vocabulary
from ..validate import check_impersonate

if TYPE_CHECKING:
    from .wire import Wire

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: Whether the extra was found: a positive answer is kept, since every new transport asks.
_found = False


def browser_available() -> bool:
    """True when the ``browser`` extra (``curl_cffi``) is installed. Once found it is not looked up
    again (every new transport asks, and the lookup searches the import path: 0.5 ms); "not
    installed" is asked afresh, so an extra installed into a running process (a notebook, a
    long-running host) is picked up by the next transport."""
    global _found
    if not _found:
        _found = importlib.util.find_spec("curl_cffi") is not None
    return _found


def extra_hint() -> str:
    """How to turn browser requests on: install the ``browser`` extra (:func:`~..errors.install_hint`)."""
    return "install " + install_hint("browser")


def resolve_impersonate(value: Optional[str], *, need_extra: bool = True) -> str:
    """The profile to use (``"off"`` for none). ``None`` means the default: ``WEB_SEARCH_IMPERSONATE``
    when set (a process-wide switch, like ``HTTPS_PROXY``: it also reaches settings built in
    code), else ``chrome`` when the extra is installed, else ``off``. ``InvalidInput(bad_impersonate)``
    for an unknown or refused value, ``InvalidInput(missing_browser_extra)`` for a profile without the
    extra, unless ``need_extra`` is false (a caller's wire sends the requests: only the profile's
    request building is used, which needs no ``curl_cffi``)."""
    if value is None or value == "":
        value = os.environ.get("WEB_SEARCH_IMPERSONATE", "").strip() or None
    if value is None:
        return "chrome" if browser_available() else "off"
    name = check_impersonate(value)
    if name != "off" and need_extra and not browser_available():
        raise InvalidInput(
            "impersonate=%s needs curl_cffi: %s; %s" % (name, extra_hint(), _TURN_OFF),
            detail_code=MISSING_BROWSER_EXTRA,
        )
    return name


_TURN_OFF = "or turn it off (--impersonate off, WEB_SEARCH_IMPERSONATE=off, impersonate='off')"


def browser_wire(profile: str, *, proxy: Optional[str], ca_bundle: Optional[str]) -> "Wire":
    """The browser wire of ``profile`` (one :func:`resolve_impersonate` gave, not ``"off"``);
    ``InvalidInput(missing_browser_extra)`` when ``curl_cffi`` is installed but fails to import."""
    try:
        from .wire_curl import CurlWire  # the optional dependency, imported only when used
    except ImportError as exc:  # installed (resolve_impersonate found it) but broken: a half-upgrade, a missing libcurl
        raise InvalidInput(
            "impersonate=%s needs curl_cffi, which is installed but fails to import (%s: %s): %s again; %s"
            % (profile, type(exc).__name__, exc, extra_hint(), _TURN_OFF),
            detail_code=MISSING_BROWSER_EXTRA,
        ) from exc
    return CurlWire(profile, proxy=proxy, ca_bundle=ca_bundle)


def ca_bundle_path(configured: Optional[str]) -> Optional[str]:
    """The CA bundle both wires verify against: the configured one (``Settings.ca_bundle``,
    ``WEB_SEARCH_CA_BUNDLE``), else ``REQUESTS_CA_BUNDLE``, else ``SSL_CERT_FILE``, else
    ``None`` (each wire's default store)."""
    for value in (configured, os.environ.get("REQUESTS_CA_BUNDLE"), os.environ.get("SSL_CERT_FILE")):
        if value:
            return value
    return None
