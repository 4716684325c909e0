"""``websearch-sync fetch``: read one page as markdown or text."""

import argparse
import os
from urllib.parse import urlsplit

from ..config import DEFAULT_MAX_BYTES, DEFAULT_MAX_CHARS, MIN_FETCH_BYTES, Settings
from ..engine.stdout_claim import owner_stdout
from ..models import EXTRACT_MODES
from ..net.urls import local_file_error
from .output import EXIT_OK, add_impersonate, int_arg, json_text, refuse_missing_output

__all__: list[str] = []  # internal: the public names are documented in docs/ and README


def add_parser(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the ``fetch`` sub-command."""
    parser = commands.add_parser(
        "fetch",
        help="read one web page as markdown or text",
        description="Read one web page (http or https) and print its main content.",
        epilog="examples:\n  websearch-sync fetch https://example.com/article\n"
        "  websearch-sync fetch https://example.com/article --mode text --max-chars 2000 --json\n"
        "  websearch-sync fetch https://example.com/logo.png --images --json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("url", metavar="URL", help="the page to read")
    parser.add_argument(  # no argparse choices: the library names the closest (md: markdown)
        "--mode",
        metavar="|".join(EXTRACT_MODES),
        default="markdown",
        help="output of the extraction (default markdown)",
    )
    parser.add_argument(
        "--max-chars",
        type=int_arg,
        default=DEFAULT_MAX_CHARS,
        help="cap on the returned characters (default %d)" % DEFAULT_MAX_CHARS,
    )
    parser.add_argument(
        "--max-bytes",
        type=int_arg,
        default=DEFAULT_MAX_BYTES,
        help="cap on the bytes read, at least %d (default %d)" % (MIN_FETCH_BYTES, DEFAULT_MAX_BYTES),
    )
    parser.add_argument(
        "--timeout-ms", type=int_arg, help="deadline of the whole call in milliseconds (redirects and reading included)"
    )
    parser.add_argument(
        "--allow-private", action="store_true", help="allow loopback/private addresses (trusted local use)"
    )
    parser.add_argument("--include-comments", action="store_true", help="keep the page's reader comment threads")
    parser.add_argument(
        "--images",
        action="store_true",
        help="read an image (PNG, JPEG, GIF, WebP) too: a line saying what it is, with --json its base64 data"
        " (without it an image is refused)",
    )
    parser.add_argument("--json", action="store_true", help="print the fetch result as JSON")
    parser.add_argument(
        "--state-url",
        metavar="URL",
        help="Redis URL sharing answers (300 s), rate limits and cool-downs with other processes"
        " (default: WEB_SEARCH_STATE_URL)",
    )
    add_impersonate(parser)
    parser.set_defaults(run=run)


#: What a page cut short says of getting more, by what cut it: the flags that set them.
_MORE = {"max_chars": "a larger --max-chars returns more", "max_bytes": "a larger --max-bytes reads more"}


def run(args: argparse.Namespace) -> int:
    """Fetch the page and print it."""
    from ..api import SHARED_CACHE_TTL_S
    from ..client.search_client import SearchClient
    from ..reader.image import EXTRACTOR as IMAGE_EXTRACTOR
    from ..tool import format_fetched

    refuse_missing_output(owner_stdout())  # before the page is read for no one
    if _names_local_path(args.url):
        raise local_file_error(args.url)
    settings = Settings.from_env(impersonate=args.impersonate) if args.impersonate else Settings.from_env()
    # as websearch_sync.fetch: with a shared state, its cache (so workers fetching one page at once read it once)
    shared = bool(args.state_url if args.state_url is not None else settings.state_url)
    ttl = SHARED_CACHE_TTL_S if shared else 0
    with SearchClient(cache_ttl_s=ttl, settings=settings, state_url=args.state_url) as client:
        result = client.fetch(
            args.url,
            extract_mode=args.mode,
            max_chars=args.max_chars,
            max_bytes=args.max_bytes,
            timeout_ms=args.timeout_ms,
            allow_private=args.allow_private,
            include_comments=args.include_comments,
            images=args.images,
        )
    out = owner_stdout()
    if args.json:
        out.write(json_text(result, out, indent=2) + "\n")
    else:
        # an image's line is the library's own, shown as written: markdown's escapes (\[image: ...\]) serve a renderer
        markdown = args.mode.lower() == "markdown" and result.get("extractor") != IMAGE_EXTRACTOR
        text = format_fetched(result, "markdown" if markdown else "text", _MORE)
        out.write(text + "\n")
    return EXIT_OK


def _names_local_path(url: str) -> bool:
    """Whether ``url``, typed without a scheme, names a file or folder on disk (``README.md``,
    ``docs/cli.md``): the library, which cannot know the caller's folder, reads ``README.md`` as a host
    (``.md`` is a top-level domain) and would suggest ``https://README.md/``; the command line runs in
    the user's folder, so a name found there is the file the user meant. A malformed URL is no path."""
    try:
        scheme = urlsplit(url).scheme
    except ValueError:
        return False
    return not scheme and os.path.exists(os.path.expanduser(url))
