"""Code written for ddgs: its argument names and its region as a locale are refused, naming ours.

ddgs's signatures: ``DDGS().text/news/images/videos`` (ddgs/ddgs.py ``_search_sync``: region,
safesearch, timelimit, max_results, page, backend; the image and video engines' kwargs: size,
color, type_image, layout, license_image, resolution, duration, license_videos).
"""

import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

import websearch_sync as ws
from websearch_sync.cli import main
from websearch_sync.engine import registry
from websearch_sync.once import Once
from websearch_sync.tool import call_tool
from websearch_sync.validate import search_params

SETTINGS = SimpleNamespace(max_results=5)


def _params(**options):
    """As ``SearchClient.search`` calls it: every registered backend's options are known (``pageno``)."""
    keywords = ("max_results", "backend", "timeout_ms")
    return search_params("q", None, options, SETTINGS, registry.backend_options(), keywords=keywords)


def _refusal(**options):
    with pytest.raises(ws.InvalidInput) as info:
        _params(**options)
    return info.value


@pytest.mark.parametrize(
    "name, ours",
    [
        ("region", "locale"),
        ("safesearch", "safe_search"),
        ("timelimit", "time_range"),
        ("page", "pageno"),
        ("keywords", "query"),
        ("size", "image_size with vertical='images'"),
        ("color", "image_color with vertical='images'"),
        ("type_image", "image_type with vertical='images'"),
        ("layout", "image_layout with vertical='images'"),
        ("license_image", "image_license with vertical='images'"),
        ("resolution", "video_resolution with vertical='videos'"),
        ("duration", "video_duration with vertical='videos'"),
        ("license_videos", "video_license with vertical='videos'"),
    ],
)
def test_a_ddgs_argument_name_is_refused_naming_ours(name, ours):
    """Still refused (its values differ too), but with our name, not a close spelling
    (``region`` was 'engines', ``type_image`` 'time_range')."""
    with pytest.raises(TypeError) as info:
        _params(**{name: "x"})
    message = str(info.value)
    assert "%s (ddgs's %s is our %s" % (name, name, ours) in message
    assert "did you mean" not in message


def test_the_command_lines_option_gets_the_hint_in_flags(capsys):
    """On the command line the hint names the flag, not search()'s keyword (it named ``time_range``)."""
    assert main(["search", "q", "--option", "timelimit=d"]) == 2
    error = capsys.readouterr().err
    assert (
        "--option timelimit: no backend knows this option"
        " (ddgs's timelimit: here --time-range day, week, month or year: d is day);" in error
    )
    assert "InvalidInput/bad_arguments" in error and "time_range (" not in error


def test_the_value_forms_that_differ_are_named_with_the_argument():
    with pytest.raises(TypeError) as info:
        _params(timelimit="d", region="us-en")
    message = str(info.value)
    assert "ddgs's 'd', 'w', 'm', 'y'" in message and "'us-en' is 'en-US'" in message


@pytest.mark.parametrize(
    "option, value, ours",
    [
        ("safe_search", "on", "strict"),
        ("time_range", "d", "day"),
        ("time_range", "y", "year"),
        ("image_license", "any", "creative_commons"),
        ("vertical", "text", "web"),  # DDGS().text(): the refusal named no vertical
    ],
)
def test_a_ddgs_value_no_close_spelling_finds_is_refused_naming_ours(option, value, ours):
    """ddgs's values close to ours (``Public``, ``standart``) get the close spelling already."""
    options = {"vertical": "images" if option == "image_license" else "web", option: value}
    refusal = _refusal(**options)
    assert refusal.message.endswith("got %r (ddgs's %r is %r)" % (value, value, ours))


def test_a_mistyped_value_still_gets_the_close_spelling():
    assert _refusal(safe_search="of").message.endswith("(did you mean 'off'?)")


@pytest.mark.parametrize(
    "region, meant",
    [
        ("us-en", "en-US"),  # was sent as language us, country EN: DuckDuckGo's kl=en-us
        ("uk-en", "en-GB"),  # was Ukrainian; DuckDuckGo's uk is the United Kingdom
        ("UK-EN", "en-GB"),
        ("at-de", "de-AT"),
        ("cz-cs", "cs-CZ"),
        ("jp-jp", "ja-JP"),
        ("kr-kr", "ko-KR"),  # Kanuri in Korea as a tag: DuckDuckGo's own word for Korea
        ("tw-tzh", "zh-TW"),
        ("xl-es", "es-419"),
        ("ue-es", "es-US"),
        ("in_en", "en-IN"),
    ],
)
def test_a_ddgs_region_as_locale_is_refused_naming_the_locale(region, meant):
    refusal = _refusal(locale=region)
    assert refusal.detail_code == "bad_locale"
    assert "ddgs's region %s is the locale %s" % (region, meant) in refusal.message


