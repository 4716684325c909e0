"""The hint after a mistyped flag in ``unrecognized arguments: ...``: the flag meant, compared by
name without the ``--`` every flag shares (with it, ``--limit`` was "close" to ``--site``) and
never one of the opposite meaning (``--images``, ``--no-images``), the command a flag belongs to
when it is another command's (``search --max-chars``), or the argument it names (``record
--backend``: BACKEND takes no flag, also as ``--backend=stub``); and the refusal of a command's flag typed
before its command (``--state-url x state show``) or of a first word that is no command."""

import argparse
import difflib
from collections.abc import Iterator, Sequence
from typing import Optional

from ..shellwords import shell_quote
from ..vocabulary.ddgs import DDGS_COMMANDS, ddgs_flag, ddgs_joined_flag
from ..vocabulary.synonyms import OPTION_SYNONYMS

#: The hint after a flag whose opposite the command takes, a flag without a value: what was typed is the default.
_DEFAULT_SAID = " (that is the default: %s, its opposite, applies only when given)"


def flag_hint(typed: str, parser: argparse.ArgumentParser, top: argparse.ArgumentParser) -> str:
    """`` (did you mean --json?)`` after ``--jsn`` given to ``parser``, or `` (--max-chars is a flag
    of fetch)``, or `` (did you mean --format text?)`` for ``--text``, a value of ``--format``; ""
    when no flag is close: a guess from letters alone misleads more than none (``--count``).
    A short flag (``-b``) is judged by its long spelling where other commands take it: the command's
    own long flag (``verify -b``: ``--backend``), else its argument (``record -b``: BACKEND is given
    without a flag), else the commands taking it; no letters are compared for it.
    ``top`` is the command line's parser, whose commands are searched for another one's flag.
    ``search`` given a flag of ddgs's command line (``-r us-en``, ``-t d``) names ours (:func:`ddgs_flag`), its
    value joined too (``-td``, ``-m5``; not ``-site``, ours with one dash: ``-s`` and ``ite``)."""
    return _ddgs_flag_hint(typed, parser) or _own_flag_hint(typed, parser, top)


def _ddgs_flag_hint(typed: str, parser: argparse.ArgumentParser) -> str:
    """:func:`flag_hint` of ``search`` for a flag of ddgs's command line, given alone or with its value
    joined; "" for another command's flag (``fetch -t``: ``fetch`` has no ddgs counterpart)."""
    if _command(parser) != "search":
        return ""
    joined = "" if _takes(parser, "-" + typed) else ddgs_joined_flag(typed)
    return ddgs_flag(typed) or ddgs_flag(joined)


def _own_flag_hint(typed: str, parser: argparse.ArgumentParser, top: argparse.ArgumentParser) -> str:
    """:func:`flag_hint` from this command line's own flags and arguments."""
    name = _flag_name(typed, top)
    if name is None:
        return ""
    if _takes(parser, typed):  # argparse parses its own flags anywhere but after `--` (or a command's flag before it)
        return " (%s is a flag of %s: put it before --)" % (typed, _command(parser))
    long = typed.startswith("--")
    if not long and name and _takes(parser, "--" + name):  # verify -b: it takes --backend, not another command's -b
        return " (did you mean --%s?)" % name
    # the opposite before another command's flag: mcp --images is no flag of fetch meant
    said = positional_hint(name, parser) or ((value_hint(name, parser) or _negated_hint(name, parser)) if long else "")
    return said or _elsewhere_hint(typed, name, parser, top)


def _elsewhere_hint(typed: str, name: str, parser: argparse.ArgumentParser, top: argparse.ArgumentParser) -> str:
    """The commands that take flag ``typed`` when ``parser``'s does not; else, for a long flag, the
    flag of ``parser`` another API's name or a slip of it means (:func:`_own_flag_hint`'s last resorts)."""
    owners = [_command(command) for command in command_parsers(top) if command is not parser and _takes(command, typed)]
    if owners:
        return " (%s is a flag of %s)" % (typed, ", ".join(owners))
    if not typed.startswith("--"):
        return ""
    return _backend_option_hint(name, parser) or _synonym_hint(name, parser) or closest_flag_hint(name, parser)


