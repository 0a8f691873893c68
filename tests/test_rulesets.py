"""Rule sets (kartentisch.rulesets): reading, writing, refusals, the schema, the examples."""

from __future__ import annotations

import json
import pickle
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kartentisch.errors import OptionError, RulesError
from kartentisch.games.doppelkopf.options import GROUPS, PRESETS, SCHEMA, DoppelkopfOptions
from kartentisch.i18n import translate
from kartentisch.options import Option
from kartentisch.rulesets import (
    MAX_RULES_BYTES,
    RuleSet,
    dump_rules,
    group_title,
    load_rules,
    option_title,
    parse_rules,
    rules_from_dict,
    rules_lines,
    rules_schema,
    rules_texts,
    value_text,
)

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "rules"
HEAD = 'kartentisch-rules = 1\ngame = "doppelkopf"\n'


def refusal(text: str, **kwargs: Any) -> RulesError:
    with pytest.raises(RulesError) as caught:
        parse_rules(text, **kwargs)
    return caught.value


# -- groups ------------------------------------------------------------------------------


def test_every_doppelkopf_option_has_its_group() -> None:
    groups = {o.name: o.group for o in SCHEMA.options}
    assert groups == {
        "players": "deck",
        "nines": "deck",
        "dullen": "trumps",
        "dulle_order": "trumps",
        "schweinchen": "trumps",
        "superschweinchen": "trumps",
        "hyperschweinchen": "trumps",
        "schweinchen_solo": "trumps",
        "declarations": "declarations",
        "scharfe": "declarations",
        "soli": "soli",
        "ouvert": "soli",
        "solo_style": "soli",
        "solo_priority": "soli",
        "pflichtsolo": "soli",
        "pflichtsolo_count": "soli",
        "vorfuehrung": "soli",
        "lustsolo_lead": "soli",
        "hochzeit": "hochzeit",
        "hochzeit_tricks": "hochzeit",
        "hochzeit_alone": "hochzeit",
        "stille_hochzeit": "hochzeit",
        "armut": "armut",
        "armut_max_trumps": "armut",
        "armut_count_foxes": "armut",
        "armut_ask": "armut",
        "armut_refused": "armut",
        "armut_return": "armut",
        "kings_redeal": "schmeissen",
        "nines_redeal": "schmeissen",
        "nines_kings_redeal": "schmeissen",
        "few_trumps_redeal": "schmeissen",
        "low_augen_redeal": "schmeissen",
        "fox_redeal": "schmeissen",
        "announcements": "announcements",
        "announcement_value": "announcements",
        "against_points": "announcements",
        "announcement_reply": "announcements",
        "announcement_count": "announcements",
        "hochzeit_shift": "announcements",
        "rot_geht_rum": "extras",
        "sonderpunkte": "extras",
        "solo_sonderpunkte": "extras",
        "hochzeit_sonderpunkte": "extras",
        "bock": "bock",
        "bock_triggers": "bock",
        "bock_rounds": "bock",
        "bock_stacking": "bock",
        "bock_factor": "bock",
        "scoring": "counting",
        "counting": "counting",
        "solo_factor": "counting",
        "table_mode": "table",
    }
    assert SCHEMA.groups == GROUPS
    assert GROUPS == (
        "deck", "trumps", "declarations", "soli", "hochzeit", "armut", "schmeissen",
        "announcements", "extras", "bock", "counting", "table",
    )  # fmt: skip
    assert Option("x", "flag").group == ""


# -- reading and writing -----------------------------------------------------------------


