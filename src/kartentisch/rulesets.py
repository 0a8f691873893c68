"""Rule sets: a table's rules as one small file to share (TOML, or JSON of the same shape).

A rule-set document names its format version and its game, and may name a
preset, a name, a description and the options that differ from the preset
(docs/rules/doppelkopf.md, "Rule sets")::

    kartentisch-rules = 1        # the format version (required)
    game = "doppelkopf"          # required
    preset = "house"             # default: the game's default preset
    name = "Unsere Runde"
    description = "Donnerstags bei Anna"
    [options]
    nines = true

It works for every game whose :class:`~kartentisch.games.GameSpec` has an
options ``schema``, ``presets`` and an ``options_class``. Everything read is
checked by the game's schema and its options class (what does not go
together is refused), and kept as the options that differ from the preset:
two documents of the same rules are equal :class:`RuleSet` objects. Every
refusal is a :class:`~kartentisch.errors.RulesError` whose message names the
key and what it may be.

>>> rules = parse_rules('kartentisch-rules = 1\\ngame = "doppelkopf"\\n[options]\\nnines = true\\n')
>>> rules.preset, dict(rules.options), rules.options_object().deck_size
('house', {'nines': True}, 48)
>>> print(dump_rules(rules), end="")
kartentisch-rules = 1
game = "doppelkopf"
preset = "house"
<BLANKLINE>
[options]
nines = true
>>> parse_rules(dump_rules(rules, "json")) == rules
True
>>> parse_rules('{"kartentisch-rules": 1, "game": "doko", "options": {"nines": "yes"}}')
Traceback (most recent call last):
...
kartentisch.errors.RulesError: options: option nines must be true or false, not 'yes'
"""

from __future__ import annotations

import json
import re
import tomllib
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final, Literal

import tomli_w

from kartentisch.errors import KartentischError, OptionError, RulesError
from kartentisch.games import GAMES, GameSpec, get_game
from kartentisch.i18n import has, translate
from kartentisch.options import Option

__all__ = [
    "FORMAT_KEY",
    "FORMAT_VERSION",
    "MAX_DESCRIPTION_CHARS",
    "MAX_NAME_CHARS",
    "MAX_RULES_BYTES",
    "TOP_KEYS",
    "RuleSet",
    "dump_rules",
    "group_title",
    "load_rules",
    "option_help",
    "option_title",
    "parse_rules",
    "rules_from_dict",
    "rules_games",
    "rules_lines",
    "rules_schema",
    "rules_texts",
    "value_text",
]

#: The key of the format version, and the one version this module reads and writes.
FORMAT_KEY: Final = "kartentisch-rules"
FORMAT_VERSION: Final = 1
#: Every top-level key a document may have, in the order they are written.
TOP_KEYS: Final = (FORMAT_KEY, "game", "preset", "name", "description", "options")
#: The largest document read (in UTF-8 bytes); a rule set is a few hundred.
MAX_RULES_BYTES: Final = 64 * 1024
#: The longest ``name`` (one line) and ``description``, in characters.
MAX_NAME_CHARS: Final = 80
MAX_DESCRIPTION_CHARS: Final = 2000

Format = Literal["toml", "json"]

_TOML_PLACE: Final = re.compile(r"\(at line (\d+), column (\d+)\)")


