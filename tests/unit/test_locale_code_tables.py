"""The ISO tables of vocabulary/locale_codes.py are what docs/locale_code_tables.py writes from
Debian's iso-codes: from the extract of iso-codes 4.15 checked in under tests/data/iso-codes (the
records with an ``alpha_2`` code, their codes and names), and from the installed
/usr/share/iso-codes/json where the machine has it (Debian's ``iso-codes`` package)."""

from pathlib import Path

from docs_scripts import load

EXTRACT = Path(__file__).resolve().parents[1] / "data" / "iso-codes"


def test_the_tables_are_the_scripts_output():
    script = load("locale_code_tables")
    module = script.MODULE.read_text(encoding="utf-8")
    sources = [EXTRACT]
    if script.SOURCE.is_dir():  # Debian's iso-codes installed: the script's default source
        sources.append(script.SOURCE)
    for source in sources:
        assert script.written(module, source) == module, source
