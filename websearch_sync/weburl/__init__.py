"""URLs read as a browser reads them (standard library only, below ``extract`` and ``net``).

- :mod:`.resolve`: a URL a page names (a link, a ``<base href>``, a redirect's target) made
  absolute against the page, as a browser makes it: the extraction's links and the fetch's
  hops must lead to the same place.
"""

__all__: list[str] = []  # internal: the public names are documented in docs/ and README
