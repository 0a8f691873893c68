"""Rule options: one schema per game, and the presets of the trick-taking games.

**The schema.** Every game's options are checked by one :class:`OptionSchema`
whatever path they come by — the web lobby, a stored table, a record file, the
command line: each :class:`Option` has the engine's name, the other names it
may be sent under (the lobby's ``time_limit`` is Slapjack's ``time_limit_ms``
in minutes), its type and its range or choices. A value out of range is
refused under the name it was sent under, with that name's range.

>>> limit = Option("time_limit_ms", "whole", low=60_000, high=3_600_000,
...                units={"time_limit": 60_000})
>>> schema = OptionSchema("Slapjack", (limit, Option("call", "flag")))
>>> schema.read({"time_limit": 5, "call": True})
{'time_limit_ms': 300000, 'call': True}
>>> schema.read({"time_limit_ms": 1})
Traceback (most recent call last):
...
kartentisch.errors.OptionError: time_limit_ms must be a whole number from 60000 to 3600000, not 1
>>> schema.read({"time_limit": 61})
Traceback (most recent call last):
...
kartentisch.errors.OptionError: time_limit must be a whole number from 1 to 60, not 61

**Presets.** The options of a trick-taking game are a frozen dataclass with a
``preset`` field naming one of the game's presets (named option sets) and a
``players`` field. A record's ``options`` object names a preset and the
options that differ from it: :func:`options_from_dict` reads one,
:func:`options_to_dict` writes one.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar

from kartentisch.errors import OptionError

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    class PresetOptions(DataclassInstance, Protocol):
        """A game's options dataclass, as these helpers use it."""

        @property
        def preset(self) -> str: ...

        @property
        def players(self) -> int: ...


__all__ = [
    "Option",
    "OptionSchema",
    "options_from_dict",
    "options_to_dict",
    "options_written_out",
]

Opts = TypeVar("Opts", bound="PresetOptions")

#: What an option takes: a whole number in a range, true or false, one of some
#: choices, or a list of distinct choices.
Kind = Literal["whole", "flag", "choice", "kinds"]


