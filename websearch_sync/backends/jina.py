"""``jina``: Jina AI's search endpoint, ``GET https://s.jina.ai/?q=…`` (Bearer key, JSON).

s.jina.ai reads every result page by default (about 10k tokens per search);
without ``include_content`` we ask for ``X-Respond-With: no-content`` so only the
result list is billed. Errors come as ``{"code": 401, "name":
"AuthenticationRequiredError", "status": 40103, "message": ..., "data": null}``:
``code`` is the HTTP status; 402 (``InsufficientBalanceError``) is an account
problem (``AuthError``). The free plan allows 40 requests per minute.

A query without results is no success on Jina's side either: it answers HTTP 422
``{"code": 422, "name": "AssertionFailureError", "status": 42206, "message": "No search results
available for query ..."}`` (a live answer quoted in egoist/chatwise-releases#1288). That
answer is "no results" (``items: []``), not an error that would stop a batch or a fallback.

How many results, the country and the language are the search's own parameters ``num``,
``gl`` and ``hl`` (Jina's API reference lists them in the POST body; its server,
jina-ai/reader ``src/api/searcher.ts``, reads the same parameters from a GET query string):
``num`` is 0..20 (10 when not sent), ``gl`` a country code in any case, ``hl`` one of Google's
interface-language codes exactly as it lists them (``zh-cn``, ``pt-br``, ``iw`` for Hebrew), any
other value refused with an error. So ``num`` is ``max_results`` (at most 20), ``gl`` the
locale's region and ``hl`` its language when Jina lists them (:data:`GL_CODES`, :data:`HL_CODES`),
else none.
"""

import dataclasses
from typing import Any, Optional

from ..engine.base import answer_within_s
from ..engine.json_api import JsonApiBackend, try_json, vendor_text
from ..engine.locales import split_locale, traditional_chinese
from ..engine.setting import Setting
from ..engine.unsent import locale_parts_unsent, said_in
from ..errors import WebSearchError
from ..models import SearchParams
from ..net.deadline import Deadline
from ..net.transport import HttpResponse, RequestSpec

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: How Jina's answer to a query without results begins its message (HTTP 422, status 42206).
_NO_RESULTS = "No search results available"
#: A snippet taken from the page text (when a result has no description) is cut here.
SNIPPET_FROM_CONTENT_CHARS = 300
#: The longest ``X-Timeout`` Jina takes (seconds).
_MAX_TIMEOUT_S = 180
#: The most results one search gives (Jina's ``num``/``count`` range, 0..20).
MAX_RESULTS = 20
#: Jina's ``hl`` values (``WORLD_LANGUAGES`` of jina-ai/reader ``src/3rd-party/serper-search.ts``,
#: Google's interface languages, its joke ones left out); any other is refused.
HL_CODES = frozenset(
    "af ak sq am ar hy az eu be bem bn bh bs br bg km ca chr ny zh-cn zh-tw co hr cs da nl en eo et ee fo tl "
    "fi fr fy gaa gl ka de el gn gu ht ha haw iw hi hu is ig id ia ga it ja jw kn kk rw rn kg ko kri ku ckb "
    "ky lo la lv ln lt loz lg ach mk mg ms ml mt mi mr mfe mo mn sr-ME ne pcm nso no nn oc or om ps fa pl pt "
    "pt-br pt-pt pa qu ro rm nyn ru gd sr sh st tn crs sn sd si sk sl so es es-419 su sw sv tg ta tt te th "
    "ti to lua tum tr tk tw ug uk ur uz vi cy wo xh yi yo zu".split()
)
_HL_BY_LOWER = {code.lower(): code for code in HL_CODES}
#: Jina's ``gl`` values (``WORLD_COUNTRIES`` of the same file: ISO 3166-1 codes with AN, EU and XK);
#: any other is refused (``en-UK``, a common slip for ``en-GB``).
GL_CODES = frozenset(
    "AD AE AF AG AI AL AM AN AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BM BN BO BR BS BT BV BW BY BZ "
    "CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET EU FI FJ FK FM "
    "FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS "
    "IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MG MH MK ML MM "
    "MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR "
    "PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR ST SV SY SZ TC TD TF TG TH TJ TK "
    "TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM ZW".split()
)
#: Languages whose code in Jina's list is not the ISO 639-1 one (Google's older codes).
_HL_ALIASES = {"he": "iw", "jv": "jw", "fil": "tl", "nb": "no"}