def test_a_document_names_its_preset_and_the_options_that_differ() -> None:
    rules = parse_rules(
        HEAD + 'preset = "ddv"\nname = "Unsere Runde"\n[options]\n'
        'soli = ["queens", "jacks"]\nnines = true\nplayers = 5\n'
    )
    # nines is the DDV preset's own value: it is not an override.
    overrides = {"players": 5, "soli": ("queens", "jacks")}
    assert rules == RuleSet("doppelkopf", "ddv", overrides, "Unsere Runde")
    assert rules != RuleSet("doppelkopf", "ddv", overrides)
    assert rules != RuleSet("doppelkopf", "ddv", {**overrides, "soli": ("jacks", "queens")})
    assert rules.name == "Unsere Runde" and rules.description == ""
    assert list(rules.options) == ["players", "soli"]  # the schema's order
    options = rules.options_object()
    assert options == DoppelkopfOptions.preset_named("ddv", players=5, soli=["queens", "jacks"])
    assert rules.record_options() == {"preset": "ddv", "players": 5, "soli": ["queens", "jacks"]}
    with pytest.raises(TypeError):
        rules.options["nines"] = False  # type: ignore[index]
    assert hash(rules) == hash(parse_rules(dump_rules(rules)))
    again = pickle.loads(pickle.dumps(rules))
    assert again == rules and again.name == "Unsere Runde"


def test_the_default_preset_and_an_empty_document() -> None:
    rules = parse_rules(HEAD)
    assert (rules.game, rules.preset, dict(rules.options)) == ("doppelkopf", "house", {})
    assert rules.options_object() == DoppelkopfOptions()
    assert dump_rules(rules) == HEAD + 'preset = "house"\n'
    assert json.loads(dump_rules(rules, "json")) == {
        "kartentisch-rules": 1,
        "game": "doppelkopf",
        "preset": "house",
        "options": {},
    }


def test_json_is_guessed_by_its_brace_and_aliases_name_the_game() -> None:
    text = ' \n{"kartentisch-rules": 1, "game": "Doko", "options": {"bock": false}}'
    rules = parse_rules(text)
    assert rules == RuleSet("doppelkopf", "house", {"bock": False})
    assert rules.game == "doppelkopf"
    assert parse_rules("\ufeff" + HEAD) == parse_rules(HEAD)  # a byte-order mark
    nulls = '{"kartentisch-rules": 1, "game": "doppelkopf", "preset": null, "name": null, '
    nulls += '"description": null, "options": null}'
    assert parse_rules(nulls) == parse_rules(HEAD)  # (null: as if left out)
    # A JSON document read as TOML is malformed TOML, and the other way round.
    assert refusal(text, format="toml").code == "rules_syntax"
    assert refusal(HEAD, format="json").code == "rules_syntax"


def test_a_written_document_reads_back_with_its_name_and_description() -> None:
    rules = RuleSet(
        "doppelkopf",
        "house",
        {"nines": True, "soli": ()},
        name='Anna\'s "Donnerstag" — Доппелькопф',
        description="Zeile eins\n\tZeile zwei\n",
    )
    for form in ("toml", "json"):
        assert parse_rules(dump_rules(rules, form)) == rules
        assert parse_rules(dump_rules(rules, form)).description == rules.description
    assert "soli = []" in dump_rules(rules)


def test_from_options_is_the_preset_and_what_differs() -> None:
    options = DoppelkopfOptions.preset_named("house", nines=True, kings_redeal=0)
    rules = RuleSet.from_options(options, name="Neunen")
    assert rules == RuleSet("doppelkopf", "house", {"nines": True, "kings_redeal": 0}, "Neunen")
    assert rules.options_object() == options
    with pytest.raises(RulesError) as caught:
        RuleSet.from_options(object())
    assert caught.value.code == "rules_game"


