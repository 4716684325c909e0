"""Main-content extraction: readability plus generic boilerplate rules (each one
switchable by name, see ``rules``) and recovery of fragmentary extractions from the page's
main text region, rendered as markdown or plain text. Pure functions over HTML text; no I/O.

``extract_html`` is imported at its first read (PEP 562): a module of the package that needs
no parser (``mdescape``, which the PDF reader escapes its lines with) loads without lxml. (The
package sits below ``engine``, whose ``lazy_exports`` the other packages use for this.)"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .article import extract_html

__all__ = ["extract_html"]


def __getattr__(name: str) -> Any:
    """``extract_html``, imported with the parser at its first read (then a plain attribute)."""
    if name != "extract_html":
        raise AttributeError("module %r has no attribute %r" % (__name__, name))
    from .article import extract_html

    globals()[name] = extract_html
    return extract_html


def __dir__() -> list[str]:
    """The module's names, ``extract_html`` among them before its first read (what pdoc lists)."""
    return sorted(set(globals()) | set(__all__))
