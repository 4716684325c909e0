"""A date opening a snippet becomes ``published_at`` (``html_parsing.leading_date``): the
forms the recorded pages write, each with the separators that follow them."""

import pytest

from websearch_sync.engine.dates import leading_date


@pytest.mark.parametrize(
    "snippet, month_first, expected",
    [
        ("18.03.2013 · Text", None, ("2013-03-18", "Text")),  # Bing de-DE
        ("10/18/2019 · Text", None, ("2019-10-18", "Text")),  # unambiguous in any market
        ("6/10/2016 · Text", True, ("2016-06-10", "Text")),
        ("6/10/2016 · Text", None, (None, "6/10/2016 · Text")),  # market unknown: not read
        ("Nov 5, 2012 — Text", None, ("2012-11-05", "Text")),  # Bing and Yahoo en
        ("2014-12-20 - Text", None, ("2014-12-20", "Text")),
        ("2014/12/20 - Text", None, ("2014-12-20", "Text")),  # year first, slashed: month then day in any market
        ("2014/1/5 · Text", False, ("2014-01-05", "Text")),
        ("2014/20/12 - Text", None, (None, "2014/20/12 - Text")),  # no month 20: not read day first
        ("14 Oct 2023 ... JavaScript #tutorial", None, ("2023-10-14", "JavaScript #tutorial")),  # Startpage (Google's)
        ("9 May 2024 ... Take this course", None, ("2024-05-09", "Take this course")),
        ("14 October 2023 ... Text", None, ("2023-10-14", "Text")),
        ("31 Feb 2023 ... Text", None, (None, "31 Feb 2023 ... Text")),  # no such day
        ("3 Ways 2023 ... Text", None, (None, "3 Ways 2023 ... Text")),  # not a month
        ("Text 14 Oct 2023 ... more", None, (None, "Text 14 Oct 2023 ... more")),  # only an opening date
    ],
)
def test_a_leading_date_is_read_and_leaves_the_snippet(snippet, month_first, expected):
    assert leading_date(snippet, month_first) == expected
