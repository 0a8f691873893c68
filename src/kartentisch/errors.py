"""Errors. Every refusal is a :class:`ValueError` subclass that says what was wrong."""

from __future__ import annotations

from typing import Any

__all__ = [
    "DealError",
    "IllegalActionError",
    "KartentischError",
    "NotationError",
    "OptionError",
    "RecordError",
    "RulesError",
]


class KartentischError(ValueError):
    """Base class of every error this package raises on bad input."""


class NotationError(KartentischError):
    """Text that is not a card or action in the notation."""


class OptionError(KartentischError):
    """An unknown rule option, or a value it does not accept.

    ``code`` names the problem (``range``, ``choice``, ``unknown_option`` …) and
    ``params`` its particulars, so that an interface can say it in the
    person's language (the web lobby's ``error.option_<code>`` texts); the
    message is the English text for logs and the terminal.

    >>> error = OptionError("option target must be ...", "range", option="target", low=1, high=9)
    >>> error.code, error.params["high"], str(error)
    ('range', 9, 'option target must be ...')
    """

    def __init__(self, message: str, code: str = "invalid", **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params

    def __reduce__(self) -> tuple[Any, ...]:
        return (_option_error, (str(self), self.code, self.params))


def _option_error(message: str, code: str, params: dict[str, Any]) -> OptionError:
    return OptionError(message, code, **params)


class RulesError(OptionError):
    """A rule-set document that cannot be read (:mod:`kartentisch.rulesets`).

    ``code`` is ``rules_…`` for a fault of the document itself (``rules_version``,
    ``rules_game``, ``rules_key``, ``rules_field``, ``rules_syntax``,
    ``rules_not_object``, ``rules_too_large``, ``rules_file``) and an option's
    own code for a fault in its options (``unknown_preset``, ``unknown_option``,
    ``range``, ``choice``, ``flag``, ``not_object``, ``needs_sheet_order`` …).

    >>> error = RulesError("unknown key 'colour' …", "rules_key", field="colour")
    >>> isinstance(error, OptionError), error.code, error.params
    (True, 'rules_key', {'field': 'colour'})
    """

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rules_error, (str(self), self.code, self.params))


def _rules_error(message: str, code: str, params: dict[str, Any]) -> RulesError:
    return RulesError(message, code, **params)


class DealError(KartentischError):
    """Hands that are not a proper deal: wrong sizes, wrong or repeated cards."""


class RecordError(KartentischError):
    """A game record that cannot be read: malformed JSON, missing or wrong fields."""


class IllegalActionError(KartentischError):
    """An action the rules refuse. The game state is left unchanged.

    ``rule`` is a stable code naming the rule broken (``must_follow_suit``,
    ``not_your_turn``, ``not_in_hand`` …); ``params`` fill its message, which
    :func:`kartentisch.i18n.describe_refusal` renders in each language.
    """

    def __init__(
        self,
        rule: str,
        message: str,
        *,
        seat: int | None = None,
        action: object = None,
        **params: Any,
    ) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message
        self.seat = seat
        self.action = action
        self.params = params
