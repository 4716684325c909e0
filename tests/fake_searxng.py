"""A fake SearXNG instance on 127.0.0.1 that answers ``/search`` the way the real one does.

What it copies from SearXNG (searxng/searxng at 9fea412, August 2026) and from the recorded
answers of fixtures/searxng/ (shortlist__1.json, browse-API__1.json):

* ``searx/webapp.py``: a format not in ``search.formats`` is ``flask.abort(403)``, Werkzeug's
  standard 403 page (fixtures/searxng/http_403_json_format_disabled.meta.json);
* ``searx/webutils.py: get_json_response``: ``{query, results, answers, corrections,
  infoboxes, suggestions, unresponsive_engines}``; each result is shaped like the recorded ones
  (``template``, ``engine``, ``engines``, ``positions``, ``score``, ``category``,
  ``parsed_url`` ...); answers like ``searx/result_types/answer.py: Answer``, infoboxes like
  ``searx/engines/wikidata.py``;
* ``searx/webadapter.py``: ``engines=``/``categories=`` names it does not know are ignored
  (the default engines run), the engines named run beside those of the categories, and both
  are ignored while ``preferences.lock`` holds
  ``categories`` (``locked``); a result's ``category`` is its engine's first one; ``searx/search/__init__.py``: the engines get
  ``min(default timeout, timeout_limit)`` (the default timeout: the slowest own ``timeout`` of
  the engines asked), and the answer waits for them up to that; with
  ``outgoing.max_request_timeout`` set they get ``min(timeout_limit, max_request_timeout)``
  instead, their own timeouts left aside (``max_request_timeout``); a ``<N`` word in the query
  wins over ``timeout_limit`` (``searx/query.py: TimeoutParser``);
* ``searx/webapp.py: config``: ``GET /config`` lists every engine (``name``, ``categories``,
  ``enabled``, ``timeout`` ...) and the categories (``config=False``: an instance without it, 404);
* an engine that failed is listed as ``[engine, reason]`` (the list sorted by engine name:
  ``searx/webutils.py: get_translated_errors``), then suspended (``Suspended:
  <reason>``, not asked again) as ``searx/search/processors/abstract.py`` does; with a
  ``time_range`` an engine without ``time_range_support`` is not asked at all, and listed nowhere
  (``get_params`` returns ``None``);
* ``searx/webapp.py: search``: a query word ``!!name`` (an external bang) is answered with
  ``redirect(result_container.redirect_url)``, a 302 to that site's own search (``bang_site``
  + the rest of the query, as ``searx/external_bang.py`` builds it for ``!!g``);
* ``searx/botdetection``: the limiter's 429 ``Too Many Requests`` (``_helpers.py``) after
  ``API_MAX`` = 4 JSON requests (``ip_limit.py``), and on a public instance the redirect of a
  suspicious client from ``/search`` to ``/`` (``ip_limit.py`` with ``link_token``).

``front`` puts something in front of the instance: ``"cloudflare"`` (a challenge page with
``cf-mitigated: challenge``), ``"proxy"`` (nginx's 403 page) or ``"anubis"`` (Anubis's
proof-of-work challenge page, 200: fixtures/searxng/anubis_challenge.html, its template's markup).
"""

import copy
import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional
from urllib.parse import parse_qs, urlsplit

from faults import respond
from servers import FaultServer

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "searxng"

#: Werkzeug's 403 page, as ``flask.abort(403)`` sends it.
WERKZEUG_403 = (
    b"<!doctype html>\n<html lang=en>\n<title>403 Forbidden</title>\n<h1>Forbidden</h1>\n<p>You don&#39;t have the "
    b"permission to access the requested resource. It is either read-protected or not readable by the server.</p>\n"
)
#: Cloudflare's managed challenge (its title and the header Cloudflare documents for it).
CLOUDFLARE_CHALLENGE = (
    b'<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title>'
    b'<meta http-equiv="refresh" content="390"></head><body><div class="main-wrapper" role="main">'
    b"<noscript>Enable JavaScript and cookies to continue</noscript></div></body></html>"
)
#: nginx's own 403 page (an access rule in front of the instance).
NGINX_403 = b"<html>\r\n<head><title>403 Forbidden</title></head>\r\n<body>\r\n<center><h1>403 Forbidden</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"
#: The instance's home page (what a redirect to ``/`` shows).
HOME_PAGE = b'<!DOCTYPE html>\n<html class="no-js" lang="en"><head><title>SearXNG</title></head><body><form id="search" action="/search"></form></body></html>'


def recorded(name: str = "shortlist__1.json") -> dict[str, Any]:
    """A recorded SearXNG answer from fixtures/searxng/."""
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


