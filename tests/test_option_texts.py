"""Every Doppelkopf rule option has its texts in German, English and Russian.

The rule editor and the rule-set text show each option of the schema with a
title (``opt.doppelkopf.<name>``), an explanation (``….help``) and a name for
each value (``….<value>``: each choice, each solo kind, ``true``/``false``),
under the titles of its group (``optgroup.<group>``). The keys are computed
from the schema, so an option added without its texts fails here.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from kartentisch.games.doppelkopf.options import ALL_SOLI, GROUPS, PRESETS, SCHEMA
from kartentisch.i18n import LANGUAGES, own_catalog, translate
from kartentisch.options import Option, OptionSchema

LOCALE = Path(__file__).resolve().parents[1] / "src" / "kartentisch" / "web" / "locale"

#: The texts of the rule-set text around the options.
RULES_KEYS = (
    "rules.heading",
    "rules.preset",
    "rules.differs",
    *(f"rules.preset.{name}" for name in PRESETS),
)


def value_keys(option: Option) -> list[str]:
    """The value names an option needs: its choices, or true and false."""
    base = f"opt.doppelkopf.{option.name}"
    if option.kind == "flag":
        return [f"{base}.true", f"{base}.false"]
    if option.kind in ("choice", "kinds"):
        return [f"{base}.{choice}" for choice in option.choices]
    return []


def option_keys(schema: OptionSchema) -> list[str]:
    """Every key the options of ``schema`` need: title, help, value names."""
    keys: list[str] = []
    for option in schema.options:
        base = f"opt.doppelkopf.{option.name}"
        keys += [base, f"{base}.help", *value_keys(option)]
    return keys


def missing(lang: str, keys: list[str]) -> list[str]:
    catalog = own_catalog(lang)
    return [k for k in keys if not catalog.get(k, "").strip()]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_option_has_a_title_a_help_and_its_value_names(lang: str) -> None:
    assert missing(lang, option_keys(SCHEMA)) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_group_has_a_title_and_a_help(lang: str) -> None:
    keys = [k for g in GROUPS for k in (f"optgroup.{g}", f"optgroup.{g}.help")]
    assert missing(lang, keys) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rule_set_text_has_its_words(lang: str) -> None:
    assert missing(lang, list(RULES_KEYS)) == []
    assert translate(lang, "rules.heading", name="Stammtisch").count("Stammtisch") == 1
    assert translate(lang, "rules.preset", preset="DDV").count("DDV") == 1


def test_an_option_without_texts_is_found() -> None:
    extra = Option("nonesuch", "flag")
    schema = OptionSchema("Doppelkopf", (*SCHEMA.options, extra))
    for lang in LANGUAGES:
        assert missing(lang, option_keys(schema)) == [
            "opt.doppelkopf.nonesuch",
            "opt.doppelkopf.nonesuch.help",
            "opt.doppelkopf.nonesuch.true",
            "opt.doppelkopf.nonesuch.false",
        ]


def test_the_keys_follow_the_schema() -> None:
    # each kind of option: a whole number has no value names, a flag true and false,
    # a choice and a list of kinds one name per choice
    schema = OptionSchema(
        "Doppelkopf",
        (
            Option("n", "whole", low=1, high=3),
            Option("f", "flag"),
            Option("c", "choice", choices=("a", "b")),
            Option("k", "kinds", choices=("p", "q")),
        ),
    )
    assert option_keys(schema) == [
        "opt.doppelkopf.n",
        "opt.doppelkopf.n.help",
        "opt.doppelkopf.f",
        "opt.doppelkopf.f.help",
        "opt.doppelkopf.f.true",
        "opt.doppelkopf.f.false",
        "opt.doppelkopf.c",
        "opt.doppelkopf.c.help",
        "opt.doppelkopf.c.a",
        "opt.doppelkopf.c.b",
        "opt.doppelkopf.k",
        "opt.doppelkopf.k.help",
        "opt.doppelkopf.k.p",
        "opt.doppelkopf.k.q",
    ]
    soli = value_keys(SCHEMA.option("soli"))
    assert soli == [f"opt.doppelkopf.soli.{kind}" for kind in ALL_SOLI]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_solo_kinds_have_the_games_names(lang: str) -> None:
    catalog = own_catalog(lang)
    for kind in ALL_SOLI:
        assert catalog[f"opt.doppelkopf.soli.{kind}"] == catalog[f"dk.game.{kind}"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_whole_number_helps_name_the_range(lang: str) -> None:
    catalog = own_catalog(lang)
    for option in SCHEMA.options:
        if option.kind != "whole":
            continue
        numbers = set(re.findall(r"\d+", catalog[f"opt.doppelkopf.{option.name}.help"]))
        assert {str(option.low), str(option.high)} <= numbers, (lang, option.name)
    # 0 redeals never: the help says what 0 means
    zero = {"de": "0: nie", "en": "0: never", "ru": "0: никогда"}[lang]
    assert zero in catalog["opt.doppelkopf.kings_redeal.help"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_message_is_written_once(lang: str) -> None:
    text = (LOCALE / lang / "LC_MESSAGES" / "kartentisch_web.po").read_text(encoding="utf-8")
    ids = re.findall(r'^msgid "(.*)"$', text, flags=re.MULTILINE)
    twice = sorted(i for i, n in Counter(ids).items() if n > 1)
    assert twice == []
    assert len(ids) == len(own_catalog(lang)) + 1  # and the header's empty msgid
