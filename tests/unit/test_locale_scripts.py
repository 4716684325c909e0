"""The script a service reads a language tag in (engine/locales.py ``likely_script``), which
``locale.script`` in ``not_sent`` is reported against, checked against CLDR's likelySubtags and
locale list as babel ships them (babel is no dependency: skipped without it)."""

import pytest

from websearch_sync.engine.locales import likely_script

localedata = pytest.importorskip("babel.localedata")
core = pytest.importorskip("babel.core")

LIKELY = core.get_global("likely_subtags")
#: CLDR gives Chinese of a dozen diaspora regions (zh_US, zh_GB, zh_AU...) Traditional; the services
#: read Chinese as Traditional in Taiwan, Hong Kong and Macao only (traditional_chinese), and so does
#: the table.
DIASPORA_CHINESE = {"AU", "BN", "GB", "GF", "ID", "PA", "PF", "PH", "SR", "TH", "US", "VN"}


def _script(identifier: str) -> str:
    return identifier.split("_")[1]


def test_every_language_cldr_writes_in_another_script_has_its_usual_script() -> None:
    """A CLDR locale of a script other than its language's likely one (``sr_Latn``, ``hi_Latn``,
    ``bs_Cyrl``) must be told from its language said alone: its language is in the table."""
    missing = []
    for identifier in localedata.locale_identifiers():
        parts = identifier.split("_")
        if len(parts) < 2 or len(parts[1]) != 4 or parts[0] not in LIKELY:
            continue
        usual = _script(LIKELY[parts[0]])
        if parts[1] != usual and likely_script(parts[0]) != usual:
            missing.append(identifier)
    assert missing == []


def test_each_language_and_region_is_read_in_cldrs_likely_script() -> None:
    """For every language of the table, its usual script and every region CLDR gives another."""
    wrong = []
    for key, value in LIKELY.items():
        language, _, region = key.partition("_")
        if likely_script(language) is None or (region and (len(region) != 2 or not region.isupper())):
            continue
        if language == "zh" and region in DIASPORA_CHINESE:
            continue
        tag = "%s-%s" % (language, region) if region else language
        if likely_script(tag) != _script(value):
            wrong.append((tag, _script(value), likely_script(tag)))
    assert wrong == []


@pytest.mark.parametrize(
    "tag, script",
    [("zh-hant", "Hant"), ("zh-tw", "Hant"), ("zh-US", "Hans"), ("sr-me", "Latn"), ("sr", "Cyrl"), ("de", None)],
)
def test_a_tag_is_read_in_the_script_it_names_else_its_regions(tag: str, script: str) -> None:
    assert likely_script(tag) == script
