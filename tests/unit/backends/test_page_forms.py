"""engine/page_forms: a page's forms read by the HTML parser and sent as a browser sends them
(HTML, "constructing the entry list"), their default button pressed.

The recorded pages' own forms are read first (their expected entries are what their markup
holds); the rules no recorded form exercises (disabled controls, a select without a marked
option ...) are checked on small forms, their expected entries the HTML standard's."""

import time
from pathlib import Path

import pytest
import responses
from clocks import FakeClock

import websearch_sync as ws
from websearch_sync.backends import ddg, startpage
from websearch_sync.backends.ddg import DuckDuckGoHtml, next_form
from websearch_sync.checkpoints import WorkAbandoned, abandonable, abandoned_here
from websearch_sync.config import Settings
from websearch_sync.engine.html_parsing import parse_html
from websearch_sync.engine.page_forms import PageForm, page_forms, with_own_fields
from websearch_sync.models import SearchParams

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"
DDG_PAGE = (FIXTURES / "ddg_html" / "agent-webtool__1.html").read_text(encoding="utf-8")
BING_PAGE = (FIXTURES / "bing_html" / "web-search-mcp__http-bing.html").read_text(encoding="utf-8")
YAHOO_PAGE = (FIXTURES / "yahoo_html" / "web-search-mcp__yahoo.html").read_text(encoding="utf-8")
STARTPAGE_PAGE = (FIXTURES / "startpage_html" / "web-search-mcp__http-startpage.html").read_text(encoding="utf-8")
DDG_NEXT_FORM_TAG = '<form action="/html/" method="post">'


def _fields(markup: str) -> tuple[tuple[str, str], ...]:
    (form,) = page_forms("<html><body>%s</body></html>" % markup)
    return form.fields


def test_duckduckgos_search_form_sends_what_the_engine_sends():
    """The recorded page's search form (``q``, the named button ``b``, the ``kl`` and ``df``
    selects with nothing marked): what a browser submits is what ddg_html's first request
    sends, the selects' first options (empty) included."""
    (search_form,) = [form for form in page_forms(DDG_PAGE) if form.first("b") is not None]
    engine = DuckDuckGoHtml(Settings())
    expected = engine.query(SearchParams(query="bun javascript runtime", max_results=10))
    assert search_form.fields == tuple(expected.items())


def test_bings_form_sends_its_pressed_button_in_its_place():
    """The recorded Bing page's search form: its submit button ``go`` (before the query box in
    the markup) is the button pressed and sends its value there; the hidden fields follow."""
    (form,) = [form for form in page_forms(BING_PAGE) if form.action == "/search"]
    assert form.fields == (("go", "Search"), ("q", "javascript tutorial"), ("qs", "ds"), ("form", "QBRE"))


def test_unchecked_radios_send_nothing():
    """The recorded Yahoo page's feedback form holds radios ``sa-reason``, none checked: no
    form of the page sends one."""
    assert YAHOO_PAGE.count('name="sa-reason"') > 1
    assert all(form.first("sa-reason") is None for form in page_forms(YAHOO_PAGE))


def _next_form_rewritten(start_tag: str, end_tag: str) -> str:
    """The recorded page with its "Next" form's start and end tags rewritten."""
    start = DDG_PAGE.rindex(DDG_NEXT_FORM_TAG, 0, DDG_PAGE.index('name="vqd"'))
    end = DDG_PAGE.index("</form>", start)
    return DDG_PAGE[:start] + start_tag + DDG_PAGE[start + len(DDG_NEXT_FORM_TAG) : end] + end_tag + DDG_PAGE[end + 7 :]


@pytest.mark.parametrize(
    "start_tag, end_tag",
    [
        # a comment holding form tags is no markup (it ended the form early for the plain-text search)
        (DDG_NEXT_FORM_TAG + "<!-- </form> <form action=/old> -->", "</form>"),
        # tag names match in any case
        ('<FORM action="/html/" method="post">', "</FORM>"),
    ],
)
def test_a_form_is_read_as_a_browser_reads_its_markup(start_tag, end_tag):
    expected = next_form(DDG_PAGE)
    assert expected is not None and expected.first("vqd")
    assert next_form(_next_form_rewritten(start_tag, end_tag)) == expected


def test_a_script_holding_form_markup_holds_no_form():
    """A script's text is no markup: a form written in it (one going further than the page's
    "Next" form, if it were read) is none."""
    script = "<script>var s = '<form action=/x><input name=s value=99><input name=vqd value=1></form>';</script>"
    page = DDG_PAGE.replace("</body>", script + "</body>")
    assert next_form(page) == next_form(DDG_PAGE)