# -- refusals --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "code", "words"),
    [
        ('game = "doppelkopf"', "rules_version", ["kartentisch-rules", "missing"]),
        ('kartentisch-rules = 2\ngame = "doppelkopf"', "rules_version", ["version 2", "1"]),
        ('kartentisch-rules = true\ngame = "doppelkopf"', "rules_version", ["True"]),
        ('kartentisch-rules = "1"\ngame = "doppelkopf"', "rules_version", ["'1'"]),
        ("kartentisch-rules = 1", "rules_game", ["names no game", "doppelkopf"]),
        ('kartentisch-rules = 1\ngame = "chess"', "rules_game", ["'chess'", "doppelkopf"]),
        ('kartentisch-rules = 1\ngame = "slapjack"', "rules_game", ["Slapjack", "doppelkopf"]),
        ("kartentisch-rules = 1\ngame = 7", "rules_game", ["7"]),
        (HEAD + 'preset = "tournament"', "unknown_preset", ["'tournament'", "house, ddv"]),
        (HEAD + 'colour = "red"', "rules_key", ["'colour'", "game, preset, name"]),
        (HEAD + "name = 5", "rules_field", ["name", "80"]),
        (HEAD + f'name = "{"x" * 81}"', "rules_field", ["name", "80", "81"]),
        (HEAD + 'name = "two\\nlines"', "rules_field", ["name", "control"]),
        (HEAD + 'description = "bell\\u0007"', "rules_field", ["description", "control"]),
        (HEAD + "options = 3", "not_object", ["options", "table"]),
        (
            HEAD + "[options]\nnine = true",
            "unknown_option",
            ["'nine'", "nines, nines_kings_redeal"],
        ),
        (HEAD + "[options]\npreset = 'ddv'", "unknown_option", ["'preset'", "nines"]),
        (HEAD + '[options]\nnines = "yes"', "flag", ["nines", "true or false", "'yes'"]),
        (HEAD + "[options]\nkings_redeal = 9", "range", ["kings_redeal", "0 to 8", "9"]),
        (HEAD + "[options]\nkings_redeal = 2.0", "range", ["kings_redeal", "2.0"]),
        (HEAD + "[options]\nscoring = 'sheet'", "choice", ["scoring", "house, ddv", "'sheet'"]),
        (HEAD + "[options]\nsoli = ['queens', 'queen']", "soli", ["'queen'", "jacks"]),
        (HEAD + "[options]\nsoli = ['jacks', 'jacks']", "soli", ["soli", "twice"]),
        (HEAD + "[options]\nplayers = 6", "range", ["players", "4 to 5"]),
        ("[1, 2]", "rules_syntax", ["TOML"]),
        ("{[1, 2]", "rules_syntax", ["JSON", "line 1, column 2"]),
        ('{"a": 1, "a": 2}', "rules_syntax", ["'a'", "twice"]),
        ("[]", "rules_syntax", ["TOML"]),
        ('{"kartentisch-rules": 1}\n', "rules_game", ["names no game"]),
    ],
)
def test_refusals_name_the_key_and_what_it_may_be(text: str, code: str, words: list[str]) -> None:
    error = refusal(text)
    assert error.code == code, error
    for word in words:
        assert word in str(error), (word, str(error))
    assert isinstance(error, OptionError)
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is RulesError and again.code == code and str(again) == str(error)


def test_malformed_toml_says_where() -> None:
    error = refusal(HEAD + 'preset = "house"\nname = \n')
    assert error.code == "rules_syntax"
    assert (error.params["line"], error.params["column"]) == (4, 8)
    assert "line 4, column 8" in str(error)


def test_a_json_document_must_be_an_object() -> None:
    error = refusal('{"kartentisch-rules": 1, "game": "doppelkopf"', format="json")
    assert (error.params["line"], error.params["column"]) == (1, 46)  # (the end)
    with pytest.raises(RulesError) as caught:
        rules_from_dict(["kartentisch-rules", 1])
    assert caught.value.code == "rules_not_object"
    with pytest.raises(RulesError) as caught:
        parse_rules("[1]", format="json")
    assert caught.value.code == "rules_not_object"


def test_what_does_not_go_together_is_refused_clearly() -> None:
    error = refusal(HEAD + 'preset = "ddv"\n[options]\narmut = true\n')
    assert error.code == "needs_sheet_order" and error.params == {"option": "armut"}
    assert "armut" in str(error) and "declarations: sheet" in str(error)
    # The same option is fine with the sheet's order.
    rules = parse_rules(HEAD + 'preset = "ddv"\n[options]\narmut = true\ndeclarations = "sheet"\n')
    assert rules.options_object().armut