@pytest.mark.parametrize(
    "region, meant",
    [
        ("ar-es", "es-AR"),  # Argentina, as a locale Arabic in Spain
        ("be-fr", "fr-BE"),
        ("be-nl", "nl-BE"),
        ("br-pt", "pt-BR"),
        ("ca-fr", "fr-CA"),
        ("ch-de", "de-CH"),
        ("ch-fr", "fr-CH"),
        ("ch-it", "it-CH"),
        ("co-es", "es-CO"),
        ("ee-et", "et-EE"),
        ("my-ms", "ms-MY"),
        ("se-sv", "sv-SE"),
        ("ve-es", "es-VE"),
        ("sl-sl", "sl-SI"),  # DuckDuckGo's Slovenia, as a locale Slovenian in Sierra Leone
        ("es-ca", "ca-ES"),
    ],
)
def test_a_ddgs_region_whose_parts_are_codes_too_is_refused_in_ddgs_form(region, meant):
    """Written as ddgs writes it (lower case), it is ddgs's; in a locale's case (``ar-ES``) a locale."""
    refusal = _refusal(locale=region)
    assert refusal.detail_code == "bad_locale"
    language, country = region.split("-")
    assert refusal.message == (
        "invalid locale: %r (a locale is language-COUNTRY; ddgs's region %s is the locale %s; read as a locale, "
        "language first, it is written %s-%s)" % (region, region, meant, language, country.upper())
    )
    assert _params(locale="%s-%s" % (language, country.upper())).locale == "%s-%s" % (language, country.upper())


def test_a_pair_of_codes_that_is_no_ddgs_region_gets_no_ddgs_hint():
    """``fr-en`` swapped is ``en-FR``, but ddgs has no region fr-en: the refusal names no ddgs region."""
    refusal = _refusal(locale="fr-en")
    assert refusal.message == (
        "invalid locale: 'fr-en' (EN is no ISO 3166 country; expected a language tag such as en, en-US or zh-Hant-TW)"
    )


def test_wt_wt_is_no_region_and_no_locale():
    refusal = _refusal(locale="wt-wt")
    assert refusal.detail_code == "bad_locale"
    assert refusal.message.endswith("ddgs's region wt-wt is no region: give no locale)")


@pytest.mark.parametrize(
    "locale, reason",
    [
        ("en-UK", "UK is no ISO 3166 country (did you mean GB?)"),
        ("en-EN", "EN is no ISO 3166 country"),
        ("zz-WW", "zz is no ISO 639 language and WW is no ISO 3166 country"),
        ("xx", "xx is no ISO 639 language"),
    ],
)
def test_a_part_that_is_no_code_is_refused_saying_which(locale, reason):
    refusal = _refusal(locale=locale)
    assert refusal.detail_code == "bad_locale"
    assert refusal.message == "invalid locale: %r (%s; expected a language tag such as en, en-US or zh-Hant-TW)" % (
        locale,
        reason,
    )


@pytest.mark.parametrize(
    "locale",
    [
        "en-US",
        "EN-us",
        "en_GB",
        "pt-BR",
        "zh-Hant-TW",
        "es-419",
        "de",
        "sr-Latn",
        "sr-Latn-RS",
        "de-CH-1901",
        "fil-PH",
        "yue-HK",
        "iw-IL",  # withdrawn ISO 639 codes BCP 47 still registers (Java's Locale wrote them)
        "de-DE",  # ddgs's de-de is the same locale
        "ca-FR",  # ddgs's ca-fr is French in Canada, but Catalan in France is a locale too
        "en-EU",
        "sq-XK",
        "de-u-co-phonebk",  # an extension: co is no region
        "de-de",  # ddgs's Germany, and German in Germany as a locale: the same
        "no-no",
        "no-NO",
        "ar-ES",  # ddgs's ar-es in a locale's case: Arabic in Spain
        "en-XA",  # private use regions (AA, QM-QZ, XA-XZ, ZZ): any region BCP 47 takes
        "ar-XB",
        "en-ZZ",
        "en-QO",
        "nl-AN",  # regions ISO 3166 withdrew that BCP 47 keeps (deprecated)
        "sr-CS",
        "de-DD",
        "auto",
    ],
)
def test_language_tags_stay_locales(locale):
    assert _params(locale=locale).locale == locale


