"""A corporate network's CA bundle reaches both transports (issue 21 point 4):
``Settings.ca_bundle`` / ``WEB_SEARCH_CA_BUNDLE``, else ``REQUESTS_CA_BUNDLE``, else ``SSL_CERT_FILE``."""

import os
import shutil
import subprocess

import pytest
from fingerprint_lab import CERT, FingerprintServer
from transports import BOTH

import websearch_sync as ws

SOURCES = ["setting", "WEB_SEARCH_CA_BUNDLE", "REQUESTS_CA_BUNDLE", "SSL_CERT_FILE"]


def fetch(url, impersonate):
    return fetch_with(ws.Settings.from_env(impersonate=impersonate, allow_private=True), url)


def fetch_with(settings, url):
    """``url`` fetched as text by a client of ``settings`` (the lab is on loopback: allowed)."""
    with ws.SearchClient("stub", settings=settings, cache_ttl_s=0) as client:
        return client.fetch(url, allow_private=True, extract_mode="text")


def lab_page_text(settings):
    """The lab's page read over HTTPS with ``settings``: its certificate verified by their CA bundle."""
    with FingerprintServer() as server:
        return fetch_with(settings, server.url("/page"))["text"]


@pytest.fixture
def no_bundle(monkeypatch):
    for name in ("WEB_SEARCH_CA_BUNDLE", "REQUESTS_CA_BUNDLE", "SSL_CERT_FILE", "CURL_CA_BUNDLE", "SSL_CERT_DIR"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_a_bundle_that_does_not_exist_is_refused_naming_where_it_was_set(no_bundle, tmp_path):
    """Every HTTPS request over requests used to raise a bare OSError (a traceback from the CLI)."""
    missing = str(tmp_path / "missing.pem")
    with pytest.raises(ws.InvalidInput, match="Settings.ca_bundle must be a CA bundle") as info:
        ws.Settings(ca_bundle=missing)
    assert info.value.detail_code == "bad_setting"
    no_bundle.setenv("WEB_SEARCH_CA_BUNDLE", missing)
    with pytest.raises(ws.InvalidInput, match="WEB_SEARCH_CA_BUNDLE must be a CA bundle.*does not exist"):
        ws.Settings.from_env()


@pytest.mark.parametrize("impersonate", BOTH)
def test_a_certificate_from_an_unknown_ca_is_refused(impersonate, no_bundle, fake_clock):
    with FingerprintServer() as server:
        with pytest.raises(ws.NetworkError) as info:
            fetch(server.url("/page"), impersonate)
    assert info.value.detail_code == "tls_error"
    assert ": its certificate did not verify (" in info.value.message  # why, on both wires


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize("source", SOURCES)
def test_the_bundle_is_trusted_from_each_source(source, impersonate, no_bundle):
    if source == "setting":
        settings = ws.Settings(impersonate=impersonate, ca_bundle=CERT)
    else:
        no_bundle.setenv(source, CERT)
        settings = ws.Settings.from_env(impersonate=impersonate)
    assert "loopback fingerprint lab" in lab_page_text(settings)


def certificate_folder(tmp_path, *, hashed):
    """A folder holding the lab's certificate, prepared with ``openssl rehash`` when ``hashed``."""
    folder = tmp_path / "certs"
    folder.mkdir()
    shutil.copy(CERT, folder / os.path.basename(CERT))
    if hashed:
        if shutil.which("openssl") is None:
            pytest.skip("needs the openssl command to prepare the folder")
        subprocess.run(["openssl", "rehash", str(folder)], check=True, capture_output=True)
    return str(folder)


@pytest.mark.parametrize("impersonate", BOTH)
def test_a_folder_prepared_by_openssl_rehash_is_trusted(impersonate, no_bundle, tmp_path):
    """The browser wire gave a folder to curl as CAINFO (a file): every request failed to verify."""
    folder = certificate_folder(tmp_path, hashed=True)
    assert "loopback fingerprint lab" in lab_page_text(ws.Settings(impersonate=impersonate, ca_bundle=folder))


def test_a_folder_without_hashed_names_is_refused_saying_how_to_prepare_it(no_bundle, tmp_path):
    """Neither wire finds a certificate in such a folder: every HTTPS request would fail to verify."""
    folder = certificate_folder(tmp_path, hashed=False)
    with pytest.raises(ws.InvalidInput, match="Settings.ca_bundle is a folder .* run `openssl rehash ") as info:
        ws.Settings(ca_bundle=folder)
    assert info.value.detail_code == "bad_setting"
    no_bundle.setenv("WEB_SEARCH_CA_BUNDLE", folder)
    with pytest.raises(ws.InvalidInput, match="WEB_SEARCH_CA_BUNDLE is a folder"):
        ws.Settings.from_env()
