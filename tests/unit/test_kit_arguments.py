"""The test helpers a user calls (``websearch_sync.testing``) refuse a mistaken argument with
an error saying what to pass, before anything is swapped or run: a misspelt backend in
``replay_fixtures(backends=...)`` is not a block that silently replays nothing, a name given
as a string is that one name (as ``backend="demo"`` is everywhere else), and ``settings=`` of
the conformance kit that is not a ``Settings`` is a ``TypeError`` naming the form it takes,
never an ``AttributeError`` from inside the kit."""

from pathlib import Path

import pytest

import websearch_sync as ws
from websearch_sync.testing import check_conformance, conformance_checks, fake_results, replay_fixtures

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
#: A case recorded in this repository (fixtures/mojeek_html): its query, as the meta file has it.
QUERY = "javascript tutorial"


def test_replay_fixtures_refuses_a_backend_no_one_registered():
    with pytest.raises(ws.InvalidInput) as caught:
        with replay_fixtures(FIXTURES, backends=["mojeek"]):
            pass
    assert caught.value.detail_code == "unknown_backend"
    assert "did you mean mojeek_html?" in caught.value.message


def test_replay_fixtures_takes_one_backend_given_as_a_string():
    with replay_fixtures(FIXTURES, backends="mojeek_html") as replay:
        result = ws.search(QUERY, backend="mojeek_html")
    assert result["items"] and replay.calls[0].backend == "mojeek_html"


def test_conformance_settings_that_are_not_settings_say_what_to_pass():
    with pytest.raises(TypeError, match=r"Settings\(providers=\{'ddg_html': \{\.\.\.\}\}\), got a dict"):
        conformance_checks("ddg_html", settings={"api_key": "k"})
    with pytest.raises(TypeError, match="settings"):
        check_conformance("ddg_html", settings={"api_key": "k"})


def test_conformance_takes_one_vertical_given_as_a_string():
    checks = conformance_checks("ddg_html", verticals="news")
    assert {check.vertical for check in checks} == {"news"}


@pytest.mark.parametrize(
    "given",
    [[{"title": "T", "link": "https://t.example/"}], {"ddg_html": [{"title": "T", "href": "https://t.example/"}]}],
)
def test_fake_results_refuses_an_item_without_a_url(given):
    """An item without ``url`` (``link``, ``href``: the vendor's word) was dropped by normalisation,
    so the test searched and got no items, with nothing saying why."""
    with pytest.raises(TypeError, match=r"fake_results: item 1 for .* has no 'url' \(its keys: title, (link|href)\)"):
        with fake_results(given):
            pass


@pytest.mark.parametrize(
    "given, says",
    [
        ([{"url": "https://a.example/", "title": None}], "item 1 for every backend: 'title' is None, not a str"),
        ([{"url": 5}], "item 1 for every backend: 'url' is int 5, not a str (give the address as text)"),
        (
            {"ddg_html": [{"url": "https://a.example/"}, {"url": "https://b.example/", "snippet": ["s"]}]},
            "item 2 for ddg_html: 'snippet' is list ['s'], not a str (give text, or leave the key out)",
        ),
        (
            {"ddg_html": [{"url": "https://a.example/", "image_url": b"https://a.example/a.png"}]},
            "'image_url' is bytes",
        ),
    ],
)
def test_fake_results_refuses_a_field_of_the_wrong_type_naming_the_item_and_field(given, says):
    """``{"url": 5}`` was silently dropped (the test got no items) and ``"title": None`` read as ``""``:
    the normalisation a real answer goes through, hiding a test's typo. Such a value is refused when
    the fake is built; a str URL that is no http(s) one is still dropped, as a real backend's is."""
    with pytest.raises(TypeError) as caught:
        with fake_results(given):
            pass
    assert "fake_results: " in str(caught.value) and says in str(caught.value)


def test_fake_results_still_normalises_text_of_the_right_type():
    with fake_results([{"url": "ftp://a.example/", "title": "A"}, {"url": "https://b.example/", "title": " B  c "}]):
        found = ws.search("q", backend="ddg_html")
    assert [(item["url"], item["title"]) for item in found["items"]] == [("https://b.example/", "B c")]


