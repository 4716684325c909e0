"""What the vertical engines' tests share: recorded bodies from fixtures/ and an answer to hand a parser."""

from pathlib import Path

from requests.structures import CaseInsensitiveDict

from websearch_sync.net.transport import HttpResponse

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"
HTML = "text/html; charset=utf-8"
JSON = "application/json"


def body(backend, name):
    """A recorded body of ``fixtures/<backend>/<name>``, as bytes."""
    return (FIXTURES / backend / name).read_bytes()


def answer(content, url, *, status=200, content_type=HTML, headers=None):
    """An HTTP answer of ``url`` with ``content`` (text or bytes), as the transport hands it over."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    fields = CaseInsensitiveDict({"Content-Type": content_type})
    fields.update(headers or {})
    return HttpResponse(status=status, headers=fields, content=data, url=url)