def _shown(value: Any) -> str:
    """A refused value as a message shows it (kept short: it came from outside)."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _control(char: str) -> bool:
    """A control character or a lone surrogate (neither may be in a name or description)."""
    return unicodedata.category(char) in ("Cc", "Cs")


def rules_games() -> tuple[str, ...]:
    """The games that have rule sets (an options schema, presets and an options class)."""
    return tuple(name for name in GAMES if _has_rules(get_game(name)))


def _has_rules(spec: GameSpec) -> bool:
    return spec.schema is not None and bool(spec.presets) and spec.options_class is not None


def _spec(game: Any) -> GameSpec:
    """The game named ``game`` (or an alias), which must have rule sets."""
    if not isinstance(game, str):
        raise RulesError(
            f"game must be the name of a game, not {_shown(game)}; "
            f"rule sets are for {', '.join(rules_games())}",
            "rules_game",
            game=str(game)[:40],
        )
    try:
        spec = get_game(game)
    except KartentischError:
        raise RulesError(
            f"unknown game {_shown(game)}: rule sets are for {', '.join(rules_games())}",
            "rules_game",
            game=game[:40],
        ) from None
    if not _has_rules(spec):
        raise RulesError(
            f"{spec.titles['en']} has no rule options to share: "
            f"rule sets are for {', '.join(rules_games())}",
            "rules_game",
            game=spec.name,
        )
    return spec


def _default_preset(spec: GameSpec) -> str:
    assert spec.options_class is not None
    preset: str = spec.options_class().preset
    return preset


def _preset_options(spec: GameSpec, preset: str) -> Any:
    """The options object of preset ``preset``."""
    assert spec.options_class is not None
    return spec.options_class(preset=preset, **spec.presets[preset])


def _schema_options(spec: GameSpec) -> tuple[Option, ...]:
    assert spec.schema is not None
    return spec.schema.options


@dataclass(frozen=True, slots=True)
class RuleSet:
    """A game's rules: a preset and the options that differ from it, a name, a description.

    It is checked and normalized when it is made: ``game`` becomes the game's
    registry name, ``options`` holds the engine's names and values (a list of
    kinds is a tuple) of the options that differ from the preset, in the
    schema's order, read-only. Anything refused is a
    :class:`~kartentisch.errors.RulesError`.

    >>> RuleSet("doko", "ddv", {"nines": True, "players": 5})
    RuleSet(game='doppelkopf', preset='ddv', options={'players': 5}, name='', description='')
    >>> RuleSet("doppelkopf", "ddv", {"armut": True})
    Traceback (most recent call last):
    ...
    kartentisch.errors.RulesError: options: option armut needs the sheet's order of \
declarations (declarations: sheet); the DDV order has no place for it
    """

    game: str
    preset: str
    options: Mapping[str, Any] = field(default_factory=dict)
    name: str = ""
    description: str = ""

    def __post_init__(self) -> None:
        spec = _spec(self.game)
        object.__setattr__(self, "game", spec.name)
        if not isinstance(self.preset, str) or self.preset not in spec.presets:
            raise RulesError(
                f"unknown preset {_shown(self.preset)}: choose one of {', '.join(spec.presets)}",
                "unknown_preset",
                preset=str(self.preset)[:40],
            )
        object.__setattr__(self, "name", _text_field("name", self.name, MAX_NAME_CHARS))
        object.__setattr__(
            self,
            "description",
            _text_field("description", self.description, MAX_DESCRIPTION_CHARS),
        )
        object.__setattr__(self, "options", MappingProxyType(_overrides(spec, self)))

    def __hash__(self) -> int:
        return hash((self.game, self.preset, tuple(self.options.items()), self.name))

    def __reduce__(self) -> tuple[Any, ...]:
        # (a read-only mapping cannot be pickled: the rule set is made again from its parts)
        return (RuleSet, (self.game, self.preset, dict(self.options), self.name, self.description))

    def __repr__(self) -> str:
        return (
            f"RuleSet(game={self.game!r}, preset={self.preset!r}, "
            f"options={dict(self.options)!r}, name={self.name!r}, "
            f"description={self.description!r})"
        )

    def options_object(self) -> Any:
        """The game's options object of these rules (e.g. a ``DoppelkopfOptions``)."""
        spec = _spec(self.game)
        assert spec.options_class is not None
        return spec.options_class(
            preset=self.preset, **{**spec.presets[self.preset], **self.options}
        )

    def values(self) -> dict[str, Any]:
        """Every option's value under these rules (the preset's where not overridden),
        in the schema's order, a list of kinds as a list.

        >>> RuleSet("doppelkopf", "ddv", {"players": 5}).values()["players"]
        5
        """
        options = self.options_object()
        return {
            o.name: _plain_value(getattr(options, o.name))
            for o in _schema_options(_spec(self.game))
        }

    def record_options(self) -> dict[str, Any]:
        """The rules as a record's ``options`` object: the preset and the options that differ
        from it (lists for kinds); ``players`` only if it differs from the preset."""
        return {"preset": self.preset, **_plain(self.options)}

    def to_dict(self) -> dict[str, Any]:
        """The document as an object (the JSON form): every key but an empty name or
        description; ``options`` always (maybe empty)."""
        out: dict[str, Any] = {FORMAT_KEY: FORMAT_VERSION, "game": self.game, "preset": self.preset}
        if self.name:
            out["name"] = self.name
        if self.description:
            out["description"] = self.description
        out["options"] = _plain(self.options)
        return out

    @classmethod
    def from_options(cls, options: Any, *, name: str = "", description: str = "") -> RuleSet:
        """The rule set of an options object (its game found by its class).

        >>> from kartentisch.games.doppelkopf.options import DoppelkopfOptions
        >>> rules = RuleSet.from_options(DoppelkopfOptions.preset_named("ddv", players=5))
        >>> rules.preset, dict(rules.options)
        ('ddv', {'players': 5})
        """
        for game in GAMES:
            spec = get_game(game)
            if spec.options_class is type(options) and _has_rules(spec):
                base = _preset_options(spec, options.preset)
                differ = {
                    o.name: getattr(options, o.name)
                    for o in _schema_options(spec)
                    if getattr(options, o.name) != getattr(base, o.name)
                }
                return cls(spec.name, options.preset, differ, name, description)
        raise RulesError(
            f"{type(options).__name__} is the options of no game with rule sets",
            "rules_game",
            game=type(options).__name__[:40],
        )