def _backend_option_hint(name: str, parser: argparse.ArgumentParser) -> str:
    """`` (a backend option: --option fresh=VALUE)`` for ``--fresh`` given to a command taking ``--option``
    when a registered backend declares option ``fresh`` (a plugin's too; ``--max-pages``: ``max_pages``);
    "" for any other name. Before, ``search q -b searxng --categories news`` was refused naming nothing."""
    option = name.replace("-", "_")
    if not (option and _takes(parser, "--option")):
        return ""
    from ..engine.registry import backend_options  # the registry (and so the plugins) only on this error's path

    return " (a backend option: --option %s=VALUE)" % option if option in backend_options() else ""


def _synonym_hint(name: str, parser: argparse.ArgumentParser) -> str:
    """`` (did you mean -n?)`` for another API's name of an input a flag of ``parser`` sets (``--limit``,
    ``--count``, ``--top-k``: ``-n``; ``--provider``: ``-b``), as ``search(limit=3)`` names ``max_results``
    (:data:`~..vocabulary.synonyms.OPTION_SYNONYMS`); "" for any other name: letters alone name nothing there."""
    ours = OPTION_SYNONYMS.get(name.replace("-", "_").lower())
    flags = [action.option_strings[0] for action in parser._actions if action.option_strings and action.dest == ours]
    return " (did you mean %s?)" % flags[0] if ours and flags else ""


def _negated_hint(name: str, parser: argparse.ArgumentParser) -> str:
    """:data:`_DEFAULT_SAID` when ``parser`` takes ``--no-<name>``, a flag without a value; else ""."""
    negated = "--no-" + name
    return _DEFAULT_SAID % negated if _takes(parser, negated) and _action(parser, negated).nargs == 0 else ""


def _flag_name(typed: str, top: argparse.ArgumentParser) -> Optional[str]:
    """The name of flag ``typed`` without its dashes, a short flag's by its long spelling
    (:func:`_long_name`, "" when it has none); ``None`` when ``typed`` is no flag."""
    if typed.startswith("--"):
        return typed[2:] or None
    return _long_name(typed, top) if len(typed) == 2 and typed[0] == "-" else None


def _long_name(short: str, top: argparse.ArgumentParser) -> str:
    """The one long spelling, without its ``--``, that the commands under ``top`` give the short
    flag ``short`` (``-b``: ``backend``); "" when they give it none or several."""
    names = {
        flag[2:]
        for command in command_parsers(top)
        for action in command._actions
        if short in action.option_strings
        for flag in action.option_strings
        if flag.startswith("--")
    }
    return names.pop() if len(names) == 1 else ""


#: Words that turn a flag's meaning around (``--no-images``, ``--exclude-content``), and words
#: that only say it is on (``--include-content``): neither is what the flag is about.
NEGATING = frozenset({"no", "not", "non", "dont", "without", "exclude", "disallow", "deny", "disable", "hide", "off"})
AFFIRMING = frozenset({"include", "allow", "enable", "with", "show", "on"})
#: How alike two flags' subjects (their words but those above) must be to be one subject.
SAME_SUBJECT = 0.8


def closest_flag_hint(name: str, parser: argparse.ArgumentParser) -> str:
    """`` (did you mean --json?)`` for the flag of ``parser`` that ``name`` (a flag without its
    ``--``) means, or "": the closest by a flag's name or by what it sets (its ``dest``:
    ``--site-filter`` means ``--site``), ``-`` and ``_`` alike; else the one flag whose first
    word ``name``'s is (``--skip-existing``: ``--skip-done``), a word of four letters or more.

    A flag of the opposite meaning is never the one meant, however alike the letters
    (``mcp --images`` was "did you mean --no-images?"): when it takes no value, the hint says
    that leaving it out gives what was typed; a flag whose words say yes or no to another
    subject (``--no-comments``, ``--no-images``) is no match either. A value of the flag in the
    name (``--safe-off``) is hinted with it: ``--safe-search off``."""
    spelled = _spellings(parser)
    typed = name.replace("-", "_").lower()  # flags are lower case: --JSON means --json
    first = typed.split("_")[0]
    starting = [flag for key, flag in spelled.items() if key.split("_")[0] == first]
    candidates = [spelled[key] for key in difflib.get_close_matches(typed, list(spelled), n=len(spelled))]
    if len(first) >= 4 and len(set(starting)) == 1:
        candidates.append(starting[0])
    for flag in candidates:
        values = listed_values(_action(parser, flag)) or ()
        same = _same_meaning(typed, flag[2:], frozenset(values))
        if same:  # with the value the name holds (--safe-off: --safe-search off; alone, it wants one)
            value = next((word for word in typed.split("_") if word in values), None)
            return " (did you mean %s?)" % (flag if value is None else "%s %s" % (flag, value))
        if same is False and _action(parser, flag).nargs == 0:
            return _DEFAULT_SAID % flag
    return ""