def test_a_relative_fixture_folder_not_found_names_the_folder_it_was_looked_in(tmp_path, monkeypatch):
    """``replay_fixtures("tests/search_fixtures")`` is read from the current directory, not the
    test file's: run from elsewhere, the error now says where it looked."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(FileNotFoundError) as caught:
        with replay_fixtures("tests/search_fixtures"):
            pass
    assert str(caught.value) == (
        "fixture folder tests/search_fixtures does not exist (relative to the current directory %s);"
        " record a case into it: websearch-sync record BACKEND QUERY --fixtures tests/search_fixtures" % tmp_path
    )


@pytest.mark.parametrize(
    "answer, says",
    [
        (lambda params: [{"title": "T", "link": "https://t.example/"}], "item 1 for ddg_html has no 'url'"),
        (lambda params: None, "the answer for ddg_html must be a list of item dicts"),
        (lambda params: [{"title": None, "url": "https://t.example/"}], "item 1 for ddg_html: 'title' is None"),
    ],
)
def test_a_callable_answer_of_the_wrong_shape_says_what_is_wrong(answer, says):
    """A callable's answer is checked as a list given at once is (it was an internal_error
    "TypeError", or no items at all), and the search says so as a parse result of the wrong shape."""
    with fake_results({"ddg_html": answer}):
        with pytest.raises(ws.WebProviderError) as caught:
            ws.search("q", backend="ddg_html")
    assert caught.value.detail_code == "bad_parse_result"
    assert says in caught.value.message


def test_a_callable_answering_with_a_generator_gives_its_items():
    """The shape check read the generator through, and the items were then built from what was
    left of it: nothing (a search of 0 results where the callable gave one)."""
    with fake_results({"ddg_html": lambda params: ({"title": t, "url": "https://%s.example/" % t} for t in "ab")}):
        found = ws.search("q", backend="ddg_html")
    assert [item["url"] for item in found["items"]] == ["https://a.example/", "https://b.example/"]


@pytest.mark.parametrize(
    "double, backend",
    [
        (lambda: fake_results({"ddg_html": [{"title": "T", "url": "https://t.example/"}]}), "bing_html"),
        (lambda: replay_fixtures(FIXTURES, backends=["mojeek_html"]), "mojeek_html"),
    ],
    ids=["fake_results", "replay_fixtures"],
)
def test_both_doubles_list_only_the_searches_they_answered(double, backend):
    """docs/contract.md: each yields ``.calls``, the searches answered. A search ``fake_results``
    has no answer for (``no_recorded_case``) was listed as a call, where ``replay_fixtures``
    lists none: a test counting calls counted a search that got nothing."""
    with double() as answered:
        with pytest.raises(ws.WebProviderError) as unanswered:
            ws.search("a query nothing answers", backend=backend)
        assert unanswered.value.detail_code == "no_recorded_case"
        assert answered.calls == []


@pytest.mark.parametrize(
    "arguments, said",
    [
        ((None,), "replay_fixtures takes the fixture folder's path (a str or a pathlib.Path), got NoneType"),
        ((5,), "replay_fixtures takes the fixture folder's path (a str or a pathlib.Path), got int"),
        ((FIXTURES, 5), "backends must be a backend's name or names in a list (backends=['demo']), got int"),
    ],
)
def test_replay_fixtures_of_the_wrong_kind_says_what_it_takes(arguments, said):
    """Before: ``stat: path should be string, bytes, os.PathLike or integer, not NoneType`` and
    ``'int' object is not iterable``, raised from inside the kit."""
    folder, *backends = arguments
    with pytest.raises(TypeError) as caught:
        with replay_fixtures(folder, **({"backends": backends[0]} if backends else {})):
            pass
    assert str(caught.value) == said


@pytest.mark.parametrize("verticals", ["video", ["web", "Video"]])
def test_conformance_verticals_with_a_slip_say_the_vertical_meant(verticals):
    """``verticals="video"`` said "backend ddg_html does not search video ...; backends that do: none
    registered", as if a vertical of that name existed: it is the ``bad_vertical`` a search gets."""
    with pytest.raises(ws.InvalidInput) as caught:
        conformance_checks("ddg_html", verticals=verticals)
    assert caught.value.detail_code == "bad_vertical"
    assert "(did you mean 'videos'?)" in caught.value.message


def test_conformance_verticals_named_twice_are_checked_once_and_one_of_another_kind_is_said():
    checks = conformance_checks("ddg_html", verticals=["news", "News"])
    assert len(checks) == len(conformance_checks("ddg_html", verticals="news"))
    with pytest.raises(TypeError, match=r"verticals=5 is neither a vertical nor a list of them"):
        conformance_checks("ddg_html", verticals=5)


def test_conformance_fixtures_of_another_type_are_said_when_the_checks_are_made():
    """``fixtures=5`` made the checks, and ``recorded_cases`` then failed with ``expected str, bytes or
    os.PathLike object, not int`` from inside the kit."""
    with pytest.raises(TypeError, match=r"fixtures=5 is no path: give the fixture folder's"):
        conformance_checks("ddg_html", fixtures=5)


def test_a_case_file_given_as_the_fixture_folder_names_the_folder_meant():
    """A case's file given for the folder (a path copied from the file tree): ``replay_fixtures`` said the
    file "does not exist", and ``verify`` and the conformance kit that it "is a file, not a folder"
    without the folder meant."""
    case = next((FIXTURES / "mojeek_html").glob("*.meta.json"))
    said = "fixture folder %s is a file, not a folder: give the fixture folder it belongs to, %s" % (case, FIXTURES)
    with pytest.raises(NotADirectoryError) as caught:
        with replay_fixtures(case):
            pass
    assert str(caught.value).startswith(said)
    with pytest.raises(AssertionError) as failed:
        check_conformance("mojeek_html", fixtures=case, verticals="web")
    assert said in str(failed.value)
