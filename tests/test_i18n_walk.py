"""Every text in all three languages: the language walk.

One catalog (the gettext ``.po`` files) serves the terminal, the server and the
page. This walks every message key, every rule code the engines raise, every
Doppelkopf game type, announcement, stage and extra point, every Slobberhannes
penalty, every key the page's scripts and the Python sources name, and the
explanations of many played deals, in German, English and Russian; it fails on
a missing text, on a German or Russian text that is the English one (outside a
short allow-list of words the languages share), on "Sie" in German, on
placeholders a translation invents and on incomplete plural forms.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from kartentisch.errors import IllegalActionError
from kartentisch.explain import render_lines
from kartentisch.games.doppelkopf.explain import explain_deal, explain_miese, explain_redeal
from kartentisch.games.doppelkopf.match import DoppelkopfMatch
from kartentisch.games.doppelkopf.scoring import EXTRA_NAMES, GAME_TYPES, STAGES, WORDS
from kartentisch.games.doppelkopf.text import render as render_doppelkopf
from kartentisch.games.slobberhannes.deal import REASONS
from kartentisch.games.slobberhannes.explain import explain_deal as explain_slobberhannes
from kartentisch.games.slobberhannes.match import SlobberhannesMatch
from kartentisch.i18n import LANGUAGES, PLURAL_FORMS, describe_refusal, has, own_catalog

SRC = Path(__file__).resolve().parents[1] / "src" / "kartentisch"
STATIC = SRC / "web" / "static"
OTHERS = ("de", "ru")

#: Words German or Russian texts share with English (names of the game's things, units).
SHARED_WORDS = frozenset(
    {
        "Re", "Kontra", "schwarz", "Augen", "Bock", "Armut", "Hochzeit", "Scharfe",
        "ouvert", "Solo", "Kartentisch", "Bot", "Chips", "normal", "Standard", "Hoyle",
        "Enter", "M", "K", "A", "T", "C", "s",
    }
)  # fmt: skip
#: Keys whose text is input notation (what a player types), the same in every language.
NOTATION_PREFIXES = ("term.dk.type.",)
#: English words that must not appear in a German or Russian text of a played deal.
ENGLISH_WORDS = (
    "wins", "needs", "Extra points", "seats", "losers", "trick ", "Value", "Base",
    "Stages", "announced", "none", "each", "soloist", "fuchs_gefangen", "rot_geht_rum",
    "karlchen", "dulle_gefangen", "doppelkopf ", "Announcements",
)  # fmt: skip
FIELD = re.compile(r"\{(\w+)")


def catalogs() -> dict[str, dict[str, str]]:
    return {lang: own_catalog(lang) for lang in LANGUAGES}


def legitimately_shared(key: str, text: str) -> bool:
    if key.startswith(NOTATION_PREFIXES):
        return True
    words = re.findall(r"[^\W\d_]+", FIELD.sub(" ", re.sub(r"\{\w+\}", " ", text)))
    return all(w in SHARED_WORDS for w in words)


def test_every_key_has_a_text_in_every_language() -> None:
    cats = catalogs()
    keys = set().union(*cats.values())
    for lang, cat in cats.items():
        missing = sorted(k for k in keys if not cat.get(k, "").strip())
        assert not missing, f"{lang} lacks {missing}"


def test_german_and_russian_are_not_english() -> None:
    cats = catalogs()
    for lang in OTHERS:
        same = [
            k
            for k, text in cats["en"].items()
            if cats[lang].get(k) == text and not legitimately_shared(k, text)
        ]
        assert not same, f"{lang} texts equal to the English ones: {same}"


def test_the_allow_list_is_not_a_blanket() -> None:
    # a sentence never passes for shared words
    assert not legitimately_shared("x", "Re wins (Re needs 121 Augen)")
    assert legitimately_shared("x", "Bock ×{m}")
    assert legitimately_shared("x", "{who}: {what}")


#: Doppelkopf's German terms, which the Russian texts name in Russian (Свадьба, бедность,
#: открытое соло …); only the words a player types (the notation) keep them.
GERMAN_TERMS = (
    "Hochzeit", "Armut", "Pflichtsolo", "Vorführung", "Rot geht rum", "Augen", "Schweinchen",
    "Kontra", "Dulle", "Fuchs", "Karlchen", "Scharfe", "Vorbehalt", "Gesund", "Schmeißen",
    "Kulanz", "Bock", "Solo", "ouvert", "Re ",
)  # fmt: skip
#: Russian texts that list what a player types (notation words, German or English).
TYPED_WORDS_KEYS = ("term.dk.help",)


def test_russian_names_the_game_in_russian() -> None:
    """One language at a time: no German term of the game in a Russian text (a Russian
    page once said "Свадьба (Hochzeit)")."""
    bad = {
        key: term
        for key, text in own_catalog("ru").items()
        if not key.startswith(NOTATION_PREFIXES) and key not in TYPED_WORDS_KEYS
        for term in GERMAN_TERMS
        if term in text
    }
    assert not bad, f"Russian texts with a German term: {bad}"


def test_german_says_du() -> None:
    formal = re.compile(r"\b(Sie|Ihnen|Ihr|Ihre|Ihren|Ihrem|Ihrer)\b")
    bad = {k: v for k, v in own_catalog("de").items() if formal.search(v)}
    assert not bad, f"German texts that say Sie: {bad}"


def test_translations_fill_only_the_english_fields() -> None:
    cats = catalogs()
    for key, text in cats["en"].items():
        fields = set(FIELD.findall(text))
        for lang in OTHERS:
            extra = set(FIELD.findall(cats[lang][key])) - fields
            assert not extra, f"{lang} {key} uses {extra}, which the English text lacks"


def test_plural_forms_are_complete() -> None:
    for lang, cat in catalogs().items():
        families = {k.rsplit(".", 1)[0] for k in cat if k.rsplit(".", 1)[-1] in PLURAL_FORMS}
        for family in families:
            for form in PLURAL_FORMS:
                assert f"{family}.{form}" in cat, f"{lang}: {family}.{form} is missing"


def test_russian_plurals_follow_the_number() -> None:
    from kartentisch.i18n import translate

    got = [translate("ru", "explain.sh.total", who="Аня", n=n) for n in (1, 2, 5, 11, 21, 24)]
    assert [line.split()[1:3] for line in got] == [
        ["1", "ремиз"],
        ["2", "ремиза"],
        ["5", "ремизов"],
        ["11", "ремизов"],
        ["21", "ремиз"],
        ["24", "ремиза"],
    ]
    seconds = [translate("ru", "lobby.seconds", n=n) for n in (15, 21, 30, 2)]
    assert seconds == ["15 секунд", "21 секунда", "30 секунд", "2 секунды"]
    assert translate("de", "dk.armut_question", name="Ben", n=1) == (
        "Ben bietet eine Armut mit 1 Trumpf an: nimmst du sie?"
    )


# -- what the code names ----------------------------------------------------------------


def raised_rule_codes() -> set[str]:
    """Every rule code an IllegalActionError is raised with in the sources."""
    pattern = re.compile(r"IllegalActionError\(\s*(?:rule=)?[\"']([a-z_]+)[\"']")
    codes: set[str] = set()
    for path in SRC.rglob("*.py"):
        codes |= set(pattern.findall(path.read_text(encoding="utf-8")))
    return codes


def test_the_scan_finds_the_rule_codes() -> None:
    codes = raised_rule_codes()
    assert {"must_follow_suit", "not_your_turn", "wrong_party", "empty_pile"} <= codes
    assert len(codes) >= 50


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_rule_code_is_explained(lang: str) -> None:
    missing = sorted(c for c in raised_rule_codes() if not has(lang, f"rule.{c}"))
    assert not missing, f"no rule.* text in {lang} for {missing}"
    error = IllegalActionError("must_follow_suit", "must follow ♥", suit=2)
    assert describe_refusal(error, lang) != error.message


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_doppelkopf_word_is_named(lang: str) -> None:
    keys = [f"dk.game.{g}" for g in GAME_TYPES]
    keys += [f"dk.word.{w}" for w in WORDS]
    keys += [f"dk.stage.{s}" for s in STAGES]
    keys += [f"dk.extra.{e}" for e in EXTRA_NAMES]
    keys += [f"explain.redeal.{r}" for r in ("kings", "armut_refused", "misdeal")]
    keys += [f"reason.{r}" for r in REASONS] + [f"explain.sh.{r}" for r in REASONS]
    missing = [k for k in keys if not has(lang, k)]
    assert not missing, f"{lang} lacks {missing}"


def named_keys() -> set[str]:
    """The literal keys the page's scripts and the Python sources look up."""
    keys: set[str] = set()
    js = re.compile(r"\bt\(\s*\"([a-z_]+\.[\w.]+)\"")
    for path in STATIC.rglob("*.js"):
        keys |= set(js.findall(path.read_text(encoding="utf-8")))
    py = re.compile(r"\b(?:translate|t)\(\s*(?:self\.)?lang,\s*\"([a-z_]+\.[\w.]+)\"")
    for path in SRC.rglob("*.py"):
        keys |= set(py.findall(path.read_text(encoding="utf-8")))
    prefixed = {"dk": "dk.text.", "say": "rt."}
    for path in SRC.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for fn, prefix in prefixed.items():
            pattern = re.compile(rf"\b{fn}\(\s*(?:self\.)?lang,\s*\"(\w+)\"")
            keys |= {prefix + k for k in pattern.findall(text) if not k.endswith("_")}
    key = re.compile(r"\"(explain\.[\w.]+)\"")
    for path in SRC.rglob("*.py"):
        keys |= {k for k in key.findall(path.read_text(encoding="utf-8")) if not k.endswith(".")}
    return keys