def _same_meaning(typed: str, flag: str, values: frozenset[str] = frozenset()) -> Optional[bool]:
    """Whether flag name ``flag`` means what ``typed`` does (True), its opposite (False: one of
    them is negated, ``images``/``no-images``), or neither (None: they are about different
    subjects, ``no-comments``/``no-images``). Names without a yes or no word are compared by
    their letters alone, as the caller did. ``values``: the flag's choices, words that are no yes
    or no (``--safe-off``: ``off`` is a value of ``--safe-search``, which it means)."""
    negating, yes_no = NEGATING - values, (NEGATING | AFFIRMING) - values
    typed_words, flag_words = typed.split("_"), flag.replace("-", "_").split("_")
    if not yes_no.intersection(typed_words + flag_words):
        return True
    typed_subject, flag_subject = ("_".join(w for w in words if w not in yes_no) for words in (typed_words, flag_words))
    if (
        not (typed_subject and flag_subject)
        or difflib.SequenceMatcher(None, typed_subject, flag_subject).ratio() < SAME_SUBJECT
    ):
        return None
    negated = [sum(word in negating for word in words) % 2 for words in (typed_words, flag_words)]
    return negated[0] == negated[1]


def _action(parser: argparse.ArgumentParser, flag: str) -> argparse.Action:
    """The action of ``parser`` that ``flag`` names."""
    return next(action for action in parser._actions if flag in action.option_strings)


def positional_hint(name: str, parser: argparse.ArgumentParser) -> str:
    """`` (BACKEND is given without a flag: websearch-sync record BACKEND QUERY)`` for ``--backend``
    given to a command that reads the backend as an argument (``record``, ``check-live``; ``search
    --query``, ``fetch --url``): naming other commands' ``--backend`` sent the user away from the
    command they meant. "" when ``name`` is no argument of ``parser``."""
    positionals = [action for action in parser._get_positional_actions() if action.dest != argparse.SUPPRESS]
    meant = [action for action in positionals if name and action.dest == name.replace("-", "_").lower()]
    if not meant or isinstance(meant[0], argparse._SubParsersAction):
        return ""
    formatter = parser._get_formatter()
    usage = " ".join(formatter._format_args(action, action.dest.upper()) for action in positionals)
    return " (%s is given without a flag: websearch-sync %s %s)" % (
        formatter._metavar_formatter(meant[0], meant[0].dest.upper())(1)[0],
        _command(parser),
        usage,
    )


def _spellings(parser: argparse.ArgumentParser) -> dict[str, str]:
    """Each ``--`` flag of ``parser`` by its name and by its ``dest``, ``-`` written ``_``."""
    spelled = {}
    for action in parser._actions:
        flags = [flag for flag in action.option_strings if flag.startswith("--")]
        for flag in flags:
            spelled[flag[2:].replace("-", "_")] = flag
        if flags:
            spelled.setdefault(action.dest, flags[0])
    return spelled


def _command(parser: argparse.ArgumentParser) -> str:
    """A command's name as typed after the program's (``state show``)."""
    return parser.prog.split(" ", 1)[1]


def value_hint(word: str, parser: argparse.ArgumentParser) -> str:
    """`` (did you mean --mode text?)`` for ``word``, a value of one of ``parser``'s flags given
    without it (``fetch URL text``, ``--text``); "" for any other word."""
    for action in parser._actions:
        if action.option_strings and word in (listed_values(action) or ()):
            return " (did you mean %s %s?)" % (action.option_strings[-1], word)
    return ""


def listed_values(action: argparse.Action) -> Optional[Sequence[str]]:
    """The values ``action``'s flag takes: its ``choices``, or those its metavar lists
    (``--mode markdown|text``: a flag whose value the library checks, naming the closest), else ``None``."""
    if action.choices is not None:
        return list(action.choices)
    metavar = action.metavar
    return metavar.split("|") if isinstance(metavar, str) and "|" in metavar else None


