"""The alphabet of hypothesis's ``st.text()``, without the table hypothesis builds for it.

``st.text()`` draws from ``characters(codec="utf-8")``: for a codec, hypothesis encodes each of the
1.1 million code points to learn which it takes (1.3 s of CPU), once per process unless its
``.hypothesis`` folder keeps the result, which a fresh clone (CI) has not: each xdist worker whose
tests drew text paid it (``test_extract_fuzz.py`` 3.0 s of CPU instead of 1.7 s). UTF-8 encodes
every code point but the surrogates, which are exactly the category ``Cs``, so :data:`UTF8_CHARS`
is the same alphabet (the same intervals: the same draws) with no table; ``text(UTF8_CHARS)`` is
what ``text()`` was. ``tests/unit/test_suite_setup.py`` checks both.
"""

from hypothesis import strategies as st

#: Every character UTF-8 encodes: every code point but the surrogates (U+D800-U+DFFF).
UTF8_CHARS = st.characters(exclude_categories=("Cs",))