def test_every_named_key_is_in_the_catalog() -> None:
    keys = named_keys()
    assert len(keys) > 200
    for lang in LANGUAGES:
        missing = sorted(k for k in keys if not has(lang, k))
        assert not missing, f"{lang} lacks {missing}"


# -- played deals, explained -----------------------------------------------------------


def played_sessions() -> list[DoppelkopfMatch]:
    out = []
    for rules, players, seed in (("house", 4, 1), ("house", 5, 2), ("ddv", 4, 3)):
        rng = random.Random(seed)
        match = DoppelkopfMatch(
            {"scoring": rules, "players": players},
            seats=["Ann", "Ben", "Cy", "Dee", "Eva"][:players],
            seed=seed,
        )
        while len(match.history) < 6 or not match.deal.is_over:
            if match.deal.is_over:
                match.start_deal()
            else:
                legal = match.legal_actions()
                # mostly plain games: "pass" when it may be said
                pas = [a for a in legal if str(a) == "pass"]
                match.apply(pas[0] if pas and rng.random() < 0.8 else rng.choice(legal))
        out.append(match)
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_explanations_of_played_deals_are_in_the_language(lang: str) -> None:
    lines: list[str] = []
    for match in played_sessions():
        for deal in match.deals:
            lines += render_lines(lang, explain_deal(deal), match.seat_names)
        if lang != "en":
            text = "\n".join(render_doppelkopf(match, lang))
            for word in ENGLISH_WORDS:
                assert word not in text, f"English {word!r} in the {lang} text:\n{text}"
    lines += render_lines(lang, explain_redeal("kings", 1) + explain_miese(2), ["A", "B", "C"])
    slob = SlobberhannesMatch({"target": 3}, seats=["Ann", "Ben", "Cy", "Dee"], seed=5)
    while not slob.is_over:
        slob.play(slob.legal_actions()[0])
    for deal in slob.deals:
        lines += render_lines(lang, explain_slobberhannes(deal), slob.seat_names)
    assert len(lines) > 50
    for line in lines:
        assert not line.startswith("explain."), f"no text for {line}"
        assert "{" not in line, f"unfilled field in {line!r}"


def test_every_refusal_of_the_web_app_has_a_text() -> None:
    """Each code a route raises (``TableError("code", …)``) has its message in every
    language, so no page ever shows a bare key (the account and player routes too)."""
    raising = re.compile(
        r'(?:TableError|AccountNameError|PasswordError)\(\s*"([a-z_]+)"(?![^)]*key=)'
    )
    sources = [*(SRC / "web").glob("*.py"), *(SRC / "accounts").glob("*.py")]
    codes = {m[1] for path in sources for m in raising.finditer(path.read_text())}
    codes |= {"name_taken", "name_confusable", "csrf"}  # (NameTaken's; the CSRF guard's)
    assert {"login_failed", "name_short", "password_long", "rated_needs_account"} <= codes
    for lang, cat in catalogs().items():
        missing = sorted(c for c in codes if f"error.{c}" not in cat)
        assert not missing, f"{lang} has no text for {missing}"
