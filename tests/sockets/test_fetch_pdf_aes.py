"""A PDF encrypted with AES and the empty user password (Acrobat's "no opening password, no
editing" export): read through the ``pdf`` extra, which brings pypdf's AES (the cryptography
package); where pypdf has none (installed alone), ``pdf_encrypted`` saying what to install, not
``pdf_broken`` naming pypdf's ``DependencyError``, which tells the user nothing of the cause."""

import io

import pytest
from faults import respond
from pdfs import text_pdf
from servers import FaultServer

import websearch_sync as ws


def aes_pdf(algorithm: str) -> bytes:
    """A one-page PDF encrypted with ``algorithm``, opened by the empty user password."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(text_pdf([["Minutes of the board."]], title="Minutes"))))
    writer.encrypt(user_password="", owner_password="owner", algorithm=algorithm)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def without_aes(monkeypatch) -> None:
    """pypdf as it is without cryptography or pycryptodome: its fallback provider, whose AES raises
    ``DependencyError`` (pypdf picks its provider once, when first imported)."""
    from pypdf import _encryption
    from pypdf._crypt_providers import _fallback

    for name in ("CryptAES", "aes_cbc_decrypt", "aes_cbc_encrypt", "aes_ecb_decrypt", "aes_ecb_encrypt"):
        monkeypatch.setattr(_encryption, name, getattr(_fallback, name))


@pytest.mark.parametrize("algorithm", ["AES-128", "AES-256"])
def test_an_aes_pdf_without_an_aes_implementation_is_encrypted_naming_the_package(algorithm, monkeypatch):
    body = aes_pdf(algorithm)  # written with AES, then read without it
    without_aes(monkeypatch)
    with FaultServer({"/m.pdf": respond(200, body, content_type="application/pdf")}) as server:
        with pytest.raises(ws.WebSearchError) as info:
            ws.fetch(server.url("/m.pdf"), allow_private=True, settings=ws.Settings())
    error = info.value
    assert (type(error).__name__, error.detail_code) == ("WebProviderError", "pdf_encrypted"), repr(error)
    assert "cryptography" in error.message


@pytest.mark.parametrize("algorithm", ["AES-128", "AES-256"])
def test_an_aes_pdf_with_the_empty_password_is_read_where_aes_is_available(algorithm):
    body = aes_pdf(algorithm)
    with FaultServer({"/m.pdf": respond(200, body, content_type="application/pdf")}) as server:
        result = ws.fetch(server.url("/m.pdf"), allow_private=True, settings=ws.Settings())
    assert (result["extractor"], result["title"], result["text"]) == ("pdf", "Minutes", "Minutes of the board.")


def test_the_pdf_extra_brings_the_aes_implementation():
    import configparser
    from pathlib import Path

    from packaging.requirements import Requirement

    setup = configparser.ConfigParser()
    setup.read(Path(__file__).resolve().parents[2] / "setup.cfg", encoding="utf-8")
    extras = setup["options.extras_require"]
    for extra in ("pdf", "test"):
        pypdf = [Requirement(line) for line in extras[extra].split() if line.lower().startswith("pypdf")]
        assert [requirement.extras for requirement in pypdf] == [{"crypto"}], extra