@pytest.mark.parametrize(
    "markup, expected",
    [
        # an unchecked checkbox sends nothing; a checked one its value, "on" without one
        (
            "<form><input name=qadf value=moderate type=hidden><input type=checkbox name=qadf value=none>"
            "<input type=checkbox name=c checked></form>",
            (("qadf", "moderate"), ("c", "on")),
        ),
        # of a radio group's checked radios the last is the checked one
        (
            "<form><input type=radio name=r value=1 checked><input type=radio name=r value=2 checked>"
            "<input type=radio name=r value=3></form>",
            (("r", "2"),),
        ),
        # disabled controls, and those in a disabled fieldset outside its first legend, send nothing
        (
            "<form><input name=a value=1 disabled><fieldset disabled><legend><input name=b value=2></legend>"
            "<input name=c value=3></fieldset><input name=d value=4></form>",
            (("b", "2"), ("d", "4")),
        ),
        # a datalist's controls send nothing
        ("<form><datalist><input name=a value=1></datalist><input name=b value=2></form>", (("b", "2"),)),
        # a select: the last option marked selected, else the first enabled; a multiple one each marked
        (
            "<form><select name=a><option value=1 selected>x<option value=2 selected>y</select>"
            "<select name=b><option disabled>x<option>  first   enabled </select>"
            "<select name=c multiple><option selected>x<option>y<option selected>z</select>"
            "<select name=d multiple><option>x</select></form>",
            (("a", "2"), ("b", "first enabled"), ("c", "x"), ("c", "z")),
        ),
        # a textarea sends its text (the newline after its start tag is the parser's), line breaks as CR LF
        ("<form><textarea name=t>\nline 1\nline 2</textarea></form>", (("t", "line 1\r\nline 2"),)),
        # a repeated name is sent each time, in order
        (
            "<form><input name=a value=1><input name=b value=2><input name=a value=3></form>",
            (("a", "1"), ("b", "2"), ("a", "3")),
        ),
        # only the pressed (first) submit button sends its name; reset and plain buttons never do
        (
            "<form><button type=reset name=r>x</button><button type=button name=p>x</button>"
            "<input type=submit name=go value=Go><button name=other value=no>x</button></form>",
            (("go", "Go"),),
        ),
        # an input without a name sends nothing
        ("<form><input value=1><input name='' value=2></form>", ()),
    ],
)
def test_a_forms_entry_list_is_built_as_a_browser_builds_it(markup, expected):
    assert _fields(markup) == expected


def test_the_calls_own_fields_replace_the_forms_and_fill_what_it_lacks():
    form = PageForm("/s", (("query", "other"), ("page", "2"), ("query", "again"), ("sc", "x")))
    own = {"query": "asked", "qadf": "heavy"}
    assert with_own_fields(form, own).fields == (("query", "asked"), ("page", "2"), ("sc", "x"), ("qadf", "heavy"))


def _cpu_s(work):
    """CPU time of one run of ``work`` in this thread (waiting for a core is not counted)."""
    started = time.thread_time()
    work()
    return time.thread_time() - started


def test_the_calls_own_fields_join_a_form_in_linear_time():
    """A form repeating one of the call's fields thousands of times after others is joined in about
    the time of a form of as many other fields (the bound is the project's linear-parser one:
    6 times, and 50 ms; a scan of the entries written per repeat took over 20 times as long)."""
    own = {"q": "asked"}
    repeated = PageForm("/", tuple(("f%d" % i, "v") if i < 4000 else ("q", "v") for i in range(8000)))
    distinct = PageForm("/", tuple(("f%d" % i, "v") for i in range(8000)))
    assert with_own_fields(repeated, own).fields.count(("q", "asked")) == 1
    flat_s = min(_cpu_s(lambda: with_own_fields(distinct, own)) for _ in range(2))
    repeated_s = min(_cpu_s(lambda: with_own_fields(repeated, own)) for _ in range(2))
    assert repeated_s < 6 * flat_s + 0.05, "repeated %.3f s, distinct %.3f s" % (repeated_s, flat_s)


def test_reading_a_pages_forms_stops_once_its_work_is_abandoned():
    """The forms are read at checkpoints: work abandoned at its deadline ends at the next one
    (a page of very many forms cannot hold the call past its deadline)."""

    class Abandoned:
        def is_set(self) -> bool:
            return True

    with abandonable(Abandoned()), pytest.raises(WorkAbandoned):
        list(page_forms(DDG_PAGE))


@pytest.mark.parametrize(
    "engine, module, method, endpoint, page",
    [
        ("ddg_html", ddg, "POST", "https://html.duckduckgo.com/html/", DDG_PAGE),
        ("startpage_html", startpage, "GET", "https://www.startpage.com/sp/search", STARTPAGE_PAGE),
    ],
)
def test_the_next_pages_form_is_read_within_the_calls_deadline(monkeypatch, engine, module, method, endpoint, page):
    """The previous page's forms are read as its results are, within the call's deadline (work
    abandoned there stops at its next checkpoint): read in the calling thread with no deadline,
    a page of very many forms held the call past it (4.9 MB of forms: 3.8 s on a 1 s deadline)."""
    guards = []
    read = module.page_forms

    def watched(text):
        guards.append(abandoned_here())
        return read(text)

    monkeypatch.setattr(module, "page_forms", watched)
    settings = ws.Settings(impersonate="off")
    with (
        responses.RequestsMock(assert_all_requests_are_fired=False) as mock,
        ws.SearchClient(engine, settings=settings, clock=FakeClock(), cache_ttl_s=0, retries=0) as client,
    ):
        mock.add(method, endpoint, body=page, content_type="text/html; charset=utf-8")
        mock.post(endpoint, body=page, content_type="text/html; charset=utf-8")
        client.search("paging", max_results=20)
    assert guards and all(guard is not None for guard in guards)


def test_the_options_of_a_select_are_read_at_checkpoints():
    """A select of very many options (600,000 in 4.8 MB) is read at checkpoints too: its options
    were read in one go, and abandoned work ran on for 3 s past its deadline."""
    from websearch_sync.engine import page_forms as forms

    (select,) = parse_html("<form><select name=s>" + "<option>x" * 600 + "</select></form>").iter("select")

    class Abandoned:
        def is_set(self) -> bool:
            return True

    with abandonable(Abandoned()), pytest.raises(WorkAbandoned):
        forms._selected(select)
