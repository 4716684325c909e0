"""How many examples each hypothesis property of the suite runs: a moderate count in the README's
``pytest``, and a thorough one with ``pytest --hypothesis-profile=deep`` (the profile
``tests/conftest.py`` registers), for a run before a release or after a change to what a property
covers. A property names both where it is declared::

    @settings(max_examples=examples(100, deep=300), deadline=None)

The moderate count is what the README's run (every developer's, CI's) spends on the property; the
thorough one at least what it was given when it had only one (README.md, Development). A
property that names no count runs hypothesis's 100 examples, :data:`DEEP_EXAMPLES` under the
profile."""

#: The profile of the thorough counts (``pytest --hypothesis-profile=deep``).
DEEP_PROFILE = "deep"
#: The examples of a property that names no count of its own, under :data:`DEEP_PROFILE`.
DEEP_EXAMPLES = 1000


def register_profiles() -> None:
    """Registers :data:`DEEP_PROFILE` (hypothesis's settings but :data:`DEEP_EXAMPLES`): before
    hypothesis's pytest plugin loads the profile ``--hypothesis-profile`` names."""
    from hypothesis import settings

    settings.register_profile(DEEP_PROFILE, max_examples=DEEP_EXAMPLES)


def examples(default: int, *, deep: int) -> int:
    """A property's count of examples: ``deep`` under :data:`DEEP_PROFILE`, else ``default``
    (read when the test module is imported, after pytest's configuration loaded the profile)."""
    from hypothesis import settings

    assert 0 < default <= deep
    return deep if settings.get_current_profile_name() == DEEP_PROFILE else default
