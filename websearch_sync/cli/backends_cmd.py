"""``websearch-sync backends``: what exists, what is configured, what it reads."""

import argparse
import logging
import sys
from typing import TYPE_CHECKING, Any, Optional

from ..config import Settings
from ..engine.option import by_declaration
from ..engine.stdout_claim import owner_stdout
from ..errors import InvalidInput, WebSearchError, cut_end
from ..net import browser
from ..net.browser import extra_hint, resolve_impersonate
from .output import EXIT_OK, add_impersonate, json_text

if TYPE_CHECKING:  # the engines (and requests) load when the command runs, not for --help
    from ..engine.base import Backend

__all__: list[str] = []  # internal: the public names are documented in docs/ and README


def add_parser(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the ``backends`` sub-command."""
    parser = commands.add_parser(
        "backends",
        help="list the backends, whether each is configured, and what it reads",
        description="List every registered backend (plugins too): its kind, the verticals it serves (web, news,"
        " images, videos), whether it is configured (else what to set), its rate limit, the transport it uses and"
        " the environment variables it reads; --json adds its endpoint, its declared settings and options"
        " (kinds, defaults, allowed values), the most results one call can give (max_results_limit, web search's"
        " or its first vertical's; null: the call's max_results; max_results_limits: each vertical's that has one)"
        " and the image and video filters it sends.",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    add_impersonate(parser)
    parser.set_defaults(run=run)


def transport_of(kind: str, profile: str) -> str:
    """The transport a backend of ``kind`` uses: keyless web pages go as the browser would
    ask for them (``curl_cffi/chrome``), API calls and everything with ``off`` over ``requests``."""
    return "curl_cffi/%s" % profile if kind == "html" and profile != "off" else "requests"


def backend_rows(settings: Settings) -> list[dict[str, Any]]:
    """One row per registered backend (environment variable names only, never values)."""
    from ..engine import registry

    profile = resolve_impersonate(settings.impersonate)
    rows = []
    for name in registry.backend_names():
        cls = registry.primary_class(name)
        variables = [setting.env for setting in cls.declared_settings() if setting.env]
        if cls.kind != "offline":
            variables.append("WEB_SEARCH_ENDPOINT_" + name.upper())
        row = blank_row(name, cls.kind)
        row.update(
            verticals=list(registry.verticals_of(name)),
            env=variables,
            min_interval_s=cls.min_interval_s,
            max_results_limit=cls.max_results_limit,  # a call for more gets these and is told (not_sent)
            max_results_limits=results_limits(name),
            transport=transport_of(cls.kind, profile) if cls.kind != "offline" else "-",
            summary=cls.summary,
            plugin=registry.plugin_source(name),  # which installed plugin, when one: its kind says json or html
            settings=[setting.describe() for setting in cls.declared_settings()],
            options=option_rows(name),
            filters=filter_rows(name),
        )
        try:  # the traceback of a plugin that cannot be built at DEBUG: the row says why, on every listing
            backend = registry.instance(cls, settings, logging.DEBUG)
        except WebSearchError as error:  # a plugin that cannot be built: listed, saying so
            row["error"] = error.message
        else:
            row.update(
                configured=backend.is_configured(),
                missing=[cls.setting(key).env_or_key() for key in backend.missing_settings()],
                endpoint=endpoint_of(backend),
            )
            unusable = unusable_endpoint(backend) if row["configured"] else None
            if unusable is not None:  # every setting there, but a search would be refused before a request
                row.update(configured=False, error=unusable)
        rows.append(row)
    return rows + [skipped_row(name, why) for name, why in registry.skipped_plugins().items()]


def blank_row(name: str, kind: str) -> dict[str, Any]:
    """A row of the listing with every field, before its backend's class is read: a skipped
    plugin's row stays so (nothing of it could be read)."""
    return {
        "name": name,
        "kind": kind,
        "verticals": [],
        "configured": False,
        "missing": [],
        "env": [],
        "min_interval_s": None,
        "max_results_limit": None,
        "max_results_limits": {},
        "transport": "-",
        "summary": "",
        "plugin": None,
        "endpoint": None,
        "settings": [],
        "options": [],
        "filters": {},
    }


def skipped_row(name: str, why: str) -> dict[str, Any]:
    """The row of an installed plugin that was skipped (a failed import...): listed with why, as
    the stderr warning of its loading scrolls by or a program's logging hides it."""
    from ..engine import registry

    return {**blank_row(name, "plugin"), "plugin": registry.plugin_source(name), "error": why}


def unusable_endpoint(backend: "Backend") -> Optional[str]:
    """Why a search of ``backend``, whose settings are all there, would be refused before any request
    (its endpoint no http(s) URL with a host, or a control character read from the environment in
    it: ``bad_endpoint``); ``None`` when it would be sent. Listed as configured, it was not. An
    offline backend (the stub) sends nothing: it has no endpoint to refuse, and was listed as
    "no (... has no endpoint configured: set WEB_SEARCH_ENDPOINT_STUB ...)" though it answers."""
    if backend.kind == "offline":
        return None
    try:
        backend.check_configured()
    except InvalidInput as error:
        return error.message
    return None


def endpoint_of(backend: "Backend") -> Optional[str]:
    """Where ``backend``'s requests go with these settings, as messages show a URL (no user
    info, no query: where credentials travel); ``None`` when offline or not configured."""
    from ..net.urls import shown_url

    if backend.kind == "offline":
        return None
    try:
        return shown_url(backend.endpoint_url())
    except InvalidInput:  # no URL configured (SearXNG without its base URL) or a bad setting
        return None


def filter_rows(name: str) -> dict[str, list[str]]:
    """The image and video filters backend ``name``'s engines send, each with the values they
    send (``--json``'s ``filters``; docs/verticals.md's table): what is not here is ``not_sent``."""
    from ..engine import registry

    return {
        filter_name: list(tokens)
        for vertical in registry.verticals_of(name)
        for filter_name, tokens in registry.backend_class(name, vertical).filters.items()
    }


def results_limits(name: str) -> dict[str, int]:
    """``{vertical: max_results_limit}`` of backend ``name``'s engines that have one (Startpage's
    images: 50, while its web search reads next pages): ``max_results_limit`` is one engine's."""
    from ..engine import registry

    engines = ((vertical, registry.backend_class(name, vertical)) for vertical in registry.verticals_of(name))
    return {vertical: cls.max_results_limit for vertical, cls in engines if cls.max_results_limit is not None}


def option_rows(name: str) -> list[dict[str, Any]]:
    """The options backend ``name`` declares, each distinct declaration once with the
    verticals whose engines declare it (``--json``'s ``options``, docs/backends.md's table)."""
    from ..engine import registry

    engines = [
        (vertical, registry.backend_class(name, vertical).declared_options())
        for vertical in registry.verticals_of(name)
    ]
    return [dict(option.describe(), verticals=verticals) for option, verticals in by_declaration(engines)]


def _settings() -> Settings:
    """The environment's settings; a bad ``WEB_SEARCH_BACKEND`` is reported but does not hide the table."""
    settings = Settings.from_env()
    if settings.env_backend_problem:
        sys.stderr.write("warning: %s\n" % settings.env_backend_problem)
    return settings


def transport_note(settings: Settings) -> str:
    """One line: the transport of web pages and fetch, and how to turn browser requests on when off."""
    profile = resolve_impersonate(settings.impersonate)
    if profile != "off":
        return "transport: web pages and fetch as %s (curl_cffi); API backends over requests" % profile
    how = "set WEB_SEARCH_IMPERSONATE=chrome" if browser.browser_available() else extra_hint()
    return "transport: requests for everything (browser requests off; to turn them on: %s)" % how


def environment_notes(settings: Settings) -> list[str]:
    """The lines said under the table: the transport, and a libxml2 older than the one the bound on
    a tag's attributes reads markup as (here, not logged at import: on Windows lxml's own wheels
    are older, and a warning reached every command's stderr)."""
    from lxml import etree

    from ..extract.crowded_tags import older_libxml2_warning

    older = older_libxml2_warning(etree.LIBXML_VERSION)
    return [transport_note(settings)] + (["warning: " + older] if older else [])


def run(args: argparse.Namespace) -> int:
    """Print the backend table, with the active transport and browser profile."""
    settings = _settings()
    if args.impersonate:
        settings = settings.replace(impersonate=args.impersonate)
    rows = backend_rows(settings)
    out = owner_stdout()
    if args.json:  # each row names its transport ("curl_cffi/chrome" or "requests"); the hint goes to stderr
        out.write(json_text(rows, out, indent=2) + "\n")
        sys.stderr.write("".join(line + "\n" for line in environment_notes(settings)))
        return EXIT_OK
    out.write(table_text(rows))
    out.write("\n" + "".join(line + "\n" for line in environment_notes(settings)))
    return EXIT_OK


def table_text(rows: list[dict[str, Any]]) -> str:
    """The listing's table, then the whole of each reason cut in it (:data:`MAX_REASON_CHARS`)."""
    said: list[str] = []
    header = ("BACKEND", "KIND", "VERTICALS", "CONFIGURED", "RATE LIMIT", "TRANSPORT", "ENVIRONMENT")
    table = [header] + [
        (
            r["name"],
            r["kind"],
            ",".join(r["verticals"]),
            "yes" if r["configured"] else "no (%s)" % cut_end(_reason(r), MAX_REASON_CHARS),
            "%.1f s" % r["min_interval_s"] if r["min_interval_s"] else "-",
            r["transport"],
            ", ".join(r["env"]) or "-",
        )
        for r in rows
    ]
    widths = [max(len(row[i]) for row in table) for i in range(len(header) - 1)]
    for row in table:
        said.append("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[-1] + "\n")
    cut = [
        "%s: %s" % (r["name"], _reason(r))
        for r in rows
        if not r["configured"] and _reason(r) != cut_end(_reason(r), MAX_REASON_CHARS)
    ]
    if cut:  # the whole of each reason cut in the table, one line each
        said.append("\nnot configured, why in full:\n" + "".join("  " + line + "\n" for line in cut))
    return "".join(said)


#: The most characters of why a backend is not configured in the table's CONFIGURED column: a
#: plugin's error (its message, its file and line) widened that column, so every row, to 230
#: characters; the whole reason is said under the table, and in ``--json``'s ``error``.
MAX_REASON_CHARS = 60


def _reason(row: dict[str, Any]) -> str:
    """Why the backend of ``row`` is not configured: its error, else the settings to set."""
    return str(row.get("error") or "set " + ", ".join(row["missing"]))
