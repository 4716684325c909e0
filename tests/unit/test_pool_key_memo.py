"""The requests adapter keeps requests' pool key per origin, ``verify`` and ``cert``
(``DeadlineAdapter.build_connection_pool_key_attributes``): it must give what requests gives for
each, a CA directory told from a CA file as requests tells them, and copies a caller may change."""

import requests

from websearch_sync.net.requests_adapter import DeadlineAdapter


def _prepared(url: str) -> requests.PreparedRequest:
    return requests.Request("GET", url).prepare()


def test_the_kept_pool_key_is_what_requests_gives_for_each_setting(tmp_path):
    bundle = tmp_path / "bundle.pem"
    bundle.write_text("")
    adapter, plain = DeadlineAdapter(), requests.adapters.HTTPAdapter()
    cases = [
        ("https://Example.org:8443/a", str(bundle), None),
        ("https://example.org:8443/b", str(tmp_path), None),  # same origin, a directory
        ("https://user:pw@example.org:8443/c", True, ("c.pem", "k.pem")),
        ("http://127.0.0.1:8080/d", False, "c.pem"),
    ]
    for _ in range(2):  # the second pass reads the kept keys
        for url, verify, cert in cases:
            request = _prepared(url)
            expected = plain.build_connection_pool_key_attributes(request, verify, cert)
            assert adapter.build_connection_pool_key_attributes(request, verify, cert) == expected
    host, tls = adapter.build_connection_pool_key_attributes(_prepared("https://example.org:8443/"), str(tmp_path))
    assert tls["ca_cert_dir"] == str(tmp_path) and "ca_certs" not in tls
    host["host"], tls["cert_reqs"] = "elsewhere", "CERT_NONE"  # a caller's change stays its own
    again = adapter.build_connection_pool_key_attributes(_prepared("https://example.org:8443/"), str(tmp_path))
    assert again == (
        {"scheme": "https", "host": "example.org", "port": 8443},
        {"ca_cert_dir": str(tmp_path), "cert_reqs": "CERT_REQUIRED"},
    )
