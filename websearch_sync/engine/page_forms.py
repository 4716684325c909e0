"""The forms of a results page, posted as a browser pressing their button posts them.

The way to a later page on engines whose page 2 needs what page 1 carries: DuckDuckGo's
"Next" form (its ``vqd`` token), Startpage's page forms (its ``sc`` code). The page is parsed
whole by lxml's HTML parser, so a ``<form`` in a comment or a script is no form and tag names
match in any case; each form's data set is built as the HTML standard's "constructing the entry
list" builds it (:func:`_entries`), its default button the one pressed. The call's own fields
(its query ...) then replace the page's (:func:`with_own_fields`). A form posting to another
origin than the engine's is not followed (the token and the pace are that origin's):
``WebParseError``, which leaves the pages read.

Not read (no results page uses them): controls outside a form joined to it by a ``form``
attribute, and a form nested in a form, which a browser ignores (one form, with the inner one's
controls and those after it): lxml's reading yields the inner form as a form of its own and may
end the outer one at it.
"""

import dataclasses
import re
from collections.abc import Iterator, Mapping
from typing import Optional

from lxml import etree

from ..checkpoints import checked, checkpoint
from ..errors import UNEXPECTED_SHAPE, WebParseError
from ..net.transport import RequestSpec
from ..net.urls import browser_join, same_origin, url_parts
from .html_parsing import Tag, attribute, parse_html

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

Entries = tuple[tuple[str, str], ...]

#: The ``input`` types that are buttons: sent only as the button pressed (submit, image).
_BUTTONS = frozenset(("submit", "image", "reset", "button"))
#: A line break not written CR LF (the form encoding writes every one as CR LF).
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
#: The controls whose entries a form sends.
_CONTROLS = frozenset(("input", "button", "select", "textarea"))


@dataclasses.dataclass(frozen=True)
class PageForm:
    """A form of a page: where it posts and the entries it sends (name, value), in order."""

    action: str  #: as the page writes it (relative, most often)
    fields: Entries  #: the form's entry list: a repeated name kept each time, in order

    def first(self, name: str) -> Optional[str]:
        """The value of the first entry named ``name`` (``None`` without one)."""
        return next((value for field, value in self.fields if field == name), None)


def page_forms(text: str) -> Iterator[PageForm]:
    """The forms of the page ``text``, in page order (a checkpoint every few forms: the reading
    stops at the call's deadline whatever number of forms a page holds)."""
    root = parse_html(text)
    for form in checked(root.iter("form")):
        assert isinstance(form, Tag)
        yield PageForm(attribute(form, "action"), _entries(form))


def _entries(form: Tag) -> Entries:
    """``form``'s entry list as a browser builds it (HTML, "constructing the entry list"), its
    default button (the first submit button) pressed: controls without a name, disabled (or
    in a disabled fieldset outside its first legend) or in a ``datalist`` send nothing, nor do
    unchecked checkboxes and radios, nor buttons but the pressed one; of checked radios of one
    name the last wins; a ``select`` sends its selected options (a single one: the last marked,
    else the first enabled), a ``textarea`` its text; line breaks are written CR LF."""
    entries: list[Optional[tuple[str, str]]] = []
    radios: dict[str, int] = {}  # each radio group's checked entry, by its index in entries
    pressed = False
    for tag in _enabled_controls(form):
        kind = _kind(tag)
        if kind in _BUTTONS:
            if not pressed and kind in ("submit", "image"):
                pressed = True
                entries.extend(_button_entries(tag, kind))
            continue
        field = attribute(tag, "name")
        if not field:
            continue
        if kind == "radio" and tag.get("checked") is not None:
            if field in radios:
                entries[radios[field]] = None  # checking a radio unchecks its group's others
            radios[field] = len(entries)
        entries.extend(_field_entries(tag, kind, field))
    return tuple((_crlf(field), _crlf(value)) for field, value in filter(None, entries))


