"""``--rules FILE`` of the commands: a rule-set file read, and the flags it cannot go with."""

from __future__ import annotations

from collections.abc import Mapping

from kartentisch.errors import KartentischError, RulesError
from kartentisch.rulesets import RuleSet, load_rules

__all__ = ["read_rules_file", "refuse_flags_with_rules"]


def read_rules_file(path: str, game: str | None = None) -> RuleSet:
    """The rule set in the file ``path``, which must be of ``game`` if given; a refusal is a
    :class:`~kartentisch.errors.RulesError` whose message starts with the file's name."""
    try:
        return load_rules(path, game=game)
    except RulesError as exc:
        if exc.code == "rules_file":  # (its message names the file)
            raise
        raise RulesError(f"{path}: {exc}", exc.code, **exc.params) from None


def refuse_flags_with_rules(given: Mapping[str, bool]) -> None:
    """Refuse the flags of ``given`` that were given (true) next to ``--rules FILE``,
    which sets every rule option itself."""
    flags = [flag for flag, there in given.items() if there]
    if flags:
        raise KartentischError(
            f"--rules FILE sets every rule option: {', '.join(flags)} cannot go with it "
            "(write the option into the file instead)"
        )
