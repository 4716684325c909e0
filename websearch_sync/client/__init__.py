"""The search client and its parts: caches, rate limits, cool-downs and result fusion."""

__all__: list[str] = []  # internal: the public names are documented in docs/ and README
