"""What the rule options of the trick-taking games share: presets, read and written.

A game's options are a frozen dataclass with a ``preset`` field naming one of
the game's presets (named option sets) and a ``players`` field. A record's
``options`` object names a preset and the options that differ from it:
:func:`options_from_dict` reads one, :func:`options_to_dict` writes one.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from kartentisch.errors import OptionError

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    class PresetOptions(DataclassInstance, Protocol):
        """A game's options dataclass, as these helpers use it."""

        @property
        def preset(self) -> str: ...

        @property
        def players(self) -> int: ...


__all__ = ["options_from_dict", "options_to_dict"]

Opts = TypeVar("Opts", bound="PresetOptions")


def options_from_dict(
    cls: type[Opts],
    data: Mapping[str, Any] | None,
    overrides: Mapping[str, Any],
    *,
    presets: Mapping[str, Mapping[str, Any]],
    default_preset: str,
    default: Opts,
    game: str,
) -> Opts:
    """Options of type ``cls`` from a record's ``options`` object and ``overrides``.

    ``data`` must be a mapping or None; with neither data nor overrides the
    answer is ``default``. The preset they name (``default_preset`` if none)
    gives the values they do not; an unknown preset or an option ``cls`` does
    not have is an :class:`~kartentisch.errors.OptionError` (``game`` names
    the game in its message), and so is any value ``cls`` refuses.
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
    known = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(merged) - known)
    if unknown:
        raise OptionError(
            f"unknown {game} option {unknown[0]!r}; "
            f"known options: {', '.join(sorted(known - {'preset'}))}",
            "unknown_option",
            option=unknown[0][:40],
        )
    values = {**presets[preset], **merged}
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