def _shown(value: Any) -> str:
    """A refused value as a message shows it (kept short: it came from outside)."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


@dataclass(frozen=True, slots=True)
class Option:
    """One rule option: the engine's ``name``, what it takes, the other names it goes by.

    ``units`` maps each other name to how many of the engine's units one of
    its units is (``{"time_limit": 60_000}``: minutes for milliseconds); the
    range under that name is ``low`` and ``high`` divided by it, and only
    whole numbers of it are taken. ``code`` is the refusal's code when it is
    not the kind's own (``range``, ``flag``, ``choice``). ``group`` names the
    part of the rules the option belongs to (``deck``, ``soli`` …), by which a
    rule set is shown (:mod:`kartentisch.rulesets`); empty if it belongs to none.
    """

    name: str
    kind: Kind
    low: int = 0
    high: int = 0
    choices: tuple[Any, ...] = ()
    nullable: bool = False
    units: Mapping[str, int] = field(default_factory=dict)
    code: str | None = None
    group: str = ""

    @property
    def names(self) -> tuple[str, ...]:
        """Every name the option may be sent under, the engine's first."""
        return (self.name, *self.units)

    def bounds(self, sent_as: str) -> tuple[int, int]:
        """The range of a whole-number option under the name ``sent_as``."""
        unit = self.units.get(sent_as, 1)
        return -(-self.low // unit), self.high // unit

    def check(self, value: Any, sent_as: str | None = None) -> Any:
        """``value`` sent under ``sent_as`` (default: the engine's name), in the engine's
        units; an :class:`~kartentisch.errors.OptionError` naming that name if refused."""
        name = sent_as or self.name
        if value is None and self.nullable:
            return None
        if self.kind == "whole":
            low, high = self.bounds(name)
            if type(value) is not int or not low <= value <= high:
                extra = " or null" if self.nullable else ""
                raise OptionError(
                    f"{name} must be a whole number from {low} to {high}{extra}, "
                    f"not {_shown(value)}",
                    self.code or "range",
                    option=name,
                    low=low,
                    high=high,
                )
            return value * self.units.get(name, 1)
        if self.kind == "flag":
            if type(value) is not bool:
                raise OptionError(
                    f"option {name} must be true or false, not {_shown(value)}",
                    self.code or "flag",
                    option=name,
                )
            return value
        if self.kind == "choice":
            if not any(type(value) is type(c) and value == c for c in self.choices):
                raise OptionError(
                    f"option {name} must be one of {', '.join(map(str, self.choices))}, "
                    f"not {_shown(value)}",
                    self.code or "choice",
                    option=name,
                )
            return value
        return self._kinds(value, name)

    def _kinds(self, value: Any, name: str) -> tuple[Any, ...]:
        code = self.code or "choice"
        if not isinstance(value, list | tuple) or not all(isinstance(k, str) for k in value):
            raise OptionError(f"option {name} must be a list of its kinds", code, option=name)
        for kind in value:
            if kind not in self.choices:
                raise OptionError(
                    f"unknown kind {_shown(kind)} in option {name}: "
                    f"choose from {', '.join(self.choices)}",
                    code,
                    option=name,
                )
        if len(set(value)) != len(value):
            raise OptionError(f"option {name} names a kind twice", code, option=name)
        return tuple(value)

    def describe(self, sent_as: str | None = None) -> dict[str, Any]:
        """What the lobby shows of the option under ``sent_as``: its range or choices."""
        if self.kind == "whole":
            low, high = self.bounds(sent_as or self.name)
            return {"min": low, "max": high}
        if self.kind == "flag":
            return {"choices": [False, True]}
        return {"choices": list(self.choices)}


@dataclass(frozen=True, slots=True)
class OptionSchema:
    """Every rule option of one game (``title`` names it in messages)."""

    title: str
    options: tuple[Option, ...]
    #: Names a mapping of options may hold besides the options (``preset``).
    extra: frozenset[str] = frozenset()
    #: The options' groups in the order they are shown (a group may have no option yet).
    groups: tuple[str, ...] = ()

    def option(self, name: str) -> Option:
        """The option sent under ``name`` (any of its names)."""
        for option in self.options:
            if name in option.names:
                return option
        raise OptionError(
            f"unknown {self.title} option {_shown(name)}; known options: "
            f"{', '.join(sorted(n for o in self.options for n in o.names))}",
            "unknown_option",
            option=str(name)[:40],
        )

    def read(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """``data`` checked, under the engine's names and in its units.

        Names in :attr:`extra` pass unchanged; an unknown name, a value out of
        range, or one option sent under two names is refused.
        """
        out: dict[str, Any] = {}
        sent: dict[str, str] = {}
        for name, value in data.items():
            if name in self.extra:
                out[name] = value
                continue
            option = self.option(name)
            if option.name in sent:
                raise OptionError(
                    f"option {option.name} is given twice, as {sent[option.name]} and as {name}",
                    "invalid",
                    option=str(name)[:40],
                )
            sent[option.name] = name
            out[option.name] = option.check(value, name)
        return out

    def validate(self, options: object) -> None:
        """Check every option's value on an options object (its fields' names are the
        engine's); a tuple or list of kinds is stored as a tuple."""
        for option in self.options:
            value = getattr(options, option.name)
            checked = option.check(value)
            if checked is not value and option.kind == "kinds":
                object.__setattr__(options, option.name, checked)


def options_from_dict(
    cls: type[Opts],
    data: Mapping[str, Any] | None,
    overrides: Mapping[str, Any],
    *,
    presets: Mapping[str, Mapping[str, Any]],
    default_preset: str,
    default: Opts,
    schema: OptionSchema,
) -> Opts:
    """Options of type ``cls`` from a record's ``options`` object and ``overrides``.

    ``data`` must be a mapping or None; with neither data nor overrides the
    answer is ``default``. The preset they name (``default_preset`` if none)
    gives the values they do not; an unknown preset, an option ``schema``
    does not know (under any of its names) or a value it refuses is an
    :class:`~kartentisch.errors.OptionError`, and so is any value ``cls`` refuses.
    """
    if not isinstance(data, Mapping | None):
        raise OptionError("options must be a JSON object of option names and values", "not_object")
    if not data and not overrides:
        return default
    merged = dict(data or {})
    merged.update(overrides)
    preset = merged.pop("preset", default_preset)
    if not isinstance(preset, str) or preset not in presets:
        raise OptionError(
            f"unknown preset {preset!r}: choose one of {', '.join(presets)}",
            "unknown_preset",
            preset=str(preset)[:40],
        )
    values = {**presets[preset], **schema.read(merged)}
    build: Callable[..., Opts] = cls
    return build(preset=preset, **values)


def options_to_dict(
    options: PresetOptions,
    presets: Mapping[str, Mapping[str, Any]],
    *,
    omit_preset: str | None = None,
) -> dict[str, Any]:
    """The preset and every option that differs from it (what a record stores).

    The preset is left out when it is ``omit_preset``; ``players`` is always
    written; a tuple is written as a list.
    """
    build: Callable[..., PresetOptions] = type(options)
    base = build(**{"preset": options.preset, **presets[options.preset]})
    out: dict[str, Any] = {}
    if options.preset != omit_preset:
        out["preset"] = options.preset
    for f in dataclasses.fields(options):
        value = getattr(options, f.name)
        if f.name != "preset" and value != getattr(base, f.name):
            out[f.name] = list(value) if isinstance(value, tuple) else value
    out.setdefault("players", options.players)
    return out


def options_written_out(options: PresetOptions) -> dict[str, Any]:
    """The preset's name and every option's value: a rule set that reads the same
    whatever the presets of a later version say (a tuple written as a list)."""
    out: dict[str, Any] = {"preset": options.preset}
    for f in dataclasses.fields(options):
        if f.name != "preset":
            value = getattr(options, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
    return out