@pytest.mark.parametrize(
    "mistyped, name, ours",
    [
        ("regoin", "region", "locale"),
        ("timelimt", "timelimit", "time_range"),
        ("safesearh", "safesearch", "safe_search"),
    ],
)
def test_a_mistyped_ddgs_name_gets_that_names_hint(mistyped, name, ours):
    with pytest.raises(TypeError) as info:
        _params(**{mistyped: "x"})
    assert "%s (ddgs's %s is our %s" % (mistyped, name, ours) in str(info.value)


def test_a_name_only_somewhat_like_a_ddgs_one_gets_none_of_its_hint():
    """``engine`` is as far from ddgs's ``region`` as difflib's default lets through: no hint of it."""
    with pytest.raises(TypeError) as info:
        _params(engine="x")
    assert "ddgs" not in str(info.value)


@pytest.mark.parametrize(
    "arguments, hint",
    [
        ({"timelimit": "d"}, "unknown argument 'timelimit' (ddgs's timelimit is our time_range: "),
        ({"region": "us-en"}, "unknown argument 'region' (ddgs's region is our locale, "),
        ({"regoin": "us-en"}, "unknown argument 'regoin' (ddgs's region is our locale, "),
        (
            {"time_range": "d"},
            "argument 'time_range' must be one of day, week, month, year, got 'd' (ddgs's 'd' is 'day')",
        ),
        ({"max_result": 3}, "unknown argument 'max_result' (did you mean 'max_results'?)"),
    ],
)
def test_the_tool_call_gets_the_same_hints(arguments, hint):
    """The agent tool and MCP path (``call_tool``: ``validate.check_arguments``) said only
    "unknown argument" for ddgs's names, and nothing of ddgs's values."""
    answer = call_tool("web.search", {"query": "q", **arguments})
    assert answer["error"]["detail_code"] == "bad_arguments"
    assert answer["error"]["message"].startswith(hint)


def _the_regions_row() -> str:
    page = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text(encoding="utf-8")
    return next(line for line in page.splitlines() if line.startswith('| `region="us-en"` |'))


def test_the_pairs_the_docs_name_are_refused_or_taken_as_they_say():
    """docs/api.md's ddgs row: each pair it names as read as another locale is refused in ddgs's case
    naming the locale ddgs means, and each it names as taken (``ar-ES``: Arabic in Spain, a valid
    locale; ``de-de``) is taken as written."""
    row = _the_regions_row()
    misread, taken = row.split("read as a locale it means another:", 1)[1].split("Written in a locale's case", 1)
    refused = re.findall(r"`([a-z]{2}-[a-z]{2})`", misread)
    kept = re.findall(r"`([a-z]{2}-[a-zA-Z]{2})`", taken)
    assert len(refused) >= 4 and "ar-es" in refused and {"ar-ES", "de-de"} <= set(kept)
    for pair in refused:
        language, country = pair.split("-")
        assert (
            "ddgs's region %s is the locale %s-%s" % (pair, country, language.upper()) in _refusal(locale=pair).message
        )
    assert [pair for pair in kept if _params(locale=pair).locale != pair] == []


def test_the_docs_say_what_becomes_of_every_key_of_a_ddgs_video_result():
    """ddgs passes DuckDuckGo's video results on as they are (its ``VideosResult``): the keys of the
    recorded answer's results are the keys a ddgs user's code reads, and docs/api.md's "Coming from
    ddgs" says of each what it is here (before: ``provider``, DuckDuckGo's upstream "Bing", and
    ``image_token`` were unsaid, and a reader took ``provider`` for ours, the backend)."""
    root = Path(__file__).resolve().parents[2]
    recorded = json.loads((root / "fixtures/ddg_html/phrona__videos_rust_programming.2.json").read_text("utf-8"))
    keys = set().union(*recorded["results"]) - {"title"}
    doc = (root / "docs" / "api.md").read_text(encoding="utf-8")
    mapping = doc[doc.index("A ddgs result's keys here") :].split("\n\n", 1)[0]
    videos = mapping[mapping.index("videos `content`") :]
    assert sorted(key for key in keys if not re.search(r"`%s[`.]" % key, videos)) == []
    assert "`provider` here is the backend" in videos


