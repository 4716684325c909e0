"""The fetch tool's description names PDFs only where fetch reads them (the ``pdf`` extra): a model
sent to a paper's PDF link then knows it may read it, and is not promised what would fail."""

import pytest

import websearch_sync as ws
from websearch_sync import tool


@pytest.mark.parametrize("readable, says", [(True, True), (False, False)])
def test_the_fetch_tools_description_names_pdfs_where_fetch_reads_them(monkeypatch, readable, says):
    monkeypatch.setattr(tool, "pdf_readable", lambda: readable)
    for style in ("openai", "anthropic", "json_schema"):
        text = repr(tool.tool_definitions(style))
        assert ("Read one web page or PDF (http or https URL)" in text) is says, style
        assert "Read one web page" in text


def test_pdf_readable_is_what_the_reader_finds():
    from websearch_sync.reader.pdf import _pypdf, pdf_readable

    assert pdf_readable() is (_pypdf() is not None)


@pytest.mark.parametrize("downscalable, larger", [(True, "scaled down to fit"), (False, "a larger one is refused")])
def test_the_fetch_tools_description_names_images_with_their_caps_where_the_host_returns_them(
    monkeypatch, downscalable, larger
):
    monkeypatch.setattr(tool, "image_downscalable", lambda: downscalable)
    [returned] = tool.tool_definitions("anthropic", tools=("fetch",), images=True)
    text = returned["description"]
    assert "An image URL (PNG, JPEG, GIF or WebP) returns the image itself, at most 3.9 MB and 8000 pixels" in text
    assert larger in text
    assert "an animation (GIF, APNG, WebP) returns its first frame" in text
    [refused] = tool.tool_definitions("anthropic", tools=("fetch",))
    assert "image" not in refused["description"].lower()
    [line] = tool.tool_definitions("anthropic", tools=("fetch",), images=tool.IMAGE_LINE)
    assert "returns one line describing the image (type, size), not the image" in line["description"]


def test_the_caps_in_the_description_are_the_readers():
    from websearch_sync.reader import image

    [returned] = tool.tool_definitions("json_schema", tools=("fetch",), images=True)
    assert (
        "at most %.1f MB and %d pixels a side" % (image.MAX_IMAGE_BYTES / 1e6, image.MAX_IMAGE_SIDE)
        in (returned["description"])
    )
    assert image.image_downscalable() is (image._pillow() is not None)


def test_images_other_than_true_false_or_line_are_refused():
    with pytest.raises(ws.InvalidInput) as caught:
        tool.tool_definitions("openai", images="yes")
    assert caught.value.detail_code == "bad_images"
    assert caught.value.message == "images must be true, false or 'line', got 'yes'"  # as every flag: JSON's words


def test_the_mcp_servers_fetch_tool_says_what_it_returns():
    from websearch_sync.mcp.tools import McpTools

    client = ws.SearchClient(settings=ws.Settings(backend="stub"))
    with_images = {d["name"]: d["description"] for d in McpTools(client).definitions()}
    without = {d["name"]: d["description"] for d in McpTools(client, images=False).definitions()}
    assert "returns the image itself" in with_images["web_fetch"]
    assert "image" not in without["web_fetch"].lower()
    assert McpTools(client, images=False).session.images is False