def _enabled_controls(form: Tag) -> Iterator[Tag]:
    """``form``'s controls in tree order, but those disabled, in a disabled fieldset outside its
    first legend, or in a ``datalist``. One walk, whatever the page nests inside what."""
    # per open element: (its children are inert, the legend exempt from that, that legend's state)
    frames: list[tuple[bool, Optional[Tag], bool]] = []
    for event, tag in etree.iterwalk(form, events=("start", "end")):
        if not isinstance(tag, Tag):
            continue
        if event == "end":
            frames.pop()
            continue
        checkpoint()
        inert = False
        if frames:
            below, exempt_legend, exempt = frames[-1]
            inert = exempt if tag is exempt_legend else below
        frames.append(_frame(tag, inert))
        if tag.tag in _CONTROLS and not inert and tag.get("disabled") is None:
            yield tag


def _frame(tag: Tag, inert: bool) -> tuple[bool, Optional[Tag], bool]:
    """What ``tag`` (itself ``inert`` or not) makes of the elements in it: (inert, the legend
    exempt from that, that legend's state): a disabled fieldset's, but its first legend's, are."""
    if tag.tag == "fieldset" and tag.get("disabled") is not None:
        first_legend = tag.find("legend")
        return True, first_legend if isinstance(first_legend, Tag) else None, inert
    return inert or tag.tag == "datalist", None, False


def _kind(control: Tag) -> str:
    """A control's kind: an ``input``'s type (``text`` when absent), a ``button``'s (``submit``
    unless ``button`` or ``reset``), else the element's name (``select``, ``textarea``)."""
    if control.tag == "input":
        return (control.get("type") or "text").lower()
    if control.tag == "button":
        kind = (control.get("type") or "").lower()
        return kind if kind in ("button", "reset") else "submit"
    return str(control.tag)


def _field_entries(control: Tag, kind: str, field: str) -> list[tuple[str, str]]:
    """What a named control other than a button sends (its kind: :func:`_kind`)."""
    if control.tag == "select":
        return [(field, value) for value in _selected(control)]
    if control.tag == "textarea":
        text = control.text or ""
        return [(field, text[1:] if text.startswith("\n") else text)]  # the parser drops a first newline
    if kind in ("checkbox", "radio"):
        checked = control.get("checked") is not None
        return [(field, attribute(control, "value") if control.get("value") is not None else "on")] if checked else []
    if kind == "hidden":
        return [(field, "UTF-8" if field.lower() == "_charset_" else attribute(control, "value"))]
    if kind == "file":
        return []
    # a field's value has no line break (its value sanitization)
    return [(field, attribute(control, "value").replace("\r", "").replace("\n", ""))]


def _button_entries(tag: Tag, kind: str) -> list[tuple[str, str]]:
    """What the pressed button sends: its name and value; an image button, the point pressed (0, 0)."""
    field = attribute(tag, "name")
    if kind == "image":
        prefix = field + "." if field else ""
        return [(prefix + "x", "0"), (prefix + "y", "0")]
    return [(field, attribute(tag, "value"))] if field else []


def _selected(select: Tag) -> list[str]:
    """The values a ``select`` sends: its selected enabled options (HTML's selectedness: a single
    select has the last option marked ``selected``, else, as a drop-down list, its first enabled one)."""
    options = _options(select)
    marked = [(option, disabled) for option, disabled in checked(options) if option.get("selected") is not None]
    if select.get("multiple") is None:  # one option at most; a drop-down list shows one always
        shown_first = [pair for pair in options if not pair[1]][:1] if _display_size(select) == 1 else []
        marked = marked[-1:] or shown_first
    return [_option_value(option) for option, disabled in marked if not disabled]


