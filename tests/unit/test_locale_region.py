"""A locale's region: one rule for what validation checks and what the engines send.

``de-u-co-phonebk`` (German, phone-book collation) was accepted as having no region but sent
as Colombia (Bing ``cc=CO``): the engines took the first two-letter subtag anywhere, the check
stopped at the extension's singleton.
"""

import pytest

from websearch_sync.engine.locales import locale_region, split_locale
from websearch_sync.vocabulary.locale_codes import locale_parts


@pytest.mark.parametrize(
    "locale, language, region",
    [
        ("de-u-co-phonebk", "de", None),  # -u-: a Unicode extension; co is no country
        ("de-u-zz", "de", None),  # ZZ is no country either: the extension, not the code, decides
        ("en-u-uk", "en", None),
        ("en-x-us", "en", None),  # -x-: private use
        ("en-US-u-ca-gregory", "en", "US"),  # the region before the extension
        ("zh-Hant-TW", "zh", "TW"),
        ("sr_Latn_RS", "sr", "RS"),
        ("de", "de", None),
    ],
)
def test_the_engines_and_the_check_read_the_same_region(locale, language, region):
    assert split_locale(locale) == locale_parts(locale) == (language, region)
    assert locale_region(locale) == region


def test_a_region_of_digits_is_a_region_but_no_country():
    assert locale_region("es-419") == "419" and split_locale("es-419") == ("es", None)
    assert locale_region("es-u-419") is None
