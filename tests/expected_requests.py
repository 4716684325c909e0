"""Recorded pages served only to the requests a test expects (strict test servers).

A page registered without a matcher answers any request to its URL: a test of which page a
backend asks next would pass with the wrong page asked. Here each page answers one request,
known by its whole query (every field and no other; a field whose value depends on the moment,
SearXNG's ``timeout_limit``, may be named to be left uncompared), and a request the test did not expect,
or one asking a page already answered, fails the test when the block ends, even where
the client turned the refusal into a failed page in ``errors``.
"""

import contextlib
from collections.abc import Collection, Iterator, Mapping
from typing import Any, Callable, Optional, Union
from urllib.parse import parse_qsl, urlsplit

import responses

HTML = "text/html; charset=utf-8"


@contextlib.contextmanager
def expected_requests(*, all_asked: bool = True) -> Iterator[responses.RequestsMock]:
    """A :class:`responses.RequestsMock` failing the test, once the block ends, on any request
    no registered answer matched or on an answer asked for more than once (``responses`` answers
    a registered page again: a backend asking the same page twice would pass); ``all_asked``:
    every answer registered was asked for."""
    with responses.RequestsMock(assert_all_requests_are_fired=all_asked) as mock:
        yield mock
        unexpected = [call.request.url for call in mock.calls if isinstance(call.response, Exception)]
        assert not unexpected, "requests the test did not expect: %s" % unexpected
        repeated = [(answer.url, answer.call_count) for answer in mock.registered() if answer.call_count > 1]
        assert not repeated, "answers asked for more than once (url, times): %s" % repeated


def serve(
    mock: responses.RequestsMock,
    url: str,
    query: Mapping[str, str],
    body: Union[str, bytes],
    *,
    status: int = 200,
    method: str = "GET",
    content_type: Optional[str] = HTML,
    uncompared: Collection[str] = (),
) -> None:
    """``body`` (with ``status``) as the answer to the one request for ``url`` with exactly ``query``
    (and the fields ``uncompared``, whatever their values)."""
    mock.add(
        method,
        url,
        match=[_query_is(query, uncompared)],
        body=body,
        status=status,
        content_type=content_type,
    )


def _query_is(query: Mapping[str, str], uncompared: Collection[str]) -> Callable[[Any], tuple[bool, str]]:
    """A matcher of a request whose URL's query is ``query`` with the fields ``uncompared`` left out."""
    wanted = dict(query)

    def matches(request: Any) -> tuple[bool, str]:
        fields = parse_qsl(urlsplit(request.url).query, keep_blank_values=True)
        got = {name: value for name, value in fields if name not in uncompared}
        same = got == wanted and len(got) + sum(name in uncompared for name, _ in fields) == len(fields)
        return same, "" if same else "query %r, not %r" % (got, wanted)

    return matches
