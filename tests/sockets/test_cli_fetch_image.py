"""``websearch-sync fetch`` of an image: refused with a hint naming the flag that reads it, and
read with ``--images`` (its line; with ``--json`` its base64 data). The refusal said "fetch
returns images only when asked" and the command line had no way to ask."""

import base64
import json

from faults import respond
from images import png
from servers import FaultServer

from websearch_sync.cli import main


def test_an_image_is_refused_naming_images_and_read_with_it(capsys):
    body = png(3, 2)
    with FaultServer({"/a.png": respond(200, body, content_type="image/png")}) as server:
        url = server.url("/a.png")
        refused = main(["fetch", url, "--allow-private"])
        refusal = capsys.readouterr().err
        read = main(["fetch", url, "--allow-private", "--images", "--mode", "text"])
        line = capsys.readouterr().out
        in_markdown = main(["fetch", url, "--allow-private", "--images"])  # the default mode
        markdown_line = capsys.readouterr().out
        as_json = main(["fetch", url, "--allow-private", "--images", "--json"])
        result = json.loads(capsys.readouterr().out)
    assert (refused, read, in_markdown, as_json) == (5, 0, 0, 0)
    assert refusal.splitlines()[-1] == "hint: fetch --images reads an image (with --json, its base64 data)"
    assert line.startswith("[image: image/png, 3x2 pixels, ") and markdown_line == line  # not \[image: ...\]
    assert (result["extractor"], base64.b64decode(result["data"])) == ("image", body)
