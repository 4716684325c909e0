"""``models.params_with``: ``dataclasses.replace`` of ``SearchParams`` without ``__init__``
(the validation and the cache key make three copies a search). It must make what ``replace``
makes, and stop being equal to it only where a test here fails first."""

import dataclasses
import datetime

import pytest

from websearch_sync.models import SearchParams, params_with

NOW = datetime.datetime(2026, 12, 3, 8, 0, tzinfo=datetime.timezone.utc)
FULL = SearchParams(
    query="rust async",
    max_results=7,
    locale="de-DE",
    time_range="week",
    site_filter="docs.rs",
    safe_search="strict",
    trace_id="t-1",
    include_content=True,
    vertical="news",
    options={"max_pages": 2},
    filters={"image_size": "large"},
    now=NOW,
)
#: A value for each field unlike FULL's.
OTHER = {
    "query": "other",
    "max_results": 3,
    "locale": None,
    "time_range": None,
    "site_filter": None,
    "safe_search": None,
    "trace_id": None,
    "include_content": False,
    "vertical": "web",
    "options": {},
    "filters": {},
    "now": NOW + datetime.timedelta(seconds=1),
}


def _fields(params):
    return {field.name: getattr(params, field.name) for field in dataclasses.fields(params)}


def test_every_field_is_an_init_argument_kept_as_given():
    """What makes params_with equal to replace: a field computed in __post_init__ or left out of
    __init__ would be copied from the original instead of made again."""
    assert not hasattr(SearchParams, "__post_init__")
    assert all(field.init for field in dataclasses.fields(SearchParams))
    assert set(OTHER) == {field.name for field in dataclasses.fields(SearchParams)}
    assert _fields(SearchParams(**OTHER)) == OTHER


@pytest.mark.parametrize("name", sorted(OTHER))
def test_each_field_changed_alone_is_what_replace_makes(name):
    made = params_with(FULL, **{name: OTHER[name]})
    expected = dataclasses.replace(FULL, **{name: OTHER[name]})
    assert type(made) is SearchParams
    assert _fields(made) == _fields(expected)  # `now` too, which == leaves out
    assert made == expected and hash(made.cache_key()) == hash(expected.cache_key())
    assert _fields(FULL)[name] != OTHER[name]  # the original unchanged


def test_several_fields_at_once_and_none_at_all():
    assert _fields(params_with(FULL, **OTHER)) == OTHER
    same = params_with(FULL)
    assert same is not FULL and _fields(same) == _fields(FULL)


def test_the_copy_is_frozen_as_the_original():
    with pytest.raises(dataclasses.FrozenInstanceError):
        params_with(FULL, query="x").query = "y"  # type: ignore[misc]


def test_a_name_that_is_no_field_is_a_type_error_as_with_replace():
    with pytest.raises(TypeError):
        dataclasses.replace(FULL, querry="x")
    with pytest.raises(TypeError, match="querry"):
        params_with(FULL, querry="x")