def _plain(options: Mapping[str, Any]) -> dict[str, Any]:
    """Options as a document writes them: a tuple of kinds as a list."""
    return {k: list(v) if isinstance(v, tuple) else v for k, v in options.items()}


def _text_field(key: str, value: Any, most: int) -> str:
    """A ``name`` (one line) or ``description``, checked."""
    what = "one line of text" if key == "name" else "text"
    if not isinstance(value, str):
        raise RulesError(
            f"{key} must be {what} of at most {most} characters, not {_shown(value)}",
            "rules_field",
            field=key,
            max=most,
        )
    if len(value) > most:
        raise RulesError(
            f"{key} must be {what} of at most {most} characters, not {len(value)}",
            "rules_field",
            field=key,
            max=most,
        )
    allowed = "" if key == "name" else "\n\t"
    control = next((c for c in value if c not in allowed and _control(c)), None)
    if control is not None:
        raise RulesError(
            f"{key} must be {what} of at most {most} characters, "
            f"without control characters such as {control!r}",
            "rules_field",
            field=key,
            max=most,
        )
    return value


def _overrides(spec: GameSpec, rules: RuleSet) -> dict[str, Any]:
    """The options of ``rules`` checked against the game, as the ones that differ from
    the preset (in the schema's order)."""
    assert spec.schema is not None and spec.options_class is not None
    given = rules.options
    if not isinstance(given, Mapping):
        raise RulesError(
            f"options must be a table of option names and values, not {_shown(given)}",
            "not_object",
        )
    try:
        for name in given:
            if not isinstance(name, str) or name in spec.schema.extra:
                raise OptionError(
                    f"unknown {spec.schema.title} option {_shown(name)}; known options: "
                    f"{', '.join(sorted(n for o in spec.schema.options for n in o.names))}",
                    "unknown_option",
                    option=str(name)[:40],
                )
            spec.schema.option(name)  # (an unknown name: its known ones)
        values = spec.schema.read(given)
        built = spec.options_class(preset=rules.preset, **{**spec.presets[rules.preset], **values})
    except OptionError as exc:
        raise RulesError(f"options: {exc}", exc.code, **exc.params) from None
    base = _preset_options(spec, rules.preset)
    return {
        o.name: getattr(built, o.name)
        for o in spec.schema.options
        if getattr(built, o.name) != getattr(base, o.name)
    }


# -- reading -------------------------------------------------------------------------------