def test_too_large_documents_are_refused_before_reading() -> None:
    text = HEAD + "# " + "x" * MAX_RULES_BYTES + "\n"
    error = refusal(text)
    assert error.code == "rules_too_large" and error.params == {"max": MAX_RULES_BYTES}
    # Counted in UTF-8 bytes: fewer characters than the cap can be too many bytes.
    assert refusal(HEAD + "# " + "ж" * (MAX_RULES_BYTES // 2)).code == "rules_too_large"
    assert parse_rules(HEAD + "# " + "x" * (MAX_RULES_BYTES - 100) + "\n") == parse_rules(HEAD)


def test_the_game_asked_for() -> None:
    assert parse_rules(HEAD, game="doko").game == "doppelkopf"
    error = refusal(HEAD, game="slobberhannes")
    assert error.code == "rules_game"
    assert error.params == {"game": "doppelkopf", "expected": "slobberhannes"}


def test_files(tmp_path: Path) -> None:
    (tmp_path / "r.json").write_text(dump_rules(parse_rules(HEAD), "json"), encoding="utf-8")
    assert load_rules(tmp_path / "r.json") == parse_rules(HEAD)
    (tmp_path / "bad.toml").write_bytes(b'kartentisch-rules = 1\ngame = "\xff"\n')
    for path, code in (
        (tmp_path / "missing.toml", "rules_file"),
        (tmp_path, "rules_file"),
        (tmp_path / "bad.toml", "rules_syntax"),
    ):
        with pytest.raises(RulesError) as caught:
            load_rules(path)
        assert caught.value.code == code and str(path) in str(caught.value)
    (tmp_path / "big.toml").write_text(HEAD + "#" * MAX_RULES_BYTES, encoding="utf-8")
    with pytest.raises(RulesError) as caught:
        load_rules(tmp_path / "big.toml")
    assert caught.value.code == "rules_too_large"
    with pytest.raises(RulesError) as caught:
        load_rules(tmp_path / "r.json", game="slobberhannes")
    assert caught.value.code == "rules_game"


# -- the round trip over random option sets ---------------------------------------------


def values(option: Option) -> st.SearchStrategy[Any]:
    if option.kind == "whole":
        return st.integers(option.low, option.high)
    if option.kind == "flag":
        return st.booleans()
    if option.kind == "choice":
        return st.sampled_from(option.choices)
    return st.lists(st.sampled_from(option.choices), unique=True)


option_sets = st.fixed_dictionaries(
    {}, optional={o.name: values(o) for o in SCHEMA.options}
)  # (any subset of the options, each with any value its schema allows)
texts = st.text(
    st.characters(blacklist_categories=("Cc", "Cs")), max_size=80
)  # (a name: no control characters)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(PRESETS)), option_sets, texts, texts)
def test_documents_read_back_as_written(
    preset: str, chosen: dict[str, Any], name: str, description: str
) -> None:
    document = {
        "kartentisch-rules": 1,
        "game": "doppelkopf",
        "preset": preset,
        "name": name,
        "description": description,
        "options": chosen,
    }
    try:
        expected = DoppelkopfOptions(preset=preset, **{**PRESETS[preset], **chosen})
    except OptionError as exc:
        # What the options refuse, a document is refused for, with the same code and option.
        with pytest.raises(RulesError) as caught:
            rules_from_dict(document)
        assert caught.value.code == exc.code == "needs_sheet_order"
        assert caught.value.params == exc.params
        assert exc.params["option"] in str(caught.value)
        return
    rules = rules_from_dict(document)
    assert rules.options_object() == expected
    assert RuleSet.from_options(expected, name=name, description=description) == rules
    for form in ("toml", "json"):
        text = dump_rules(rules, form)
        assert parse_rules(text) == rules
        assert parse_rules(text, format=form) == rules
    # What is kept are the options that differ from the preset, and only those.
    base = DoppelkopfOptions(preset=preset, **PRESETS[preset])
    assert all(getattr(base, k) != v for k, v in rules.options.items())
    assert {k for k in chosen if getattr(expected, k) != getattr(base, k)} == set(rules.options)
    assert tomllib.loads(dump_rules(rules)).get("options", {}) == rules.to_dict()["options"]


# -- the examples ----------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["house", "ddv", "freedoko"])
def test_the_preset_examples_are_the_presets_written_out(preset: str) -> None:
    path = EXAMPLES / f"{preset}.toml"
    rules = load_rules(path)
    assert rules.preset == preset and dict(rules.options) == {}
    assert rules.options_object() == DoppelkopfOptions.preset_named(preset)
    assert rules.name and rules.description
    # Every option is written out, with the preset's value.
    written = tomllib.loads(path.read_text(encoding="utf-8"))
    assert written["options"] == rules_schema("doppelkopf")["presets"][preset]
    assert path.read_text(encoding="utf-8").startswith("# Doppelkopf: ")


def test_the_variant_example_is_what_it_says() -> None:
    rules = load_rules(EXAMPLES / "with-nines.toml")
    assert rules == RuleSet(
        "doppelkopf",
        "house",
        {"nines": True, "bock": False},
        "Mit Neunen",
        "Hausregeln mit Neunen, ohne Bockrunden.",
    )
    options = rules.options_object()
    assert (options.deck_size, options.hand_size, options.bock) == (48, 12, False)


# -- the schema and the texts ------------------------------------------------------------


def test_the_schema_lists_every_option_with_its_values_in_each_preset() -> None:
    schema = rules_schema("Doko")
    assert schema["kartentisch-rules"] == 1 and schema["game"] == "doppelkopf"
    assert schema["default_preset"] == "house"
    assert schema["groups"] == list(GROUPS)
    assert [o["name"] for o in schema["options"]] == [o.name for o in SCHEMA.options]
    by_name = {o["name"]: o for o in schema["options"]}
    assert by_name["kings_redeal"] == {
        "name": "kings_redeal",
        "kind": "whole",
        "group": "schmeissen",
        "nullable": False,
        "min": 0,
        "max": 8,
        "presets": {"house": 5, "ddv": 0, "freedoko": 0},
    }
    assert by_name["soli"]["choices"][:3] == ["trump", "queens", "jacks"]
    assert by_name["soli"]["presets"]["ddv"] == list(PRESETS["ddv"]["soli"])
    assert by_name["declarations"]["choices"] == ["sheet", "ddv"]
    assert schema["presets"]["ddv"]["nines"] is True
    assert schema["presets"]["house"] == {
        o.name: by_name[o.name]["presets"]["house"] for o in SCHEMA.options
    }
    assert json.loads(json.dumps(schema)) == schema
    with pytest.raises(RulesError) as caught:
        rules_schema("irish-snap")
    assert caught.value.code == "rules_game"


def test_texts_fall_back_to_the_lobby_label_and_then_the_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import kartentisch.rulesets as rulesets

    catalog = {
        "opt.doppelkopf.nines": "Neunen",
        "opt.doppelkopf.nines.help": "Mit den Neunen: 48 Karten.",
        "opt.doppelkopf.nines.true": "mit",
        "option.bock": "Bockrunden",
        "option.bock.true": "ja, Bock",
        "opt.doppelkopf.soli.queens": "Damensolo",
        "optgroup.deck": "Karten",
        "preset.house": "Hausregeln",
        "term.rules.false": "nein",
        "term.rules.true": "ja",
        "term.rules.none": "keine",
    }
    monkeypatch.setattr(rulesets, "has", lambda lang, key: key in catalog)
    monkeypatch.setattr(rulesets, "translate", lambda lang, key, **f: catalog[key])
    assert option_title("doppelkopf", "nines", "de") == "Neunen"
    assert option_title("doppelkopf", "bock", "de") == "Bockrunden"
    assert option_title("doppelkopf", "kings_redeal", "de") == "kings_redeal"
    assert value_text("doppelkopf", "nines", True, "de") == "mit"
    assert value_text("doppelkopf", "nines", False, "de") == "nein"
    assert value_text("doppelkopf", "bock", True, "de") == "ja, Bock"
    assert value_text("doppelkopf", "soli", ("queens", "jacks"), "de") == "Damensolo, jacks"
    assert value_text("doppelkopf", "soli", [], "de") == "keine"
    assert value_text("doppelkopf", "scoring", "ddv", "de") == "ddv"
    assert value_text("doppelkopf", "kings_redeal", 5, "de") == "5"
    texts = rules_texts("doppelkopf", "de")
    assert texts["groups"]["deck"] == "Karten" and texts["groups"]["soli"] == "soli"
    assert texts["presets"] == {"house": "Hausregeln", "ddv": "ddv", "freedoko": "freedoko"}
    assert texts["options"]["nines"] == {
        "title": "Neunen",
        "help": "Mit den Neunen: 48 Karten.",
        "values": {"true": "mit", "false": "nein"},
    }
    assert texts["options"]["kings_redeal"] == {"title": "kings_redeal", "help": "", "values": {}}
    assert texts["options"]["soli"]["values"]["queens"] == "Damensolo"
    assert list(texts["options"]["soli"]["values"]) == list(SCHEMA.option("soli").choices)


@pytest.mark.parametrize("lang", ["de", "en", "ru"])
def test_a_rule_set_as_text(lang: str) -> None:
    rules = load_rules(EXAMPLES / "with-nines.toml")
    lines = rules_lines(rules, lang)
    head = {
        "en": ["Rule set: Mit Neunen", "Preset: House rules (house)", "2 options differ"],
        "de": ["Regelsatz: Mit Neunen", "Regelvorgabe: Hausregeln (house)", "2 Optionen weichen"],
        "ru": ["Свод правил: Mit Neunen", "Набор правил: Домашние правила (house)", "2 настройки"],
    }[lang]
    assert lines[0] == head[0]
    assert lines[1] == "  Hausregeln mit Neunen, ohne Bockrunden."
    assert lines[2] == head[1]
    assert lines[3].startswith(head[2])
    title, value = option_title, value_text
    nines = f"  * {title('doppelkopf', 'nines', lang)}: {value('doppelkopf', 'nines', True, lang)}"
    players = f"    {title('doppelkopf', 'players', lang)}: 4"
    assert lines[4:8] == ["", group_title("deck", lang), players, nines]
    assert [line for line in lines if line.startswith("  * ")] == [
        nines,
        f"  * {title('doppelkopf', 'bock', lang)}: {value('doppelkopf', 'bock', False, lang)}",
    ]
    # Every option once, group by group in their order.
    assert sum(1 for line in lines if line.startswith("    ")) == len(SCHEMA.options) - 2
    groups = [lines[i + 1] for i, line in enumerate(lines) if line == ""]
    assert groups == [group_title(g, lang) for g in GROUPS]
    unchanged = rules_lines(load_rules(EXAMPLES / "ddv.toml"), lang)
    assert not any(line.startswith("  * ") for line in unchanged)
    assert unchanged[:2] == [translate(lang, "term.rules.name", name="DDV"), unchanged[1]]
    assert unchanged[3] == translate(lang, "term.rules.unchanged")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner),
    max_leaves=12,
)
near_documents = st.fixed_dictionaries(
    {},
    optional={
        "kartentisch-rules": st.sampled_from([1, 1, 1, 2, True, "1", 1.0]),
        "game": st.sampled_from(["doppelkopf", "doko", "slapjack", "chess"]) | json_values,
        "preset": st.sampled_from(["house", "ddv"]) | json_values,
        "name": texts | json_values,
        "description": json_values,
        "options": st.dictionaries(
            st.sampled_from([o.name for o in SCHEMA.options]) | st.text(max_size=8),
            json_values | st.sampled_from([True, False, 0, 3, 5, "ddv", "house", ["null"]]),
            max_size=4,
        )
        | json_values,
        "colour": json_values,
    },
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(near_documents | json_values)
def test_any_json_is_a_rule_set_or_a_refusal_with_a_code(document: Any) -> None:
    try:
        rules = rules_from_dict(document)
    except RulesError as exc:
        assert exc.code and str(exc)
        json.dumps(exc.params)  # (the web sends them)
        return
    assert parse_rules(dump_rules(rules, "json")) == rules
