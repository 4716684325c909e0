"""A backend's settings: declared once on its class, read by one function.

Each backend lists what it reads in ``Backend.provider_settings``, a tuple of :class:`Setting`:
the key in ``Settings.providers[name]``, the environment variable ``Settings.from_env``
reads it from, its kind, whether the backend needs it, and the range of a number.
:func:`read_settings` is the one reading of those declarations: from the environment
(a malformed number there is logged and left out, as every other variable) and from
``Settings.providers`` (an undeclared key or a value of the wrong kind is
``InvalidInput(bad_setting)`` naming where it was set, when the settings are built).

Configuration sits below the backends and never imports them: the registry hands
it this reading through :func:`websearch_sync.config.use_backends`.
"""

import dataclasses
import json
import logging
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, Optional

from ..config import check_url_setting, env_int, env_text, settings_place
from ..errors import BAD_SETTING, InvalidInput
from ..net import jsontext
from ..secrets import is_secret_name
from ..validate import MAX_TIMEOUT_MS, check_number, close_match
from .option import range_problem

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

logger = logging.getLogger("websearch_sync")
#: A setting's key and an environment variable's name: what a shell can set and code can spell.
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

#: What a setting's value is. ``text``: a string; ``url``: a string naming a URL (an
#: endpoint built from it is checked before any request); ``int``: a whole number in
#: ``minimum..maximum`` (in the environment, its digits); ``json``: a mapping (in the
#: environment, a JSON object's text, read by the backend).
SettingKind = Literal["text", "url", "int", "json"]
KINDS: tuple[SettingKind, ...] = ("text", "url", "int", "json")


@dataclasses.dataclass(frozen=True)
class Setting:
    """One setting a backend reads (see the module docstring).

    Args:
        name: its key in ``Settings.providers[backend]`` (``"api_key"``).
        env: the environment variable ``Settings.from_env`` reads it from
            (``"BRAVE_API_KEY"``); ``None``: settable in code only.
        kind: ``"text"``, ``"url"``, ``"int"`` or ``"json"`` (:data:`SettingKind`).
        required: the backend cannot search without it: a missing one is
            ``AuthError(missing_api_key)`` for a secret, else ``InvalidInput(not_configured)``,
            before any request.
        minimum, maximum: the range of an ``int`` (``maximum=None``: no upper bound).
        default: what the backend reads when it is not set (``Backend.setting_value``;
            ``None``: nothing, or a default that depends on other settings).

    Whether it is a secret (masked in reprs, redacted from messages) follows from its
    name, by the package's one rule (:func:`websearch_sync.secrets.is_secret_name`).
    """

    name: str
    env: Optional[str] = None
    kind: SettingKind = "text"
    required: bool = False
    minimum: int = 1
    maximum: Optional[int] = None
    default: Any = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not _WORD.fullmatch(self.name):
            raise TypeError("Setting.name must be a name of letters, digits and _ (a key), got %r" % (self.name,))
        if self.env is not None and not (isinstance(self.env, str) and _WORD.fullmatch(self.env)):
            raise TypeError(
                "Setting(%r).env must be an environment variable name (letters, digits and _) or None, got %r"
                % (self.name, self.env)
            )
        if self.kind not in KINDS:
            raise TypeError("Setting(%r).kind must be one of %s, got %r" % (self.name, ", ".join(KINDS), self.kind))
        if not isinstance(self.required, bool):
            raise TypeError("Setting(%r).required must be True or False, got %r" % (self.name, self.required))
        problem = range_problem(self.minimum, self.maximum)
        if problem is not None:
            raise TypeError("Setting(%r).%s" % (self.name, problem))
        if self.kind == "int" and self.default is not None:
            try:
                check_number(self.name, self.default, minimum=self.minimum, maximum=self.maximum, detail=BAD_SETTING)
            except InvalidInput as exc:  # the one number rule, as a value set in code meets it
                raise TypeError("Setting(%r).default is refused by its own kind: %s" % (self.name, exc)) from None

    @property
    def secret(self) -> bool:
        """Whether the value is a credential (by its name)."""
        return is_secret_name(self.name)

    def where(self, backend: str) -> str:
        """Where a user sets it: ``Settings.providers['brave']['api_key'] (BRAVE_API_KEY)``."""
        place = "Settings.providers[%r][%r]" % (backend, self.name)
        return settings_place("%s (%s)" % (place, self.env), self.env) if self.env else place

    def describe(self) -> dict[str, Any]:
        """The declaration as JSON (``websearch-sync backends --json``): never a value."""
        described: dict[str, Any] = {
            "name": self.name,
            "env": self.env,
            "kind": self.kind,
            "required": self.required,
            "secret": self.secret,
            "default": self.default,
        }
        if self.kind == "int":
            described.update(minimum=self.minimum, maximum=self.maximum)
        return described

    def env_or_key(self) -> str:
        """Its environment variable, else its key: what a short message names."""
        return self.env or self.name


#: What every backend reads besides its own declaration: its own deadline.
COMMON_SETTINGS: tuple[Setting, ...] = (Setting("timeout_ms", kind="int", maximum=MAX_TIMEOUT_MS),)


def own_timeout(env: str) -> Setting:
    """``timeout_ms`` (every backend's) settable from the environment variable ``env`` too."""
    return dataclasses.replace(COMMON_SETTINGS[0], env=env)