def rules_from_dict(data: Any, *, game: str | None = None) -> RuleSet:
    """The rule set of a document already read into an object (the JSON form).

    ``game``, if given, is the game the rule set must be of.

    >>> rules_from_dict({"kartentisch-rules": 1, "game": "doppelkopf", "colour": "red"})
    Traceback (most recent call last):
    ...
    kartentisch.errors.RulesError: unknown key 'colour' in the rule set: the keys are \
kartentisch-rules, game, preset, name, description, options
    >>> rules_from_dict({"kartentisch-rules": 2, "game": "doppelkopf"})
    Traceback (most recent call last):
    ...
    kartentisch.errors.RulesError: unknown format version 2 (kartentisch-rules): this \
Kartentisch reads version 1
    """
    if not isinstance(data, Mapping):
        raise RulesError(
            f"a rule set must be a table (an object) of keys and values, not {_shown(data)}",
            "rules_not_object",
        )
    if FORMAT_KEY not in data:
        raise RulesError(
            f"not a rule set: the key {FORMAT_KEY} (the format version, {FORMAT_VERSION}) "
            "is missing",
            "rules_version",
            version="",
            supported=FORMAT_VERSION,
        )
    version = data[FORMAT_KEY]
    if type(version) is not int or version != FORMAT_VERSION:
        raise RulesError(
            f"unknown format version {_shown(version)} ({FORMAT_KEY}): "
            f"this Kartentisch reads version {FORMAT_VERSION}",
            "rules_version",
            version=str(version)[:40],
            supported=FORMAT_VERSION,
        )
    for key in data:
        if key not in TOP_KEYS:
            raise RulesError(
                f"unknown key {_shown(key)} in the rule set: the keys are {', '.join(TOP_KEYS)}",
                "rules_key",
                field=str(key)[:40],
                keys=", ".join(TOP_KEYS),
            )
    if "game" not in data:
        raise RulesError(
            f"the rule set names no game: rule sets are for {', '.join(rules_games())}",
            "rules_game",
            game="",
        )
    spec = _spec(data["game"])
    if game is not None and spec.name != (expected := get_game(game).name):
        raise RulesError(
            f"the rule set is for {spec.name}, not {expected}",
            "rules_game",
            game=spec.name,
            expected=expected,
        )

    def given(key: str, default: Any) -> Any:
        # (a JSON null is the same as the key left out)
        value = data.get(key)
        return default if value is None else value

    return RuleSet(
        spec.name,
        given("preset", _default_preset(spec)),
        given("options", {}),
        given("name", ""),
        given("description", ""),
    )


def _json_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise RulesError(
                f"malformed JSON: the key {_shown(key)} is given twice",
                "rules_syntax",
                detail=f"the key {_shown(key)} is given twice",
            )
        out[key] = value
    return out


def _decode(text: str, format: Format) -> Any:
    if format == "json":
        try:
            return json.loads(text, object_pairs_hook=_json_object)
        except json.JSONDecodeError as exc:
            raise RulesError(
                f"malformed JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}",
                "rules_syntax",
                detail=f"{exc.msg} (line {exc.lineno}, column {exc.colno})",
                line=exc.lineno,
                column=exc.colno,
            ) from None
        except RulesError:  # (a key given twice)
            raise
        except RecursionError:
            raise RulesError(
                "malformed JSON: it is nested too deeply",
                "rules_syntax",
                detail="nested too deeply",
            ) from None
        except ValueError as exc:  # a number of thousands of digits
            raise RulesError(
                f"malformed JSON: {exc}", "rules_syntax", detail=str(exc)[:80]
            ) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        place = _TOML_PLACE.search(message)
        params: dict[str, Any] = {"detail": message}
        if place:
            params.update(line=int(place.group(1)), column=int(place.group(2)))
        raise RulesError(f"malformed TOML: {message}", "rules_syntax", **params) from None
    except RecursionError:
        raise RulesError(
            "malformed TOML: it is nested too deeply", "rules_syntax", detail="nested too deeply"
        ) from None


def parse_rules(text: str, *, format: Format | None = None, game: str | None = None) -> RuleSet:
    """The rule set of a document: TOML, or JSON (guessed: JSON if it starts with ``{``).

    ``game``, if given, is the game the rule set must be of. A document larger
    than :data:`MAX_RULES_BYTES`, malformed (with the parser's line and column),
    or refused by its game is a :class:`~kartentisch.errors.RulesError`.

    >>> parse_rules('kartentisch-rules = 1\\ngame = "doppelkopf"\\npreset = "ddv"').preset
    'ddv'
    >>> parse_rules('kartentisch-rules = 1\\ngame = "doppelkopf"', game="slobberhannes")
    Traceback (most recent call last):
    ...
    kartentisch.errors.RulesError: the rule set is for doppelkopf, not slobberhannes
    """
    if not isinstance(text, str):
        raise TypeError("parse_rules reads text (str)")
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_RULES_BYTES:
        raise RulesError(
            f"the rule set is larger than {MAX_RULES_BYTES} bytes ({size})",
            "rules_too_large",
            max=MAX_RULES_BYTES,
        )
    text = text.removeprefix("\ufeff")
    if format is None:
        format = "json" if text.lstrip().startswith("{") else "toml"
    elif format not in ("toml", "json"):
        raise ValueError(f"format must be toml or json, not {format!r}")
    return rules_from_dict(_decode(text, format), game=game)


