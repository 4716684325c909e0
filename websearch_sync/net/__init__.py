"""The network layer: the transport with its deadline and byte caps, body decoding,
the SSRF guard, redirects (HTTP and client-side) and bot-wall recognition.

Nothing here knows about backends, fetch or the client.
"""