def from_env_vars(env_vars: Mapping[str, str], required: Iterable[str]) -> tuple[Setting, ...]:
    """The declaration of a backend written with the older spelling, ``env_vars =
    {setting: VARIABLE}`` and ``required = (setting, ...)``: a name ending in ``_ms`` or
    ``_default`` is a whole number (as the environment was read then), others text."""
    needed = list(required)
    found = [
        Setting(key, env=var, kind="int" if key.endswith(("_ms", "_default")) else "text", required=key in needed)
        for key, var in env_vars.items()
    ]
    found.extend(Setting(key, required=True) for key in needed if key not in env_vars)
    return tuple(found)


def merged(*declarations: Sequence[Setting]) -> tuple[Setting, ...]:
    """One declaration of several: a later one's setting replaces an earlier one's of the
    same name, in the earlier one's place."""
    found: dict[str, Setting] = {}
    for declaration in declarations:
        for setting in declaration:
            found[setting.name] = setting
    return tuple(found.values())


def read_settings(
    backend: str,
    declared: Sequence[Setting],
    given: Mapping[str, Any],
    environ: Optional[Mapping[str, str]] = None,
) -> dict[str, Any]:
    """Backend ``backend``'s settings: each declared setting's environment variable (when
    ``environ`` is given), overlaid by ``given`` (its ``Settings.providers`` section).

    A malformed number in the environment is logged and left out; in ``given``, a key
    no setting declares (with the closest one) or a value of the wrong kind or range is
    ``InvalidInput(bad_setting)`` naming where it is set. ``None`` stands for unset.
    """
    values: dict[str, Any] = {}
    if environ is not None:
        for setting in declared:
            value = _from_environment(setting, environ)
            if value is not None:
                values[setting.name] = value
    by_name = {setting.name: setting for setting in declared}
    for key, value in given.items():
        if key not in by_name:
            raise _undeclared(backend, str(key), sorted(by_name), declared)
        if value is not None:
            _check(backend, by_name[key], value)
        values[key] = value
    return values


def _from_environment(setting: Setting, environ: Mapping[str, str]) -> Any:
    if setting.env is None:
        return None
    if setting.kind == "int":
        return env_int(environ, setting.env, setting.maximum, setting.minimum)
    return env_text(environ, setting.env) or None


def _check(backend: str, setting: Setting, value: Any) -> None:
    """``InvalidInput(bad_setting)`` unless ``value`` is of the setting's kind (and range); a URL
    holding a control character is ``InvalidInput(bad_endpoint)``."""
    where = setting.where(backend)
    if setting.kind == "int":
        check_number(where, value, minimum=setting.minimum, maximum=setting.maximum, detail=BAD_SETTING)
    elif setting.kind == "json":
        problem = _json_problem(value)
        if problem:
            raise bad_setting(backend, where + " must be a mapping (or a JSON object's text), got " + problem)
    elif not isinstance(value, str):
        raise bad_setting(backend, where + " must be a string, got %s" % type(value).__name__)
    elif setting.kind == "url":
        check_url_setting(value, where, backend)


def refused_keys(backend: str, declared: Sequence[Setting], values: Mapping[str, Any]) -> frozenset[str]:
    """The keys of ``values`` (read from the environment) whose value the check of its declared
    kind refuses (a JSON setting's text that is no object): ``Settings`` leave them to their use."""
    by_name = {setting.name: setting for setting in declared}
    refused = set()
    for key, value in values.items():
        if key in by_name and value is not None:
            try:
                _check(backend, by_name[key], value)
            except InvalidInput:
                refused.add(key)
    return frozenset(refused)


def _json_problem(value: Any) -> Optional[str]:
    """What keeps ``value`` from being a ``json`` setting's value, or ``None``: a mapping, or text that
    parses as one JSON object (``""`` or white space: unset). Text is not quoted: a header's value
    in it is a secret."""
    if isinstance(value, Mapping):
        return None
    if not isinstance(value, str):
        return "%r" % (value,)
    if not value.strip():
        return None
    try:
        parsed = jsontext.loads(value)
    except ValueError as error:  # not JSON, nested too deep (a RecursionError in json.loads), a number too long
        return "text that is no JSON (%s)" % (error.msg if isinstance(error, json.JSONDecodeError) else error)
    return None if isinstance(parsed, dict) else "the JSON text of %s" % _JSON_KINDS[type(parsed)]


#: What a JSON text parsed as, in a message: a setting wanting an object names what it got instead.
_JSON_KINDS: dict[type, str] = {
    list: "an array",
    str: "a string",
    int: "a number",
    float: "a number",
    bool: "a boolean",
    type(None): "null",
}


def _undeclared(backend: str, key: str, accepted: list[str], declared: Sequence[Setting]) -> InvalidInput:
    """The refusal of ``key``, no setting of ``backend``: with the closest setting, or the setting whose
    environment variable ``key`` is (``BRAVE_API_KEY``, the name the docs and ``backends`` show)."""
    variable = next((setting for setting in declared if setting.env and setting.env.lower() == key.lower()), None)
    hint = (
        " (%s is the environment variable of its setting %r: write %r)" % (variable.env, variable.name, variable.name)
        if variable is not None
        else close_match(key, accepted)
    )
    return bad_setting(
        backend,
        "Settings.providers[%r][%r]: backend %s has no setting %r%s; it reads: %s"
        % (backend, key, backend, key, hint, ", ".join(accepted)),
    )


def bad_setting(backend: str, message: str) -> InvalidInput:
    """The error of a provider setting that cannot be used: ``InvalidInput(bad_setting)``."""
    return InvalidInput(message, provider=backend, detail_code=BAD_SETTING)
