"""The terminal speaks one language: a German (and a Russian) session has no English words."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console

from kartentisch.bots import make_bot
from kartentisch.cli import doppelkopf as dk_cli
from kartentisch.cli import slobberhannes as sh_cli
from kartentisch.games.doppelkopf import Call, DoppelkopfMatch, DoppelkopfOptions
from kartentisch.games.doppelkopf.text import call_text, typed_call
from kartentisch.games.slobberhannes import SlobberhannesMatch
from kartentisch.i18n import card_text, translate

#: English words the game's texts would have if a line were left untranslated.
ENGLISH = (
    "wins", "needs", "Extra points", "Extra", "seats", "losers", "Value", "Base", "Stages",
    "announced", "none", "each", "soloist", "You may", "pass, ", "solo trump", "solo queens",
    "fuchs_gefangen", "rot_geht_rum", "karlchen", "Score sheet", "Points", "Game:", "Deal ",
    "Trick ", "plays", "trick", "Your hand", "Not allowed", "penalty", "Standings",
)  # fmt: skip
NAMES = ["Ich", "Ben", "Carla", "Dan", "Eva"]


def _prompt_is(prompt: str, lang: str, key: str) -> bool:
    """Whether ``prompt`` is the catalog's ``key`` (its text up to the first field)."""
    head = re.split(r"\{", translate(lang, key))[0].strip()
    return bool(head) and prompt.strip().startswith(head[:12])


def doppelkopf_session(
    tmp_path: Path, lang: str, rules: str, deals: int, *, own_words: bool = False
) -> str:
    """A session of ``deals`` deals with the person at seat 0; with ``own_words`` every
    declaration and announcement is typed in the language's words (``пас``, ``ре``)."""
    options = DoppelkopfOptions.from_dict({"preset": rules, "players": 4})
    match = DoppelkopfMatch(options, seats=NAMES[:4], seed=12, start=False)
    bots = {s: make_bot("doppelkopf", "heuristic", s) for s in range(1, 4)}
    played = 0
    tried_wrong = False
    said: list[Call] = []

    def read(prompt: str) -> str:
        nonlocal played, tried_wrong
        if _prompt_is(prompt, lang, "term.cut_prompt"):
            return "5"
        if _prompt_is(prompt, lang, "term.dk.kulanz"):
            return "n"
        if _prompt_is(prompt, lang, "term.dk.next"):
            played += 1
            return "q" if played >= deals else ""
        legal = match.deal.legal_actions(0)
        cards = [a for a in legal if not hasattr(a, "word")]
        if cards and not tried_wrong:
            # once: a card not in the hand, refused with the reason in the language
            tried_wrong = True
            hand = set(match.deal.observation(0).hand)
            other = next(c for c in match.options.deck() if c not in hand)
            return str(other)
        calls = [a for a in legal if isinstance(a, Call) and a.word in ("re", "kontra")]
        if own_words and calls and not said:
            said.append(calls[0])  # Re or Kontra once, typed in the language's word
            return typed_call(calls[0], lang)
        # a card as the language writes it (D♣ in German, Д♣ in Russian): the terminal reads it
        if cards:
            return card_text(lang, cards[0])
        first = legal[0]
        return typed_call(first, lang) if own_words and isinstance(first, Call) else str(first)

    out = io.StringIO()
    console = Console(file=out, width=140, force_terminal=False)
    status = dk_cli.TerminalGame(match, bots, lang, str(tmp_path / "s.json"), console, read).run()
    assert status == 0
    return out.getvalue()


def slobberhannes_session(tmp_path: Path, lang: str) -> str:
    match = SlobberhannesMatch({"target": 3}, seats=NAMES[:4], seed=3, start=False)
    bots = {s: make_bot("slobberhannes", "heuristic", s) for s in range(1, 4)}

    def read(prompt: str) -> str:
        if _prompt_is(prompt, lang, "term.cut_prompt"):
            return ""
        if _prompt_is(prompt, lang, "term.next_deal"):
            return ""
        return str(match.deal.legal_actions()[0])

    out = io.StringIO()
    console = Console(file=out, width=140, force_terminal=False)
    assert sh_cli.TerminalGame(match, bots, lang, None, console, read).run() == 0
    return out.getvalue()


def english_in(text: str) -> list[str]:
    # what to type, in brackets after its name, is the notation
    text = re.sub(r"\([a-z_0-9 ]+\)", "", text)
    found = []
    for word in ENGLISH:
        end = r"(?!\w)" if word[-1].isalnum() else ""
        if re.search(rf"(?<!\w){re.escape(word)}{end}", text):
            found.append(word)
    return found


@pytest.mark.parametrize(("lang", "rules"), [("de", "house"), ("de", "ddv"), ("ru", "house")])
def test_a_doppelkopf_session_speaks_one_language(tmp_path: Path, lang: str, rules: str) -> None:
    text = doppelkopf_session(tmp_path, lang, rules, deals=3)
    assert not english_in(text), f"English in the {lang} terminal: {english_in(text)}\n{text}"
    if lang == "de":
        assert ("Punkteblock" in text and "Wert:" in text) or "je" in text
        assert "Nicht erlaubt:" in text and "hast du nicht auf der Hand" in text
        # the cards typed in German letters were read (never "not understood")
        assert "verstehe ich nicht" not in text


def test_the_english_session_has_the_words_the_check_looks_for(tmp_path: Path) -> None:
    # the word list is not empty talk: the English terminal is full of them
    text = doppelkopf_session(tmp_path, "en", "house", deals=2)
    assert len(english_in(text)) >= 8


def test_the_german_terminal_lists_the_words_to_type(tmp_path: Path) -> None:
    text = doppelkopf_session(tmp_path, "de", "house", deals=1)
    possible = [line for line in text.splitlines() if line.startswith("Möglich:")]
    assert possible, text
    assert not any(re.search(r"\b(solo trump|pass|queens|no90)\b", line) for line in possible)
    assert any(re.search(r"\b(keine90|kontra|re)\b", line) for line in possible)


def test_the_russian_terminal_takes_and_offers_russian_words(tmp_path: Path) -> None:
    """Declarations and announcements typed in Russian (пас, ре …) are played, and the
    list of what may be typed names them in Russian, not in the notation."""
    text = doppelkopf_session(tmp_path, "ru", "house", deals=2, own_words=True)
    assert "не понимаю" not in text, text
    # What the table said for the person (the rounds their one answer covers) is shown.
    auto = translate("ru", "dk.text.declares", who="Ich", what=call_text(Call("pass"), "ru"))
    assert f"{auto} ({translate('ru', 'log.by.auto')})" in text, text
    said = translate("ru", "dk.text.announces").split("{who}")[1].split("{what}")[0]
    assert re.search(rf"Ich{re.escape(said)}(Ре|Контра)$", text, re.MULTILINE), text
    legal = translate("ru", "term.dk.legal")
    possible = [line for line in text.splitlines() if line.startswith(legal)]
    assert possible, text
    assert not any(re.search(r"\b(solo|pass|queens|no90|re|kontra)\b", line) for line in possible)
    assert any(re.search(r"(?<!\w)(без90|контра|ре)(?!\w)", line) for line in possible)


def test_a_slobberhannes_session_speaks_one_language(tmp_path: Path) -> None:
    for lang in ("de", "ru"):
        text = slobberhannes_session(tmp_path, lang)
        assert not english_in(text), f"English in the {lang} terminal: {english_in(text)}"