def command_parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    """The parser of each command under ``parser``, a command's commands too (``state show``)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command in action.choices.values():
                yield command
                yield from command_parsers(command)


def command_names(parser: argparse.ArgumentParser) -> list[str]:
    """The names of the commands right under ``parser``, in their order."""
    return list(_commands_under(parser))


def _commands_under(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The parser of each command right under ``parser``, by its name (``state``: ``show``, ``clear``)."""
    commands: dict[str, argparse.ArgumentParser] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            commands.update(action.choices)
    return commands


def command_hint(words: Sequence[str], commands: Sequence[str]) -> str:
    """The refusal of a first word that is no command (``words``: the command line), with the
    command meant: a close one (``serach``: search), else the query given without its command
    (``websearch-sync python requests --json``: ``websearch-sync search "python requests" --json``,
    the words up to the first flag quoted as one (:func:`shell_quote`), the rest after it); argparse's "invalid
    choice" named no way on."""
    word = words[0]
    vertical = DDGS_COMMANDS.get(word)
    if vertical is not None and len(words) > 1:  # ddgs news "red panda": a news search
        line = _search_line(words[1:]) + ([] if vertical == "web" else ["--vertical", vertical])
        return "unknown command %r (ddgs's %s: here websearch-sync search %s)" % (word, word, " ".join(line))
    close = difflib.get_close_matches(word, list(commands), n=1)
    if close:
        return "unknown command %r (did you mean %s?)" % (word, close[0])
    return "unknown command %r: the commands are %s; to search for it: websearch-sync search %s" % (
        word,
        ", ".join(commands),
        " ".join(_search_line(words)),
    )


def _search_line(words: Sequence[str]) -> list[str]:
    """``words`` as ``search``'s arguments: those up to the first flag quoted as one query
    (:func:`shell_quote`; none when a flag comes first), the rest each quoted after it."""
    flags = next((at for at, each in enumerate(words) if each.startswith("-")), len(words))
    query = [shell_quote(" ".join(words[:flags]))] if flags else []
    return query + [shell_quote(each) for each in words[flags:]]


def misplaced_flag_hint(words: Sequence[str], top: argparse.ArgumentParser) -> tuple[argparse.ArgumentParser, str]:
    """The refusal of a command's flag typed before its command, or before a command's own
    command (``websearch-sync -b stub python``, ``--state-url x state show``, ``state
    --state-url x show``: argparse took the flag's value for the command and said "invalid
    choice: 'x'"), and the parser whose usage goes with it; "" when no flag is out of place.

    The commands typed are followed down (``state``, then ``show``); the first flag given before
    a command that the command above it does not take (the program's own, ``--version``, are in
    place) is the one said. The command typed takes it: the line with the commands first
    (``websearch-sync state show --state-url x``). It does not: what the command says of a flag
    it does not take (:func:`flag_hint`: ``record``'s BACKEND is given without a flag). No
    command typed: the commands taking it, the line with the first of them first."""
    path, parser, rest, misplaced = _commands_typed(words, top)
    if not misplaced or _abbreviates(misplaced, top):
        return top, ""
    own = _program_flag_hint(misplaced, top) if misplaced in _before_commands(words, path) else ""
    if not path:
        owners = [command for command in command_parsers(top) if _takes(command, misplaced)]
        if not owners:  # no command's flag either: the program's own, mistyped (--versoin), or none
            return top, "unrecognized arguments: %s%s" % (misplaced, own)
        path = _command(owners[0]).split(" ")
        where = ", ".join(_command(command) for command in owners)
    elif _takes(parser, misplaced):
        where = " ".join(path)
    else:
        hint = flag_hint(misplaced, parser, top)
        # the program's own flag mistyped (--verison search q): the program's usage, not the command's
        return (parser if hint or not own else top), "unrecognized arguments: %s%s" % (misplaced, hint or own)
    line = " ".join(shell_quote(word) for word in [*path, *rest])
    return parser, "%s is a flag of %s: the command comes first (websearch-sync %s)" % (misplaced, where, line)


def missing_action_hint(words: Sequence[str], top: argparse.ArgumentParser) -> tuple[argparse.ArgumentParser, str]:
    """The refusal of a command typed without one of its own commands (``websearch-sync state``), naming
    each with what it does, and the parser whose usage goes with it ("" when none is missing): argparse
    said "the following arguments are required: ACTION", naming none. Asking for help is no slip."""
    path, parser, rest, _ = _commands_typed(words, top)
    actions = _commands_under(parser)
    if not path or not actions or any(word in ("-h", "--help") for word in rest):
        return top, ""
    helps = {
        choice.dest: choice.help for action in parser._actions for choice in getattr(action, "_choices_actions", ())
    }
    said = "; ".join("%s: %s" % (name, helps[name]) if helps.get(name) else name for name in actions)
    return parser, "give an action: %s" % said


