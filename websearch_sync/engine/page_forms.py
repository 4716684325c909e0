"""The forms of a results page, posted as a browser pressing their button posts them.

The way to a later page on engines whose page 2 needs what page 1 carries: DuckDuckGo's
"Next" form (its ``vqd`` token), Startpage's page forms (its ``sc`` code). Each ``<form>`` is
found by plain searches and only its own markup is parsed (a results page is large; its
forms are few and small). A form posting to another host than the engine's is not followed
(the token and the pace are that host's): ``WebParseError``, which leaves the pages read.
"""

import dataclasses
from collections.abc import Iterator
from urllib.parse import urljoin, urlsplit

from ..errors import UNEXPECTED_SHAPE, WebParseError
from ..net.transport import RequestSpec
from .html_parsing import Tag, attribute, elements, parse_html

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

_BUTTONS = ("submit", "button", "image", "reset")


@dataclasses.dataclass(frozen=True)
class PageForm:
    """A form of a page: where it posts and the fields it sends."""

    action: str  #: as the page writes it (relative, most often)
    fields: dict[str, str]  #: the named inputs other than buttons, in order, values kept whole


def page_forms(text: str) -> Iterator[PageForm]:
    """The forms of the page ``text``, in page order."""
    position = 0
    while True:
        start = text.find("<form", position)
        end = text.find("</form>", start) if start >= 0 else -1
        if end < 0:
            return
        position = end
        form = next(
            (tag for tag in elements(parse_html(text[start : end + len("</form>")])) if tag.name == "form"), None
        )
        if form is not None:
            yield PageForm(attribute(form, "action"), _form_fields(form))


def _form_fields(form: Tag) -> dict[str, str]:
    """The named inputs of ``form`` other than buttons, in order (kept whole: what it sends)."""
    return {
        attribute(tag, "name"): attribute(tag, "value")
        for tag in elements(form)
        if tag.name == "input" and attribute(tag, "name") and attribute(tag, "type").lower() not in _BUTTONS
    }


def form_post(
    form: PageForm, endpoint: str, headers: dict[str, str], provider: str, follow_redirects: bool = True
) -> RequestSpec:
    """``form`` posted to its action read against ``endpoint``, with ``headers`` (the engine's,
    to which a form post's ``Origin`` and ``Content-Type`` are added); ``WebParseError`` when
    the action is not on the endpoint's origin (:func:`same_origin`)."""
    url = urljoin(endpoint, form.action or endpoint)
    origin = same_origin(url, endpoint, provider, "the page's form for the next page posts")
    sent = dict(headers)
    sent["Origin"] = origin
    sent["Content-Type"] = "application/x-www-form-urlencoded"
    return RequestSpec("POST", url, data=form.fields, headers=sent, allow_redirects=follow_redirects)


def same_origin(url: str, endpoint: str, provider: str, what: str) -> str:
    """``endpoint``'s origin (``https://host``) when ``url`` is on it; else ``WebParseError``:
    a next page on another host, in plain http from an https page, or no http(s) URL is not
    followed (the token, the query and the pace are that origin's)."""
    target, site = urlsplit(url), urlsplit(endpoint)
    if (target.scheme, target.netloc) != (site.scheme, site.netloc):
        shown = "%s://%s" % (target.scheme, target.netloc) if target.netloc else target.scheme
        raise WebParseError(
            "%s: %s elsewhere (%r), not to %s://%s: not followed"
            % (provider, what, shown[:100], site.scheme, site.netloc),
            provider=provider,
            detail_code=UNEXPECTED_SHAPE,
        )
    return "%s://%s" % (site.scheme, site.netloc)