_RESULT = recorded()["results"][0]  # the shape of one result, as a real instance sends it


@dataclass
class Engine:
    """One engine inside the instance: what it finds, how long it takes, or how it fails."""

    name: str
    categories: Sequence[str] = ("general",)
    results: int = 3
    delay_s: float = 0.0
    fails: Optional[str] = None  #: the reason SearXNG gives ("too many requests", "CAPTCHA", ...)
    default: bool = True  #: runs when a search names no engine or category
    timeout_s: Optional[float] = None  #: its own ``timeout`` (default: ``outgoing.request_timeout``)
    time_range_support: bool = True  #: False: not asked at all by a search with a time range
    asked: int = 0

    def result(self, position: int, query: str) -> dict[str, Any]:
        url = "https://%s.example/%d?q=%s" % (self.name.replace(" ", "-"), position, query.replace(" ", "+"))
        result = copy.deepcopy(_RESULT)
        parts = urlsplit(url)
        result.update(
            title="%s result %d" % (self.name, position),
            content="snippet %d from %s" % (position, self.name),
            url=url,
            engine=self.name,
            engines=[self.name],
            positions=[position],
            category=self.categories[0],
            parsed_url=[parts.scheme, parts.netloc, parts.path, "", parts.query, ""],
        )
        return result