@pytest.mark.parametrize(
    "locale, said",
    [
        ("kr", "locale 'kr' is Kanuri; for Korea use ko-KR"),
        ("br", "locale 'br' is Breton; for Brazil use pt-BR"),
        ("ch", "locale 'ch' is Chamorro; for Switzerland use de-CH or fr-CH or it-CH"),
        ("za", "locale 'za' is Zhuang; for South Africa use en-ZA"),
    ],
)
def test_a_rare_language_whose_code_is_a_common_countrys_is_taken_with_one_hint(locale, said, caplog, monkeypatch):
    """``locale="kr"`` was taken as Kanuri without a word, though ``kr`` is most often typed for
    Korea: still taken (a valid ISO 639 code), with one logged hint naming the country's locales."""
    import logging

    from websearch_sync import validate

    monkeypatch.setattr(validate, "_HINTED_LOCALES", Once())  # once per process: not an earlier test's
    with caplog.at_level(logging.INFO, logger="websearch_sync"):
        assert [_params(locale=locale).locale for _ in range(3)] == [locale] * 3
    assert [record.getMessage() for record in caplog.records] == [said]
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="websearch_sync"):
        _params(locale="ko")
        _params(locale="ar")  # Arabic is no rare language: Argentina's es-AR is no hint for it
    assert caplog.records == []


@pytest.mark.parametrize(
    "locale, meant",
    [("jp", "ja-JP"), ("cn", "zh-CN"), ("gr", "el-GR"), ("dk", "da-DK"), ("cz", "cs-CZ"), ("il", "en-IL or he-IL")],
)
def test_a_country_code_given_as_the_locale_names_the_locales_of_that_country(locale, meant):
    """``locale="jp"`` said only ``jp is no ISO 639 language``: a country's code, typed for its
    language (Japanese is ``ja``), is told the locales of that country (ddgs's regions say which)."""
    refusal = _refusal(locale=locale)
    assert refusal.detail_code == "bad_locale"
    assert refusal.message == "invalid locale: %r (%s is no ISO 639 language; %s is a country: did you mean %s?)" % (
        locale,
        locale,
        locale.upper(),
        meant,
    )


def test_each_country_code_hinted_is_a_language_and_a_country_whose_locales_are_another_language():
    """The hint's table holds only what it says: an ISO 639-1 language, an ISO 3166 country, and
    the country's locales (ddgs's regions) in another language than the code's."""
    from websearch_sync.vocabulary.ddgs import COUNTRY_CODE_LANGUAGES, country_locales
    from websearch_sync.vocabulary.locale_codes import COUNTRIES, LANGUAGES

    for code in COUNTRY_CODE_LANGUAGES:
        locales = country_locales(code)
        assert code in LANGUAGES and code.upper() in COUNTRIES and locales, code
        assert not any(locale.startswith(code + "-") for locale in locales), code


@pytest.mark.parametrize("name", ["keywords", "q", "text"])
def test_a_query_given_by_another_apis_keyword_names_the_first_argument(name):
    """``search(keywords="python")``, ddgs's older signature, was Python's ``search() missing 1 required positional
    argument: 'query'``: neither ddgs's name nor ours said, though the ddgs table says ``keywords`` is the query."""
    for call in (lambda: ws.search(**{name: "python"}), lambda: ws.SearchClient("stub").search(**{name: "python"})):
        with pytest.raises(TypeError) as info:
            call()
        assert str(info.value).startswith(
            "search() got no query: give it as the first argument, search('python requests')"
        )
        assert (
            "(ddgs's keywords is our query" if name == "keywords" else "(%s is not a name of search()'s" % name
        ) in str(info.value)
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'query'"):
        ws.search()  # nothing that could be the query: Python's own words


@pytest.mark.parametrize(
    "name, ours",
    [("safe_search", "safe_search"), ("safesearch", "safe_search"), ("page", "pageno"), ("safesearh", "safe_search")],
)
def test_the_tool_never_points_a_model_at_an_argument_it_does_not_take(name, ours):
    """The search tool takes no ``safe_search`` (the operator's setting) and no ``pageno``: a model
    sending ours (``safe_search``) was told "ddgs's safesearch is our safe_search", the name it had
    just sent, and one sending ddgs's ``safesearch`` or ``page`` was pointed at an argument refused next."""
    answer = call_tool("web.search", {"query": "q", name: "off"})
    message = answer["error"]["message"]
    assert message.startswith("unknown argument %r" % name)
    assert "ddgs" not in message and "our %s" % ours not in message
