"""The codes and words input is checked against, as tables (standard library only, below ``validate``).

- :mod:`.locale_codes`: ISO 639-1 languages and ISO 3166-1 countries, a locale's parts;
- :mod:`.ddgs`: ddgs's argument names, values and regions, and ours for each;
- :mod:`.synonyms`: other search APIs' names for our options (``count``, ``site``), and ours for each.
"""

__all__: list[str] = []  # internal: the public names are documented in docs/ and README