def _options(select: Tag) -> list[tuple[Tag, bool]]:
    """A ``select``'s options, each with whether it is disabled: its ``option`` children and
    those of its ``optgroup`` children (a disabled group's are)."""
    options: list[tuple[Tag, bool]] = []
    for child in checked(select.iterchildren("option", "optgroup")):  # a select may hold a page of them
        assert isinstance(child, Tag)
        group_disabled = child.tag == "optgroup" and child.get("disabled") is not None
        for option in [child] if child.tag == "option" else child.iterchildren("option"):
            assert isinstance(option, Tag)
            options.append((option, group_disabled or option.get("disabled") is not None))
    return options


def _display_size(select: Tag) -> int:
    """A ``select``'s ``size`` (1 when absent or not a number above 0)."""
    size = attribute(select, "size").strip()
    return int(size) if size.isdigit() and int(size) > 0 else 1


def _option_value(option: Tag) -> str:
    """An option's value: its ``value`` attribute, else its text with its blanks collapsed."""
    value = option.get("value")
    return str(value) if value is not None else " ".join("".join(option.itertext()).split())


def _crlf(text: str) -> str:
    """``text`` with every line break written CR LF, as the form encoding writes them."""
    return _LINE_BREAK.sub("\r\n", text) if "\r" in text or "\n" in text else text


def with_own_fields(form: PageForm, own: Mapping[str, str]) -> PageForm:
    """``form`` sending the call's ``own`` fields, whatever the page's form says or lacks: each
    replaces the form's entry of that name in place (later entries of the name dropped), a
    name the form lacks is added at its end. A page's form never changes what the call asked
    (its query, safe search, time range)."""
    entries: list[tuple[str, str]] = []
    written: set[str] = set()  # the own fields already in entries
    for name, value in form.fields:
        if name not in own:
            entries.append((name, value))
        elif name not in written:
            written.add(name)
            entries.append((name, own[name]))
    entries.extend((name, value) for name, value in own.items() if name not in written)
    return dataclasses.replace(form, fields=tuple(entries))


def form_post(
    form: PageForm, endpoint: str, headers: dict[str, str], provider: str, follow_redirects: bool = True
) -> RequestSpec:
    """``form`` posted to its action read against ``endpoint``, with ``headers`` (the engine's,
    to which a form post's ``Origin`` and ``Content-Type`` are added); ``WebParseError`` when
    the action is not on the endpoint's origin (:func:`followed_origin`)."""
    try:
        url = browser_join(endpoint, form.action or endpoint)  # ``https:\\host`` is that host's, as a browser reads it
    except ValueError:  # no URL (``https://[::1``): followed_origin says so
        url = ""
    origin = followed_origin(url, endpoint, provider, "the page's form for the next page posts")
    sent = dict(headers)
    sent["Origin"] = origin
    sent["Content-Type"] = "application/x-www-form-urlencoded"
    return RequestSpec("POST", url, data=list(form.fields), headers=sent, allow_redirects=follow_redirects)


def followed_origin(url: str, endpoint: str, provider: str, what: str) -> str:
    """``endpoint``'s origin (``https://host``) when ``url`` is on it exactly (:func:`~websearch_sync.net.urls.same_origin`
    without the upgrade to https); else ``WebParseError``: a next page on another host, in plain http
    from an https page, or no http(s) URL is not followed (the token, the query and the pace are that origin's)."""
    target, site = url_parts(url), url_parts(endpoint)
    assert site is not None, endpoint  # the engine's own endpoint: a URL
    if target is None or not same_origin(site[0], target[0], upgrade=False):
        shown = "%s://%s" % (target[0].scheme, target[0].netloc) if target and target[0].netloc else "no http(s) URL"
        raise WebParseError(
            "%s: %s elsewhere (%r), not to %s://%s: not followed"
            % (provider, what, shown[:100], site[0].scheme, site[0].netloc),
            provider=provider,
            detail_code=UNEXPECTED_SHAPE,
        )
    return "%s://%s" % (site[0].scheme, site[0].netloc)