def _before_commands(words: Sequence[str], path: Sequence[str]) -> list[str]:
    """The flags (without a joined value) typed before the first command of ``path``: the program's place."""
    end = words.index(path[0]) if path else len(words)
    return [word.split("=", 1)[0] for word in words[:end] if word.startswith("-")]


def _abbreviates(typed: str, top: argparse.ArgumentParser) -> bool:
    """Whether ``typed`` is a unique prefix of one of the program's own long flags, which argparse
    reads as that flag (``--vers``: ``--version``)."""
    own = [flag for action in top._actions for flag in action.option_strings if flag.startswith("--")]
    return typed.startswith("--") and len([flag for flag in own if flag.startswith(typed)]) == 1


def _program_flag_hint(typed: str, top: argparse.ArgumentParser) -> str:
    """`` (did you mean --version?)`` for a mistyped flag of the program itself (``--versoin``, ``-version``
    with one dash, ``-V``: the one long flag its letter starts), "" when none is meant."""
    name = typed.lstrip("-")
    if len(name) != 1:
        return closest_flag_hint(name, top) if name else ""
    own = [flag for action in top._actions for flag in action.option_strings if flag.startswith("--")]
    starting = [flag for flag in own if flag[2:3] == name.lower()]
    return " (did you mean %s?)" % starting[0] if len(starting) == 1 else ""


def joined_argument_flag_hint(
    words: Sequence[str], top: argparse.ArgumentParser
) -> tuple[argparse.ArgumentParser, str]:
    """The refusal of a command's argument typed as a flag with its value joined to it (``record
    --backend=stub q``, ``record -bstub q``, ``fetch --url=URL``), and the command's parser; "" when
    there is none. argparse took the next word for that argument and said "the following arguments
    are required: query", naming neither the flag nor the way; the flag given apart from its value
    (``record --backend stub q``) got :func:`positional_hint`, as this now does."""
    path, parser, rest, _ = _commands_typed(words, top)
    if not path:
        return top, ""
    for word in rest[: rest.index("--") if "--" in rest else len(rest)]:
        flag = _joined_flag(word)
        hint = positional_hint(_flag_name(flag, top) or "", parser) if flag and not _takes(parser, flag) else ""
        if hint:
            return parser, "unrecognized arguments: %s%s" % (word, hint)
    return parser, ""


def _joined_flag(word: str) -> Optional[str]:
    """The flag of ``word`` when a value is joined to it: ``--backend`` of ``--backend=stub``, ``-b``
    of ``-bstub``; ``None`` for any other word."""
    if word.startswith("--") and "=" in word:
        return word.split("=", 1)[0]
    if len(word) > 2 and word[0] == "-" and word[1].isalpha():
        return word[:2]
    return None


def _commands_typed(
    words: Sequence[str], top: argparse.ArgumentParser
) -> tuple[list[str], argparse.ArgumentParser, list[str], str]:
    """The commands typed in ``words``, followed down from ``top`` (``state``, then ``show``): their
    names, the last one's parser, the other words in their order, and the first flag given before
    a command that the command above it does not take ("" when there is none). The words after
    the last command are its own, for argparse to judge."""
    parser, path, rest, start, misplaced = top, [], list(words), 0, ""
    commands = _commands_under(parser)
    while commands:
        at = next((at for at in range(start, len(rest)) if rest[at] in commands or rest[at] == "--"), len(rest))
        flags = (word.split("=", 1)[0] for word in rest[start:at] if word.startswith("-"))
        misplaced = misplaced or next((flag for flag in flags if not _takes(parser, flag)), "")
        if at == len(rest) or rest[at] == "--":
            break
        path.append(rest.pop(at))
        parser, start = commands[path[-1]], at
        commands = _commands_under(parser)
    return path, parser, rest, misplaced


def _takes(parser: argparse.ArgumentParser, flag: str) -> bool:
    """Whether ``flag`` (``-b``, ``--json``) is one of ``parser``'s own."""
    return any(flag in action.option_strings for action in parser._actions)