class Jina(JsonApiBackend):
    """The Jina AI search API (s.jina.ai)."""

    name = "jina"
    unsent = ("safe_search", "time_range")  # Jina has no such parameters (docs/backends.md)
    auto_rank = 60
    text_format = "text"  # titles and descriptions are plain text (a bare "&" in the recording)
    provides_content = True
    max_results_limit = MAX_RESULTS  # one request a search, no next page: a call for more is told (not_sent)
    summary = "Jina AI search, s.jina.ai (needs JINA_API_KEY)"
    default_base_url = "https://s.jina.ai"
    endpoint_path = "/"
    provider_settings = (
        Setting("api_key", env="JINA_API_KEY", required=True),
        Setting("reader_url", kind="url"),  # Jina Reader's URL, read by fetch (websearch_sync.reader.service)
    )
    min_interval_s = 1.5  # 40 requests per minute with a free key
    results_at = "data"
    result_fields = {"title": "title", "url": "url", "snippet": "description", "published_at": "date"}
    content_field = "content"  # the page text (include_content)

    def build_request(self, params: SearchParams) -> RequestSpec:
        """``GET /?q=…&num=…`` (``gl``, ``hl`` from the locale); page texts only when ``include_content`` is asked."""
        headers = self.json_headers(self.bearer())
        if not params.include_content:
            headers["X-Respond-With"] = "no-content"
        query = {"q": params.full_query, "num": str(min(params.max_results, self.max_results_limit))}
        query.update(_locale_fields(params.locale))
        return RequestSpec("GET", self.endpoint_url(), params=query, headers=headers)

    def dropped(self, params: SearchParams) -> tuple[str, ...]:
        """The parts of the locale Jina does not list (:func:`~..engine.unsent.locale_parts_unsent`); an
        ``hl`` with a region (``es-419``, ``pt-br``) carries the region too."""
        fields = _locale_fields(params.locale)
        return locale_parts_unsent("hl" in fields, "gl" in fields or "-" in fields.get("hl", ""))

    def said_locale(self, params: SearchParams) -> Optional[str]:
        """``hl`` (``zh-tw`` says Traditional Chinese) and ``gl`` (:func:`~..engine.unsent.said_in`)."""
        fields = _locale_fields(params.locale)
        return said_in(fields.get("hl"), fields.get("gl"))

    def fit_request(self, spec: RequestSpec, deadline: Deadline) -> RequestSpec:
        """With page texts asked, ``X-Timeout``: the whole seconds (1..180) Jina may spend reading the
        pages before it answers with what it read (:func:`~websearch_sync.engine.base.answer_within_s`):
        it races them against its own 15 s otherwise (jina-ai/reader ``src/api/searcher.ts``), so a
        call of 15 s timed out before the answer came. The result list alone comes at once: nothing sent."""
        if (spec.headers or {}).get("X-Respond-With") == "no-content":
            return spec
        seconds = min(_MAX_TIMEOUT_S, max(1, int(answer_within_s(deadline))))
        return dataclasses.replace(spec, headers=dict(spec.headers or {}, **{"X-Timeout": str(seconds)}))

    def answer_error(self, response: HttpResponse) -> Optional[WebSearchError]:
        """The shared mapping, except Jina's answer to a query without results (not an error)."""
        if response.status == 422 and _no_results(try_json(response)):
            return None
        return super().answer_error(response)

    def error_envelope(self, data: Any) -> Optional[tuple[Any, Optional[str]]]:
        """``{"code": <status>, "name", "message", "data": null}`` whenever ``code`` is not 200."""
        if not isinstance(data, dict) or "code" not in data or data["code"] in (200, "200"):
            return None
        words = [vendor_text(data.get(key)) for key in ("name", "message")]
        return data["code"], ": ".join(word for word in words if word) or None

    def results(self, data: Any, params: SearchParams) -> list[Any]:
        """``data[]``; none in Jina's answer to a query without results."""
        return [] if _no_results(data) else super().results(data, params)

    def item_of(self, result: dict[str, Any], params: SearchParams) -> dict[str, Any]:
        """A result without ``description`` has the start of its page text as the snippet."""
        item = super().item_of(result, params)
        content = result.get("content")
        if not item["snippet"] and isinstance(content, str):
            item["snippet"] = content[:SNIPPET_FROM_CONTENT_CHARS]
        return item


def _locale_fields(locale: Optional[str]) -> dict[str, str]:
    """``gl`` (the locale's region) and ``hl`` (its language) as Jina lists them; what it does not list is left out."""
    fields: dict[str, str] = {}
    if locale:
        country = split_locale(locale)[1]
        if country in GL_CODES:
            fields["gl"] = country.lower()
        language = jina_hl(locale)
        if language:
            fields["hl"] = language
    return fields


def jina_hl(locale: str) -> Optional[str]:
    """Jina's ``hl`` for ``locale`` (:data:`HL_CODES`): ``zh-TW`` -> ``zh-tw``, ``pt-BR`` -> ``pt-br``,
    ``es-419`` as it is, ``he`` -> ``iw``, ``de-AT`` -> ``de``; ``None`` for a language Jina does not list."""
    lang = split_locale(locale)[0]
    lang = _HL_ALIASES.get(lang, lang)
    if lang == "zh":
        return "zh-tw" if traditional_chinese(locale) else "zh-cn"
    subtags = locale.lower().replace("_", "-").split("-")
    for candidate in (["%s-%s" % (lang, subtags[1])] if len(subtags) > 1 else []) + [lang]:
        if candidate in _HL_BY_LOWER:
            return _HL_BY_LOWER[candidate]
    return None


def _no_results(data: Any) -> bool:
    """Whether ``data`` is Jina's answer to a query without results: its ``AssertionFailureError``
    envelope (status 42206) saying "No search results available"."""
    return (
        isinstance(data, dict)
        and data.get("name") == "AssertionFailureError"
        and data.get("data") is None
        and str(data.get("message") or "").startswith(_NO_RESULTS)
    )
