"""Doppelkopf deals and sessions as readable text, in three languages.

The Doppelkopf words (game types, declarations, announcements, extra points)
live in this module's own catalog; :func:`dk` looks them up like
:func:`kartentisch.i18n.t`.

>>> dk("de", "game_queens"), dk("en", "word_no90"), dk("ru", "word_kontra")
('Damensolo', 'no 90', 'Контра')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from kartentisch.cards import format_cards
from kartentisch.errors import IllegalActionError
from kartentisch.games.doppelkopf.actions import Call
from kartentisch.games.doppelkopf.deal import DoppelkopfDeal, sort_hand
from kartentisch.games.doppelkopf.match import DoppelkopfMatch, Misdeal
from kartentisch.i18n import describe_refusal, lookup, t

__all__ = ["call_text", "dk", "game_name", "refusal_text", "render", "seat_label"]

#: Refusals by rule code, for the languages the engine's English message is not in.
_REFUSALS: Final[dict[str, dict[str, str]]] = {
    "wrong_party": {
        "de": "das ist die Ansage der anderen Partei",
        "ru": "это объявление другой партии",
    },
    "already_announced": {
        "de": "das hat deine Partei schon angesagt (jede Ansage nur einmal)",
        "ru": "ваша партия это уже объявила (каждое объявление один раз)",
    },
    "announce_with_all_cards": {
        "de": "ansagen darf nur, wer noch alle eigenen Karten hat",
        "ru": "объявлять можно, только пока на руке все свои карты",
    },
    "announcement_deadline": {
        "de": "zu spät für diese Ansage (zu wenige Karten auf der Hand)",
        "ru": "слишком поздно для этого объявления (мало карт на руке)",
    },
    "announce_in_play": {
        "de": "angesagt wird erst nach den Vorbehalten",
        "ru": "объявления — только после заявок",
    },
    "solo_outranked": {
        "de": "ein höheres Solo ist schon angesagt",
        "ru": "уже заявлено более старшее соло",
    },
    "solo_implicit_re": {
        "de": "im Solo ist das Re schon enthalten; der Solist sagt nichts an",
        "ru": "в соло Re подразумевается; солист ничего не объявляет",
    },
    "solo_only_kontra": {
        "de": "gegen ein Solo gibt es nur Kontra",
        "ru": "против соло можно объявить только Kontra",
    },
    "hochzeit_unclarified": {
        "de": "die Hochzeit ist noch nicht geklärt",
        "ru": "партнёр по свадьбе ещё не найден",
    },
    "armut_no_announcements": {
        "de": "nach einer Armut sagen die beiden nichts an",
        "ru": "после Armut эти двое ничего не объявляют",
    },
    "declarations_first": {
        "de": "erst werden die Vorbehalte geklärt",
        "ru": "сначала заявки",
    },
    "play_a_card": {"de": "jetzt wird eine Karte gespielt", "ru": "сейчас нужно сыграть карту"},
    "armut_all_trumps": {
        "de": "die drei Karten müssen alle Trümpfe enthalten",
        "ru": "среди трёх карт должны быть все козыри",
    },
    "armut_three_cards": {"de": "genau drei Karten", "ru": "ровно три карты"},
    "armut_return_plain": {
        "de": "Trumpf nur zurück, wenn nicht genug Fehl da ist",
        "ru": "козыри возвращаются, только если не хватает некозырных",
    },
    "armut_too_many_trumps": {
        "de": "für eine Armut hast du zu viele Trümpfe",
        "ru": "для Armut у вас слишком много козырей",
    },
    "hochzeit_needs_both": {
        "de": "eine Hochzeit braucht beide Kreuz-Damen",
        "ru": "для свадьбы нужны обе дамы треф",
    },
    "scharfe_needs_pair": {
        "de": "Scharfe braucht beide Herz-Asse oder beide Herz-Könige",
        "ru": "нужны оба туза или оба короля червей",
    },
    "kings_redeal": {
        "de": "einmischen nur mit fünf Königen",
        "ru": "пересдача только с пятью королями",
    },
    "name_reservation": {
        "de": "nenne deinen Vorbehalt (Solo oder Hochzeit)",
        "ru": "назовите оговорку (соло или свадьба)",
    },
    "not_offered": {
        "de": "das kann diese Hand jetzt nicht ansagen",
        "ru": "эта рука сейчас не может это заявить",
    },
    "answered": {
        "de": "du hast für dieses Spiel schon geantwortet",
        "ru": "вы уже ответили в этой сдаче",
    },
    "nothing_to_take_back": {
        "de": "zurücknehmen nur den eigenen Fehler, bevor die nächste Karte liegt",
        "ru": "взять назад можно только свою ошибку до следующей карты",
    },
}

_CATALOG: Final[dict[str, dict[str, str]]] = {
    "game_normal": {"en": "normal game", "de": "Normalspiel", "ru": "обычная игра"},
    "game_hochzeit": {"en": "Hochzeit (marriage)", "de": "Hochzeit", "ru": "свадьба (Hochzeit)"},
    "game_armut": {"en": "Armut (poverty)", "de": "Armut", "ru": "бедность (Armut)"},
    "game_trump": {"en": "trump solo", "de": "Trumpfsolo", "ru": "козырное соло"},
    "game_queens": {"en": "queens solo", "de": "Damensolo", "ru": "соло дам"},
    "game_jacks": {"en": "jacks solo", "de": "Bubensolo", "ru": "соло валетов"},
    "game_clubs": {"en": "clubs solo", "de": "Kreuzsolo", "ru": "соло треф"},
    "game_spades": {"en": "spades solo", "de": "Pik-/Grünsolo", "ru": "соло пик"},
    "game_hearts": {"en": "hearts solo", "de": "Herzsolo", "ru": "соло червей"},
    "game_diamonds": {"en": "diamonds solo", "de": "Karo-/Schellsolo", "ru": "соло бубен"},
    "game_no_trump": {
        "en": "solo without trumps",
        "de": "Solo ohne Trumpf",
        "ru": "соло без козырей",
    },
    "game_null": {"en": "null solo", "de": "Nullsolo", "ru": "нулевое соло"},
    "game_fleischlos": {"en": "meatless solo", "de": "Fleischloser", "ru": "соло «без мяса»"},
    "game_undecided": {"en": "(declarations)", "de": "(Ansagen)", "ru": "(заявки)"},
    "word_re": {"en": "Re", "de": "Re", "ru": "Ре"},
    "word_kontra": {"en": "Kontra", "de": "Kontra", "ru": "Контра"},
    "word_no90": {"en": "no 90", "de": "keine 90", "ru": "без 90"},
    "word_no60": {"en": "no 60", "de": "keine 60", "ru": "без 60"},
    "word_no30": {"en": "no 30", "de": "keine 30", "ru": "без 30"},
    "word_schwarz": {"en": "schwarz", "de": "schwarz", "ru": "шварц (ни взятки)"},
    "all_pass": {"en": "everyone is healthy", "de": "alle gesund", "ru": "все «здоровы»"},
    "word_pass": {"en": "pass (healthy)", "de": "gesund", "ru": "пас"},
    "word_vorbehalt": {"en": "reservation", "de": "Vorbehalt", "ru": "оговорка"},
    "word_armut": {"en": "Armut", "de": "Armut", "ru": "бедность"},
    "word_redeal": {"en": "redeal", "de": "einmischen", "ru": "пересдача"},
    "word_accept": {"en": "accepts", "de": "nimmt an", "ru": "принимает"},
    "word_refuse": {"en": "refuses", "de": "lehnt ab", "ru": "отказывается"},
    "word_take_back": {"en": "takes back", "de": "nimmt zurück", "ru": "берёт назад"},
    "ouvert": {"en": "ouvert", "de": "ouvert", "ru": "открытое"},
    "scharfe_aces": {
        "en": "scharfe hearts aces",
        "de": "scharfe Herz-Asse",
        "ru": "острые тузы червей",
    },
    "scharfe_kings": {
        "en": "scharfe hearts kings",
        "de": "scharfe Herz-Könige",
        "ru": "острые короли червей",
    },
    "hochzeit_first_trick": {
        "en": "first trick won by another",
        "de": "erster fremder Stich",
        "ru": "первая чужая взятка",
    },
    "hochzeit_first_trump": {
        "en": "first trump trick won by another",
        "de": "erster fremder Trumpfstich",
        "ru": "первая чужая козырная взятка",
    },
    "hochzeit_first_nontrump": {
        "en": "first non-trump trick won by another",
        "de": "erster fremder Fehlstich",
        "ru": "первая чужая некозырная взятка",
    },
    "declares": {"en": "{who}: {what}", "de": "{who}: {what}", "ru": "{who}: {what}"},
    "armut_offer_up": {
        "en": "{who}: {n} trumps up (asks {partner})",
        "de": "{who}: {n} Trumpf nach oben (fragt {partner})",
        "ru": "{who}: {n} козыря наверх (спрашивает {partner})",
    },
    "armut_offer_down": {
        "en": "{who}: {n} trumps down (asks {partner})",
        "de": "{who}: {n} Trumpf nach unten (fragt {partner})",
        "ru": "{who}: {n} козыря вниз (спрашивает {partner})",
    },
    "armut_returned": {
        "en": "{who} returns three cards: {n} trumps back",
        "de": "{who} gibt drei Karten zurück: {n} Trumpf zurück",
        "ru": "{who} возвращает три карты: {n} козыря обратно",
    },
    "armut_given": {
        "en": "{who} gives three cards with {n} trumps",
        "de": "{who} gibt drei Karten mit {n} Trumpf",
        "ru": "{who} отдаёт три карты, из них козырей: {n}",
    },
    "announces": {
        "en": "{who} announces {what}",
        "de": "{who} sagt {what} an",
        "ru": "{who} объявляет: {what}",
    },
    "game_is": {"en": "Game: {game}", "de": "Spiel: {game}", "ru": "Игра: {game}"},
    "soloist": {"en": "soloist {who}", "de": "Solist {who}", "ru": "солист {who}"},
    "leads": {"en": "{who} leads", "de": "{who} spielt aus", "ru": "ходит {who}"},
    "partner_found": {
        "en": "Hochzeit: {who} is {holder}'s partner (trick {trick})",
        "de": "Hochzeit: {who} spielt mit {holder} (Stich {trick})",
        "ru": "Свадьба: {who} — партнёр {holder} (взятка {trick})",
    },
    "hochzeit_alone": {
        "en": "Hochzeit: no partner within {trick} tricks, {holder} plays alone",
        "de": "Hochzeit: kein Partner in {trick} Stichen, {holder} spielt allein",
        "ru": "Свадьба: партнёра нет за {trick} взятки, {holder} играет один",
    },
    "redeal_kings": {
        "en": "{who} has five kings: the cards are dealt again",
        "de": "{who} hat fünf Könige: es wird eingemischt",
        "ru": "у {who} пять королей: пересдача",
    },
    "redeal_armut_refused": {
        "en": "The Armut is refused: the cards are dealt again",
        "de": "Die Armut wird abgelehnt: es wird eingemischt",
        "ru": "Бедность отклонена: пересдача",
    },
    "redeal_misdeal": {
        "en": "A wrong deal: the cards are dealt again",
        "de": "Vergeben: es wird eingemischt",
        "ru": "Неверная сдача: пересдача",
    },
    "augen": {
        "en": "Augen: Re {re}, Kontra {kontra}",
        "de": "Augen: Re {re}, Kontra {kontra}",
        "ru": "Очки: Ре {re}, Контра {kontra}",
    },
    "winner": {"en": "{party} wins", "de": "{party} gewinnt", "ru": "выигрывает {party}"},
    "parties": {
        "en": "Re: {re} — Kontra: {kontra}",
        "de": "Re: {re} — Kontra: {kontra}",
        "ru": "Ре: {re} — Контра: {kontra}",
    },
    "sits_out": {
        "en": "{who} deals and sits out",
        "de": "{who} gibt und setzt aus",
        "ru": "{who} сдаёт и не играет",
    },
    "bock": {"en": "Bock ×{m}", "de": "Bock ×{m}", "ru": "Бок ×{m}"},
    "bock_queue": {
        "en": "Böcke pending: {queue}",
        "de": "Offene Böcke: {queue}",
        "ru": "Ожидающие боки: {queue}",
    },
    "no_bock": {"en": "no Bock", "de": "kein Bock", "ru": "боков нет"},
    "score_sheet": {"en": "Score sheet", "de": "Spielliste", "ru": "Запись"},
    "miese": {
        "en": "{who}: 100 minus (three failed deals)",
        "de": "{who}: 100 Miese (dreimal vergeben)",
        "ru": "{who}: минус 100 (три неудачные сдачи)",
    },
    "points": {"en": "Points", "de": "Punkte", "ru": "Очки"},
    "total": {"en": "Total", "de": "Summe", "ru": "Итого"},
    "game_n": {"en": "Game", "de": "Spiel", "ru": "Игра"},
    "offenders": {
        "en": "offended (table mode): {who}",
        "de": "Regelverstoß (Tischmodus): {who}",
        "ru": "нарушение (режим стола): {who}",
    },
    "took_back": {
        "en": "{who} takes back {card}",
        "de": "{who} nimmt {card} zurück",
        "ru": "{who} берёт назад {card}",
    },
    "party_re": {"en": "Re", "de": "Re", "ru": "Ре"},
    "party_kontra": {"en": "Kontra", "de": "Kontra", "ru": "Контра"},
    # --- dokoflow: the one declaration question of the terminal ---
    "q_ask": {
        "en": "Healthy or reservation? (g = healthy, v = reservation, h = help): ",
        "de": "Gesund oder Vorbehalt? (g = gesund, v = Vorbehalt, h = Hilfe): ",
        "ru": "Пас или оговорка? (g — пас, v — оговорка, h — помощь): ",
    },
    "q_which": {
        "en": "Your reservation (its number; Scharfe with one more: 1+4; b = back): ",
        "de": "Dein Vorbehalt (seine Nummer; Scharfe mit einem weiteren: 1+4; z = zurück): ",
        "ru": "Ваша оговорка (номер; острые вместе с ещё одной: 1+4; b — назад): ",
    },
    "q_name": {
        "en": "You said reservation: name it (its number): ",
        "de": "Du hast Vorbehalt gesagt: nenne ihn (seine Nummer): ",
        "ru": "Вы заявили оговорку: назовите её (номер): ",
    },
    "q_none": {"en": "none of these", "de": "nichts davon", "ru": "ничего из этого"},
    "q_bad_number": {
        "en": "Type a number from the list.",
        "de": "Gib eine Nummer aus der Liste ein.",
        "ru": "Введите номер из списка.",
    },
    "q_help": {
        "en": "One answer for the whole deal: g (healthy), or v and the number of your "
        "reservation; the table declares your rounds for you. You may also type the "
        "answer: gesund, vorbehalt solo queens, vorbehalt scharfe aces + hochzeit.",
        "de": "Eine Antwort für das ganze Spiel: g (gesund), oder v und die Nummer deines "
        "Vorbehalts; der Tisch sagt deine Runden für dich an. Du kannst die Antwort auch "
        "schreiben: gesund, vorbehalt solo damen, vorbehalt scharfe asse + hochzeit.",
        "ru": "Один ответ на всю сдачу: g (пас) или v и номер вашей оговорки; стол "
        "заявляет за вас во всех кругах. Можно и написать ответ: gesund, vorbehalt solo "
        "queens, vorbehalt scharfe aces + hochzeit.",
    },
}


def dk(lang: str, key: str, **fields: Any) -> str:
    """The Doppelkopf message ``key`` in ``lang`` (English if missing)."""
    return lookup(_CATALOG, lang, key, fields)


def refusal_text(error: IllegalActionError, lang: str) -> str:
    """A refused Doppelkopf action explained in ``lang`` (the engine's message in English)."""
    entry = _REFUSALS.get(error.rule)
    if entry is not None and lang in entry:
        return entry[lang]
    return describe_refusal(error, lang)


def seat_label(seat: int, names: Sequence[str] | None) -> str:
    return names[seat] if names is not None else f"#{seat}"


def game_name(game_type: str, lang: str, *, ouvert: bool = False) -> str:
    name = dk(lang, f"game_{game_type}")
    return f"{name} {dk(lang, 'ouvert')}" if ouvert else name


def call_text(call: Call | str, lang: str) -> str:
    """A declaration or announcement in words: ``solo queens ouvert`` → ``Damensolo ouvert``."""
    if isinstance(call, str):
        from kartentisch.games.doppelkopf.actions import parse_action

        parsed = parse_action(call)
        if not isinstance(parsed, Call):
            return str(parsed)
        call = parsed
    word = call.word
    if word == "solo":
        return game_name(call.detail, lang, ouvert=call.ouvert)
    if word == "hochzeit":
        rule = call.detail or "first_trick"
        return f"{dk(lang, 'game_hochzeit')} ({dk(lang, 'hochzeit_' + rule)})"
    if word == "scharfe":
        return ", ".join(dk(lang, f"scharfe_{p}") for p in call.detail.split())
    if word in ("give", "return"):
        return f"{word} {format_cards(call.cards, symbols=True)}"
    return dk(lang, f"word_{word}")


def render_deal(deal: DoppelkopfDeal, number: int, lang: str) -> list[str]:
    names = deal.seat_names

    def label(seat: int) -> str:
        return seat_label(seat, names)

    lines = [
        t(
            lang,
            "deal_header",
            number=number,
            dealer=label(deal.dealer),
            leader=label(deal.ask_order[0]),
        )
    ]
    if deal.bock_multiplier > 1:
        lines.append("  " + dk(lang, "bock", m=deal.bock_multiplier))
    for seat, hand in enumerate(deal.initial_hands):
        if seat not in deal.playing:
            lines.append("  " + dk(lang, "sits_out", who=label(seat)))
            continue
        shown = sort_hand(hand)
        lines.append(f"  {label(seat):>12}: {format_cards(shown, symbols=True)}")
    spoken = [(seat, call) for seat, call in deal.declarations if call.word != "pass"]
    for seat, call in spoken:
        lines.append("  " + dk(lang, "declares", who=label(seat), what=call_text(call, lang)))
    if deal.declarations and not spoken:
        lines.append("  " + dk(lang, "all_pass"))
    if deal.armut_partner is not None and deal.armut_by is not None:
        key = "armut_offer_up" if deal.armut_direction == "up" else "armut_offer_down"
        lines.append(
            "  "
            + dk(
                lang,
                key,
                who=label(deal.armut_by),
                n=deal.armut_trumps,
                partner=label(deal.armut_partner),
            )
        )
    if deal.outcome == "redeal":
        lines.append(
            "  " + dk(lang, f"redeal_{deal.redeal_reason}", who=label(deal.declarations[-1][0]))
        )
        return lines
    if deal.phase in ("play", "done"):
        facts_type = deal.game_type
        lines.append(
            "  "
            + dk(lang, "game_is", game=game_name(facts_type, lang, ouvert=deal.ouvert))
            + (
                f", {dk(lang, 'soloist', who=label(deal.soloist))}"
                if deal.soloist is not None
                else ""
            )
        )
    for a in deal.announcements:
        lines.append(
            "  " + dk(lang, "announces", who=label(a.seat), what=dk(lang, f"word_{a.word}"))
        )
    for i, trick in enumerate(deal.tricks, start=1):
        plays = ", ".join(
            f"{label(s)} {c.symbol}" for s, c in zip(trick.seats, trick.cards, strict=True)
        )
        assert trick.winner is not None
        lines.append(f"  {t(lang, 'trick_n', number=i)}: {plays} → {label(trick.winner)}")
        if deal.hochzeit_trick == i and deal.hochzeit_by is not None:
            if deal.hochzeit_partner is not None:
                lines.append(
                    "      "
                    + dk(
                        lang,
                        "partner_found",
                        who=label(deal.hochzeit_partner),
                        holder=label(deal.hochzeit_by),
                        trick=i,
                    )
                )
            else:
                lines.append(
                    "      " + dk(lang, "hochzeit_alone", holder=label(deal.hochzeit_by), trick=i)
                )
    score = deal.score
    if score is not None:
        re = deal.re_party or frozenset()
        lines.append(
            "  "
            + dk(
                lang,
                "parties",
                re=", ".join(label(s) for s in sorted(re)),
                kontra=", ".join(label(s) for s in deal.playing if s not in re),
            )
        )
        lines.append("  " + dk(lang, "augen", re=score.augen["re"], kontra=score.augen["kontra"]))
        lines.append("  " + dk(lang, "winner", party=dk(lang, f"party_{score.winner}")))
        if deal.offenders:
            lines.append(
                "  "
                + dk(lang, "offenders", who=", ".join(label(s) for s in sorted(deal.offenders)))
            )
        for line in score.lines:
            lines.append(f"    {line}")
        pts = ", ".join(f"{label(s)} {p}" for s, p in enumerate(deal.points()))
        lines.append(f"  {dk(lang, 'points')}: {pts}")
    return lines


def render(replayed: DoppelkopfDeal | DoppelkopfMatch, lang: str = "en") -> list[str]:
    """Every declaration, announcement and trick, the score (and a session's sheet)."""
    if isinstance(replayed, DoppelkopfDeal):
        return render_deal(replayed, 1, lang)
    lines: list[str] = []
    names = replayed.seat_names
    for number, entry in enumerate(replayed.history, start=1):
        if isinstance(entry, Misdeal):
            lines.append(
                t(lang, "deal_header", number=number, dealer=names[entry.dealer], leader="—")
            )
            lines.append("  " + dk(lang, "redeal_misdeal"))
        else:
            lines.extend(render_deal(entry, number, lang))
        lines.append("")
    lines.extend(sheet_lines(replayed, lang))
    return lines


def sheet_lines(match: DoppelkopfMatch, lang: str) -> list[str]:
    """The score sheet as a text table: one row per game, running totals."""
    names = match.seat_names
    sheet = match.sheet
    width = max(8, *(len(n) for n in names))
    head = f"{dk(lang, 'game_n'):>5} " + " ".join(f"{n:>{width}}" for n in names) + "  Bock"
    out = [dk(lang, "score_sheet"), head]
    for row in sheet.rows:
        cells = " ".join(f"{p:>{width}}" for p in row.totals)
        mark = "M" if row.kind == "miese" else ""
        out.append(f"{row.number:>4}{mark:1} {cells}  ×{row.multiplier}")
    pending = sheet.pending_bocks
    out.append(
        dk(lang, "bock_queue", queue=", ".join(str(b) for b in pending))
        if pending
        else dk(lang, "no_bock")
    )
    return out
