"""Write the ISO code tables of websearch_sync/vocabulary/locale_codes.py from Debian's iso-codes.

    python docs/locale_code_tables.py                 # rewrite the tables from /usr/share/iso-codes/json
    python docs/locale_code_tables.py --check         # exit status 1 when they differ from that folder
    python docs/locale_code_tables.py --source DIR    # read iso_639-2.json and iso_3166-1.json in DIR

The tables are the ``alpha_2`` codes of iso-codes' ``iso_639-2.json`` (ISO 639-1: the languages with
a two-letter code) and ``iso_3166-1.json`` (ISO 3166-1 alpha-2), and the names of those languages
(``english=en``: what a locale given as a name is told to use), between the module's markers; the
codes BCP 47 adds are the module's own, outside them. ``tests/unit/test_locale_code_tables.py`` checks
the tables against the script's output from a checked-in extract of iso-codes 4.15
(``tests/data/iso-codes``), and from the installed folder too where there is one.
"""

import json
import sys
from pathlib import Path

MODULE = Path(__file__).resolve().parents[1] / "websearch_sync" / "vocabulary" / "locale_codes.py"
SOURCE = Path("/usr/share/iso-codes/json")
START = "# iso-codes-start"
END = "# iso-codes-end"
#: ``(variable, file, its list's key, how the codes are written)``.
TABLES = (
    ("ISO_639_1", "iso_639-2.json", "639-2", str.lower),
    ("ISO_3166_1", "iso_3166-1.json", "3166-1", str.upper),
)
_WIDTH = 96  # codes per line of the literal: what fits the 120-column limit with its indent and quotes


def codes(source: Path, name: str, key: str) -> list[str]:
    """The sorted ``alpha_2`` codes of the records of ``source/name`` (records without one have none)."""
    records = json.loads((source / name).read_text(encoding="utf-8"))[key]
    return sorted({record["alpha_2"] for record in records if "alpha_2" in record})


def language_names(source: Path) -> list[str]:
    """``name=code`` for each name of each ISO 639-1 language of ``source``'s ``iso_639-2.json``, sorted:
    iso-codes separates a record's names with ``;`` (``Spanish; Castilian``), each up to a comma or a
    parenthesis (``Greek, Modern (1453-)``: ``greek``), in lower case, a space written ``_``; a name two
    languages share (``ndebele``: North, ``nd``, and South, ``nr``) is left out."""
    records = json.loads((source / "iso_639-2.json").read_text(encoding="utf-8"))["639-2"]
    found: dict[str, set[str]] = {}
    for record in records:
        for name in record["name"].split(";") if "alpha_2" in record else ():
            short = name.split(",")[0].split("(")[0].strip().lower().replace(" ", "_")
            found.setdefault(short, set()).add(record["alpha_2"])
    return ["%s=%s" % (name, codes.pop()) for name, codes in sorted(found.items()) if len(codes) == 1]


def _literal(words: list[str]) -> str:
    lines, line = [], ""
    for word in words:
        if line and len(line) + len(word) + 1 > _WIDTH:
            lines.append(line + " ")
            line = ""
        line = word if not line else line + " " + word
    lines.append(line)
    return "".join('    "%s"\n' % text for text in lines)


def tables(source: Path) -> str:
    """The text between the markers: each table as a string of codes."""
    blocks = []
    for variable, name, key, case in TABLES:
        words = [case(code) for code in codes(source, name, key)]
        blocks.append(
            "#: %d codes: ``alpha_2`` of iso-codes' ``%s``.\n%s = (\n%s)\n"
            % (len(words), name, variable, _literal(words))
        )
    names = language_names(source)
    blocks.append(
        "#: %d names: ``name`` of iso-codes' ``iso_639-2.json``, ``name=code`` (:func:`language_names`).\n"
        "LANGUAGE_NAMES = (\n%s)\n" % (len(names), _literal(names))
    )
    return "".join(blocks)


def written(module: str, source: Path) -> str:
    """``module`` with the text between the markers replaced by :func:`tables`."""
    before, rest = module.split(START, 1)
    first_line, rest = rest.split("\n", 1)
    _, after = rest.split(END, 1)
    return before + START + first_line + "\n" + tables(source) + END + after


def main(argv: list[str]) -> int:
    """Rewrite the tables, or with ``--check`` say whether they are current (exit status 0) or not (1)."""
    source = Path(argv[argv.index("--source") + 1]) if "--source" in argv else SOURCE
    module = MODULE.read_text(encoding="utf-8")
    expected = written(module, source)
    if "--check" in argv:
        if expected != module:
            sys.stderr.write(
                "locale_codes.py's ISO tables differ from %s: run python docs/locale_code_tables.py\n" % source
            )
            return 1
        return 0
    MODULE.write_text(expected, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