@dataclass
class FakeSearXNG:
    """``with FakeSearXNG([Engine("google"), Engine("brave", fails="too many requests")]) as sx: sx.url``."""

    engines: list[Engine]
    formats: Sequence[str] = ("html", "json")
    request_timeout_s: float = 3.0  #: settings.yml ``outgoing.request_timeout``
    max_request_timeout_s: Optional[float] = None  #: settings.yml ``outgoing.max_request_timeout``
    config: bool = True  #: serves ``/config``
    bang_site: str = "https://www.google.com/search?q="  #: where ``!!g`` sends a search
    locked: Sequence[str] = ()  #: settings.yml ``preferences.lock`` (``categories``: the request's are ignored)
    limiter: bool = False
    public_instance: bool = False
    front: Optional[str] = None
    answers: list[dict[str, Any]] = field(default_factory=list)
    infoboxes: list[dict[str, Any]] = field(default_factory=list)
    suggestions: list[str] = field(default_factory=list)
    corrections: list[str] = field(default_factory=list)
    extra_results: list[dict[str, Any]] = field(default_factory=list)  #: raw results added as they are

    def __post_init__(self) -> None:
        self._suspended: dict[str, str] = {}
        self._json_requests = 0
        self._lock = threading.Lock()
        routes = {"/search": self._search, "/": respond(200, HOME_PAGE)}
        if self.config:
            routes["/config"] = self._config
        self.server = FaultServer(routes)

    def __enter__(self) -> "FakeSearXNG":
        self.server.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.__exit__(*exc)

    @property
    def url(self) -> str:
        """The instance's root URL (what SEARXNG_BASE_URL holds)."""
        return self.server.url("")

    @property
    def searches(self) -> list[dict[str, str]]:
        """The query parameters of every ``/search`` request that arrived."""
        return [
            {k: v[0] for k, v in parse_qs(urlsplit(r.path).query).items()}
            for r in self.server.requests
            if r.route == "/search"
        ]

    @property
    def config_reads(self) -> int:
        """How many ``/config`` requests arrived."""
        return sum(1 for r in self.server.requests if r.route == "/config")

    def own_timeout_s(self, engine: Engine) -> float:
        return engine.timeout_s if engine.timeout_s is not None else self.request_timeout_s

    # -- /config ----------------------------------------------------------------------------

    def _config(self, conn: Any, request: Any, server: FaultServer) -> None:
        categories = list(dict.fromkeys(c for e in self.engines for c in e.categories))
        engines = [
            {
                "name": e.name,
                "categories": list(e.categories),
                "shortcut": e.name[:2],
                "enabled": True,  # `default=False` models an engine outside the default categories
                "paging": True,
                "language_support": True,
                "languages": [],
                "regions": [],
                "safesearch": False,
                "time_range_support": e.time_range_support,
                "timeout": self.own_timeout_s(e),
            }
            for e in self.engines
        ]
        body = {"categories": categories, "engines": engines, "plugins": [], "instance_name": "SearXNG"}
        respond(200, json.dumps(body).encode("utf-8"), content_type="application/json")(conn, request, server)

    # -- /search ----------------------------------------------------------------------------

    def _search(self, conn: Any, request: Any, server: FaultServer) -> None:
        if self.front == "cloudflare":
            return respond(403, CLOUDFLARE_CHALLENGE, {"cf-mitigated": "challenge", "Server": "cloudflare"})(
                conn, request, server
            )
        if self.front == "proxy":
            return respond(403, NGINX_403, {"Server": "nginx"})(conn, request, server)
        if self.front == "anubis":
            return respond(200, (FIXTURES / "anubis_challenge.html").read_bytes())(conn, request, server)
        form = {k: v[0] for k, v in parse_qs(urlsplit(request.path).query).items()}
        blocked = self._limiter(form)
        if blocked is not None:
            return blocked(conn, request, server)
        if form.get("format", "html") not in self.formats:
            return respond(403, WERKZEUG_403)(conn, request, server)
        words = form.get("q", "").split()
        if any(word.startswith("!!") and len(word) > 2 for word in words):
            rest = "+".join(word for word in words if not word.startswith("!!"))
            redirecting = b"<!doctype html>\n<html lang=en>\n<title>Redirecting...</title>\n"
            return respond(302, redirecting, {"Location": self.bang_site + rest})(conn, request, server)
        body = self._answer(form, server)
        return respond(200, json.dumps(body).encode("utf-8"), content_type="application/json")(conn, request, server)

    def _limiter(self, form: dict[str, str]) -> Any:
        if not (self.limiter or self.public_instance) or form.get("format", "html") == "html":
            return None
        with self._lock:
            self._json_requests += 1
            count = self._json_requests
        if self.public_instance:  # link_token: an API client never loads the page's token, so it is suspicious
            return respond(302, b"<!doctype html>\n<html lang=en>\n<title>Redirecting...</title>\n", {"Location": "/"})
        if count > 4:  # API_MAX in API_WINDOW
            return respond(429, b"Too Many Requests")
        return None

    def _selected(self, form: dict[str, str]) -> list[Engine]:
        if "categories" in self.locked:  # searx/webadapter.py: parse_generic reads neither engines nor categories
            form = {k: v for k, v in form.items() if k not in ("engines", "categories")}
        known = {e.name: e for e in self.engines}
        named = [known[n.strip()] for n in form.get("engines", "").split(",") if n.strip() in known]
        categories = [c.strip() for c in form.get("categories", "").split(",") if c.strip()]
        by_category = [e for e in self.engines if set(e.categories) & set(categories)]
        if named:  # parse_generic: the engines named, and beside them those of the categories
            return named + [e for e in by_category if e not in named]
        return by_category or [e for e in self.engines if e.default]

    def _actual_timeout(self, engines: list[Engine], form: dict[str, str]) -> float:
        """``searx/search/__init__.py: Search._get_requests``: the time every engine is given."""
        default = max((self.own_timeout_s(e) for e in engines), default=self.request_timeout_s)
        asked = float(form["timeout_limit"]) if form.get("timeout_limit") else None
        in_query = [int(w[1:]) for w in form.get("q", "").split() if w.startswith("<") and w[1:].isdigit()]
        if in_query:  # searx/query.py: TimeoutParser, which wins over the form's timeout_limit
            asked = float(in_query[-1]) if in_query[-1] < 100 else in_query[-1] / 1000.0
        most = self.max_request_timeout_s
        if most is None:
            return default if asked is None else min(default, asked)
        return min(default, most) if asked is None else min(asked, most)

    def _answer(self, form: dict[str, str], server: FaultServer) -> dict[str, Any]:
        engines = self._selected(form)
        timeout = self._actual_timeout(engines, form)
        results: list[dict[str, Any]] = list(self.extra_results)
        unresponsive: list[list[str]] = []
        waited = 0.0
        for engine in engines:
            if engine.name in self._suspended:
                unresponsive.append([engine.name, "Suspended: " + self._suspended[engine.name]])
                continue
            if form.get("time_range") and not engine.time_range_support:  # skipped, said nowhere
                continue
            engine.asked += 1
            if engine.fails:
                unresponsive.append([engine.name, engine.fails])
                if engine.fails.lower() in ("too many requests", "captcha", "access denied"):
                    self._suspended[engine.name] = engine.fails
                continue
            if engine.delay_s > timeout:
                unresponsive.append([engine.name, "timeout"])
                waited = timeout
                continue
            waited = max(waited, engine.delay_s)
            results.extend(engine.result(i, form.get("q", "")) for i in range(1, engine.results + 1))
        server.wait(waited)
        return {
            "query": form.get("q", ""),
            "results": results,
            "answers": self.answers,
            "corrections": self.corrections,
            "infoboxes": self.infoboxes,
            "suggestions": self.suggestions,
            # searx/webutils.py: get_translated_errors returns them sorted by engine name
            "unresponsive_engines": sorted(unresponsive, key=lambda entry: entry[0]),
        }