def load_rules(path: str | Path, *, game: str | None = None) -> RuleSet:
    """The rule set in the file ``path`` (JSON if it ends in ``.json`` or starts with
    ``{``, else TOML); ``game``, if given, is the game it must be of."""
    where = Path(path)
    try:
        with where.open("rb") as handle:
            raw = handle.read(MAX_RULES_BYTES + 1)
    except FileNotFoundError:
        raise RulesError(f"no such rule-set file: {path}", "rules_file", file=str(path)) from None
    except IsADirectoryError:
        raise RulesError(
            f"{path} is a directory, not a rule-set file", "rules_file", file=str(path)
        ) from None
    except OSError as exc:
        raise RulesError(
            f"cannot read {path}: {exc.strerror}", "rules_file", file=str(path)
        ) from None
    if len(raw) > MAX_RULES_BYTES:
        raise RulesError(
            f"{path} is larger than {MAX_RULES_BYTES} bytes: not a rule set",
            "rules_too_large",
            max=MAX_RULES_BYTES,
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RulesError(
            f"{path} is not UTF-8 text", "rules_syntax", detail="not UTF-8 text"
        ) from None
    format: Format | None = "json" if where.suffix.lower() == ".json" else None
    return parse_rules(text, format=format, game=game)


# -- writing -------------------------------------------------------------------------------


def dump_rules(rules: RuleSet, format: Format = "toml") -> str:
    """The document of ``rules`` as TOML or JSON text (:func:`parse_rules` reads it back
    as ``rules``); TOML leaves an empty ``[options]`` out."""
    data = rules.to_dict()
    if format == "json":
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    if format != "toml":
        raise ValueError(f"format must be toml or json, not {format!r}")
    if not data["options"]:
        del data["options"]
    for name, value in data.get("options", {}).items():
        if value is None:  # (TOML has no null)
            raise RulesError(
                f"option {name} is null, which TOML cannot write: write the rule set as JSON",
                "rules_field",
                field=name,
            )
    return tomli_w.dumps(data)


# -- what an editor needs ---------------------------------------------------------------------


def _groups(spec: GameSpec) -> list[str]:
    """The groups that have options: in the schema's order, then any others as they come."""
    assert spec.schema is not None
    used = [o.group for o in spec.schema.options]
    ordered = [g for g in spec.schema.groups if g in used]
    for group in used:
        if group not in ordered:
            ordered.append(group)
    return ordered


def rules_schema(game: str) -> dict[str, Any]:
    """What an editor of ``game``'s rule sets needs, as JSON: the format version, the
    game, its presets (every option's value in each), the groups in order and every
    option with its kind, group, range or choices, whether it may be null, and its
    value in each preset.

    >>> schema = rules_schema("doppelkopf")
    >>> schema["groups"][:3], schema["default_preset"], schema["options"][1]
    (['deck', 'trumps', 'declarations'], 'house', {'name': 'nines', 'kind': 'flag', \
'group': 'deck', 'nullable': False, 'choices': [False, True], \
'presets': {'house': False, 'ddv': True, 'freedoko': True}})
    """
    spec = _spec(game)
    presets = {p: _preset_options(spec, p) for p in spec.presets}
    options = []
    for option in _schema_options(spec):
        options.append(
            {
                "name": option.name,
                "kind": option.kind,
                "group": option.group,
                "nullable": option.nullable,
                **option.describe(),
                "presets": {p: _plain_value(getattr(o, option.name)) for p, o in presets.items()},
            }
        )
    return {
        FORMAT_KEY: FORMAT_VERSION,
        "game": spec.name,
        "default_preset": _default_preset(spec),
        "presets": {
            p: {o.name: _plain_value(getattr(values, o.name)) for o in _schema_options(spec)}
            for p, values in presets.items()
        },
        "groups": _groups(spec),
        "options": options,
        "limits": {
            "bytes": MAX_RULES_BYTES,
            "name": MAX_NAME_CHARS,
            "description": MAX_DESCRIPTION_CHARS,
        },
    }


def _plain_value(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _first(lang: str, keys: list[str], fallback: str) -> str:
    for key in keys:
        if has(lang, key):
            return translate(lang, key)
    return fallback


def option_title(game: str, option: str, lang: str) -> str:
    """An option's title: ``opt.<game>.<name>``, else the lobby's ``option.<name>``,
    else the name itself."""
    return _first(lang, [f"opt.{game}.{option}", f"option.{option}"], option)


def option_help(game: str, option: str, lang: str) -> str:
    """An option's explanation (``opt.<game>.<name>.help``); empty if it has none."""
    return _first(lang, [f"opt.{game}.{option}.help"], "")


def _value_key(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def value_text(game: str, option: str, value: Any, lang: str) -> str:
    """A value of an option in words: ``opt.<game>.<name>.<value>`` (``true``/``false``
    for flags, each kind of a list of kinds), else the lobby's ``option.<name>.<value>``,
    else yes/no for flags, else the value itself.

    >>> value_text("doppelkopf", "players", 5, "de"), value_text("doppelkopf", "soli", (), "de")
    ('5', 'keine')
    """
    if isinstance(value, tuple | list):
        if not value:
            return translate(lang, "term.rules.none")
        return ", ".join(value_text(game, option, kind, lang) for kind in value)
    if value is None:
        return "—"
    key = _value_key(value)
    keys = [f"opt.{game}.{option}.{key}", f"option.{option}.{key}"]
    if isinstance(value, bool):
        keys.append(f"term.rules.{key}")
    elif isinstance(value, int):
        return str(value)
    return _first(lang, keys, key)


def group_title(group: str, lang: str) -> str:
    """A group's title (``optgroup.<group>``), else its name."""
    return _first(lang, [f"optgroup.{group}"], group)


def rules_texts(game: str, lang: str) -> dict[str, Any]:
    """The texts an editor of ``game``'s rule sets shows in ``lang``: the presets' and
    groups' titles, and each option's title, help and the names of its values."""
    spec = _spec(game)
    name = spec.name
    options: dict[str, Any] = {}
    for option in _schema_options(spec):
        if option.kind == "flag":
            values = {_value_key(v): value_text(name, option.name, v, lang) for v in (True, False)}
        elif option.kind in ("choice", "kinds"):
            values = {_value_key(v): value_text(name, option.name, v, lang) for v in option.choices}
        else:
            values = {}
        options[option.name] = {
            "title": option_title(name, option.name, lang),
            "help": option_help(name, option.name, lang),
            "values": values,
        }
    return {
        "lang": lang,
        "presets": {p: _first(lang, [f"preset.{p}"], p) for p in spec.presets},
        "groups": {g: group_title(g, lang) for g in _groups(spec)},
        "options": options,
    }


def rules_lines(rules: RuleSet, lang: str) -> list[str]:
    """``rules`` as text to read, in ``lang``: its name and description, the preset,
    then group by group each option's title and value, ``*`` where it differs
    from the preset."""
    spec = _spec(rules.game)
    name = spec.name
    options = rules.options_object()
    lines: list[str] = []
    if rules.name:
        lines.append(translate(lang, "term.rules.name", name=rules.name))
    if rules.description:
        lines += [f"  {line}".rstrip() for line in rules.description.splitlines()]
    preset = _first(lang, [f"preset.{rules.preset}"], rules.preset)
    lines.append(translate(lang, "term.rules.preset", preset=f"{preset} ({rules.preset})"))
    changed = len(rules.options)
    if changed:
        lines.append(translate(lang, "term.rules.changed", n=changed))
    else:
        lines.append(translate(lang, "term.rules.unchanged"))
    for group in _groups(spec):
        lines.append("")
        lines.append(group_title(group, lang))
        for option in _schema_options(spec):
            if option.group != group:
                continue
            mark = "*" if option.name in rules.options else " "
            title = option_title(name, option.name, lang)
            value = value_text(name, option.name, getattr(options, option.name), lang)
            lines.append(f"  {mark} {title}: {value}")
    return lines
