// The Doppelkopf table: seats around the felt with their parties and
// announcements, the trick in the middle, your hand below (trumps first), the
// declaration round, the Armut exchange and the announcement buttons above it;
// beside it the score sheet with the Böcke, the last trick and the games so far.

import { tableAnalysis } from "../analysis.js";
import { backSVG, cardLabel, cardSVG } from "../cards.js";
import { h, styleSheet } from "../dom.js";
import { explainDeal } from "../explain.js";
import { bubbles, feltTrick, placeBubbles, seatPlace, shownTrick, timerNotice, whyLine } from "../felt.js";
import { t } from "../i18n.js";
import { gateButtons, gateSummary, held } from "../presence.js";

const CARD = /^(10|[2-9JQKA])[CSHD]$/;
// On a phone the felt is narrow: the seats at the sides come in so that none leaves the screen.
const NARROW = window.matchMedia("(max-width: 820px)");
const ANNOUNCEMENTS = ["re", "kontra", "no90", "no60", "no30", "schwarz"];
// The explanation's lines the summary shows in its parties table instead.
const SHOWN_ABOVE = ["explain.parties", "explain.solo_game", "explain.augen"];

/** The game's own style sheet, added to the page once; a promise that it is loaded
 * (the table draws the game only then, so it is never laid out without it). */
export function ready() {
  return styleSheet("/static/games/doppelkopf.css");
}

function loadStyle() {
  ready();
}

// -- words ----------------------------------------------------------------------

function nameOf(view, table, seat) {
  const name = view.names[seat] || table.seats[seat]?.name || `#${seat + 1}`;
  return seat === view.seat ? `${name} (${t("ui.you")})` : name;
}

function shortName(view, seat) {
  return view.names[seat] || `#${seat + 1}`;
}

export function gameName(type, ouvert = false) {
  const name = t(`dk.game.${type}`);
  return ouvert ? t("dk.ouvert_game", { game: name }) : name;
}

function partyName(party) {
  return t(`dk.party.${party}`);
}

function wordName(word) {
  return t(`dk.word.${word}`);
}

/** An action as the page names it (a hint's suggestion): a card, a call, or an answer to
 * the declaration question ("gesund", "vorbehalt scharfe aces + solo queens"). */
export function actionText(action) {
  if (CARD.test(action)) return cardLabel(action);
  if (action === "gesund" || action.startsWith("vorbehalt ")) return answerWords(action);
  return callText(action);
}

/** An answer to the declaration question in words: Gesund, or what the reservation is. */
function answerWords(answer) {
  return answer === "gesund" ? t("dk.call.pass")
    : answer.replace(/^vorbehalt /, "").split(" + ").map(callText).join(", ");
}

/** A declaration or another spoken action in words: "solo queens ouvert" → "Queens solo, ouvert". */
export function callText(call) {
  const [word, ...rest] = String(call).split(" ");
  if (word === "solo") return gameName(rest[0], rest.includes("ouvert"));
  if (word === "hochzeit") return t("dk.call.hochzeit_rule", { rule: t(`dk.hochzeit.${rest[0] || "first_trick"}`) });
  if (word === "scharfe") return rest.length ? rest.map((p) => t(`dk.scharfe.${p}`)).join(", ") : t("dk.call.scharfe");
  if (word === "give" || word === "return") return t(`dk.call.${word}`, { cards: rest.map(cardLabel).join(" ") });
  if (ANNOUNCEMENTS.includes(word)) return wordName(word);
  return t(`dk.call.${word}`);
}

// -- the table ------------------------------------------------------------------

function cardBox(code, extra = {}) {
  return h("div.card-box", { html: cardSVG(code, cardLabel(code)), ...extra });
}

/** The trick on the felt: the one being played, or the completed one until the next lead. */
function theTrick(view) {
  const current = { ...view.trick, id: `${view.deal_number}:${view.tricks.length + 1}` };
  let completed = null;
  if (view.tricks.length) {
    completed = { ...view.tricks[view.tricks.length - 1], id: `${view.deal_number}:${view.tricks.length}` };
  } else {
    // The last trick of the game before stays until this one's first card.
    const prev = [...view.deals].reverse().find((d) => d.outcome === "played" && d.number === view.deal_number - 1);
    if (prev?.tricks.length) completed = { ...prev.tricks[prev.tricks.length - 1], id: `${prev.number}:${prev.tricks.length}` };
  }
  return shownTrick(current, completed);
}

/** What the seats said this deal, for the speech bubbles: declarations, then announcements. */
function saidItems(view) {
  const items = view.declarations.map((d, i) => ({
    key: `${view.deal_number}:d${i}`, seat: d.seat, text: d.call.startsWith("hochzeit") ? t("dk.call.hochzeit") : callText(d.call), kind: d.call === "pass" ? "plain" : "declared",
  }));
  view.announcements.forEach((a, i) => items.push({
    key: `${view.deal_number}:a${i}:${a.word}`, seat: a.seat, text: `${wordName(a.word)}!`, kind: `dk-${a.party}`,
  }));
  return items;
}

function spoken(view, seat) {
  // What a seat said before the first card, when it said more than "gesund" (short: the felt is small).
  return view.declarations.filter((d) => d.seat === seat && d.call !== "pass")
    .map((d) => (d.call.startsWith("hochzeit") ? t("dk.call.hochzeit") : callText(d.call)));
}

function seatBox(view, table, seat) {
  const info = table.seats[seat];
  const p = seatPlace(view, seat, NARROW.matches ? 35 : 40, 40);
  const out = !view.playing.includes(seat);
  const classes = ["seat"];
  if (view.to_move === seat) classes.push("to-move");
  if (seat === view.seat) classes.push("me");
  if (out) classes.push("sits-out");
  const badges = [];
  if (view.dealer === seat) badges.push(h("span.badge", { title: t("ui.dealer") }, t("ui.dealer_short")));
  if (info.kind === "bot") badges.push(h("span.badge.bot", { title: t(`level.${info.level}`) }, t("ui.bot")));
  else if (info.bot_playing) badges.push(h("span.badge.away", { title: t("ui.bot_playing") }, t("presence.standin")));
  else if (info.kind === "human" && !info.connected) badges.push(h("span.badge.away", {}, t("ui.offline")));
  const party = view.parties[seat] ?? (seat === view.seat ? view.party : null);
  const chips = [];
  const words = view.announcements.filter((x) => x.seat === seat);
  // Re or Kontra said aloud shows on the party chip ("Re!"); the stages follow it.
  const said = words.find((a) => a.word === "re" || a.word === "kontra");
  if (party || said) {
    const shown = said ? said.party : party;
    chips.push(h(`span.dk-chip.dk-${shown}${said ? ".dk-announced" : ""}`, { title: t("dk.party_of", { name: shortName(view, seat), party: partyName(shown) }) },
      said ? `${wordName(said.word)}!` : partyName(shown)));
  }
  if (view.soloist === seat) chips.push(h("span.dk-chip.dk-solo", {}, t("dk.soloist")));
  for (const text of spoken(view, seat)) chips.push(h("span.dk-chip.dk-said", {}, text));
  for (const a of words.filter((x) => x !== said)) chips.push(h(`span.dk-chip.dk-${a.party}.dk-announced`, {}, `${wordName(a.word)}!`));
  const backs = seat === view.seat || out || !view.hand_sizes[seat]
    ? null
    : h("div.backs", {}, Array.from({ length: view.hand_sizes[seat] }, () => h("span.back", { html: backSVG() })));
  const won = view.tricks_won[seat];
  return h(`div.${classes.join(".")}`, { style: { left: `${p.x}%`, top: `${p.y}%` }, "data-seat": seat },
    h("div.seat-name", {}, nameOf(view, table, seat), " ", badges),
    out ? h("div.seat-score", {}, t("dk.sits_out")) : backs,
    chips.length ? h("div.dk-chips", {}, chips) : null,
    h("div.seat-score", { title: t("dk.seat_score", { tricks: won, total: view.sheet.totals[seat] }) },
      out ? t("explain.seat_total", { total: view.sheet.totals[seat] }) : t("explain.seat_tricks", { tricks: won, total: view.sheet.totals[seat] })));
}

function gameLine(view, table) {
  const parts = [];
  if (view.phase === "declare") {
    parts.push(t("dk.phase.declare"));
  } else if (view.phase.startsWith("armut")) {
    parts.push(gameName("armut"));
  } else if (!(view.hochzeit && view.game_type === "hochzeit")) {
    let line = gameName(view.game_type, view.ouvert);
    if (view.soloist !== null) line += ` — ${t("dk.soloist_is", { name: nameOf(view, table, view.soloist) })}`;
    parts.push(line);
  }
  if (view.hochzeit) {
    const hz = view.hochzeit;
    let line = t("dk.hochzeit_by", { name: nameOf(view, table, hz.seat), rule: t(`dk.hochzeit.${hz.rule}`) });
    if (hz.partner !== null) line += ` — ${t("dk.partner_is", { name: nameOf(view, table, hz.partner) })}`;
    parts.push(line);
  }
  if (view.armut) {
    const a = view.armut;
    const key = `dk.armut_${a.direction}`;
    parts.push(t(key, { name: nameOf(view, table, a.seat), n: a.trumps, partner: a.partner === null ? "—" : nameOf(view, table, a.partner) }));
  }
  if (view.scharfe.aces !== null) parts.push(t("dk.scharfe_by", { what: t("dk.scharfe.aces"), name: nameOf(view, table, view.scharfe.aces) }));
  if (view.scharfe.kings !== null) parts.push(t("dk.scharfe_by", { what: t("dk.scharfe.kings"), name: nameOf(view, table, view.scharfe.kings) }));
  if (view.vorfuehrung !== null && view.vorfuehrung !== undefined && view.phase === "declare") parts.push(t("dk.vorfuehrung", { name: nameOf(view, table, view.vorfuehrung) }));
  if (table?.rules_name) parts.push(t("lobby.rules_named", { name: table.rules_name }));
  for (const pig of view.pigs || []) parts.push(t("dk.scharfe_by", { what: t(`dk.pig.${pig.kind}`), name: nameOf(view, table, pig.seat) }));
  const bock = view.bock.multiplier > 1 ? h("span.dk-bock", { title: t("dk.bock_title") }, t("dk.bock_x", { m: view.bock.multiplier })) : null;
  const where = t("dk.game_trick", { game: view.game_number, games: view.games, trick: Math.min(view.trick_number, view.tricks_per_deal), total: view.tricks_per_deal });
  return h("div.dk-info", {}, parts.map((p) => h("span", {}, p)), bock, h("span.dk-where", {}, where));
}

function redealNotice(view, table) {
  const last = view.deals[view.deals.length - 1];
  if (!last || last.outcome !== "redeal" || last.number !== view.deal_number - 1 || view.version === 0) return null;
  if (view.declarations.length > 0) return null;
  const who = last.redeal?.seat;
  return h("p.dk-notice", {}, t(`dk.redeal.${last.redeal?.reason || "kings"}`, { name: who === null || who === undefined ? "" : nameOf(view, table, who) }));
}

function statusLine(view, table) {
  if (view.over) return t("dk.session_over");
  if (view.seat !== null && !view.playing.includes(view.seat)) return t("dk.you_sit_out");
  const mine = view.to_move === view.seat && view.seat !== null;
  const who = view.to_move === null ? "" : nameOf(view, table, view.to_move);
  switch (view.phase) {
    case "declare": {
      // One question per seat and deal: "gesund or Vorbehalt" (DDV: then naming it), whatever
      // round the engine is in; while the table answers for you, it says what you answered.
      const round = t(`dk.round.${view.declaration_round === "reservation" ? "reservation" : "vorbehalt"}`);
      if (mine && view.answer && !view.question) return t("dk.q.auto");
      return mine ? t("dk.your_declaration", { round }) : t("dk.waiting_declaration", { name: who, round });
    }
    case "armut_answer":
      return mine ? t("dk.armut_question", { name: nameOf(view, table, view.armut.seat), n: view.armut.trumps }) : t("dk.waiting_armut", { name: who });
    case "armut_give":
      return mine ? t("dk.armut_give_prompt", { k: view.armut.size }) : t("dk.waiting_exchange", { name: who, k: view.armut.size });
    case "armut_return":
      return mine ? t("dk.armut_return_prompt", { k: view.armut.size }) : t("dk.waiting_exchange", { name: who, k: view.armut.size });
    default:
      return mine ? t("ui.your_turn") : view.to_move === null ? "" : t("ui.waiting_for", { name: who });
  }
}

// -- what you may do ------------------------------------------------------------

function calls(view) {
  return view.legal.filter((a) => !CARD.test(a));
}

function declarationBar(view, ctx) {
  const memory = ctx.memory;
  const legal = calls(view);
  if (!legal.length) return null;
  const buttons = [];
  const solos = legal.filter((c) => c.startsWith("solo "));
  const ouvertAllowed = solos.some((c) => c.endsWith(" ouvert"));
  const kinds = [...new Set(solos.map((c) => c.split(" ")[1]))];
  const ordered = [...legal.filter((c) => c === "pass"), ...legal.filter((c) => c !== "pass")];
  for (const call of ordered) {
    if (call.startsWith("solo ")) continue;
    const primary = call === "pass" ? ".primary" : "";
    buttons.push(h(`button.dk-call${primary}`, { onclick: () => ctx.act(call), "data-action": call }, callText(call)));
  }
  let soloRow = null;
  if (kinds.length) {
    const ouvert = Boolean(memory.ouvert) && ouvertAllowed;
    const toggle = ouvertAllowed
      ? h("label.dk-ouvert", {},
        h("input", { type: "checkbox", checked: ouvert, onchange: (e) => { memory.ouvert = e.target.checked; ctx.rerender(); } }),
        " ", t("dk.ouvert"))
      : null;
    soloRow = h("div.dk-solos", {}, h("span.dk-label", {}, t("dk.solo_label")),
      kinds.map((kind) => {
        const call = ouvert && legal.includes(`solo ${kind} ouvert`) ? `solo ${kind} ouvert` : `solo ${kind}`;
        return h("button.dk-call.small", { onclick: () => ctx.act(call), "data-action": call, disabled: !legal.includes(call) }, gameName(kind));
      }), toggle);
  }
  return h("div.dk-actions", { role: "group", "aria-label": t("dk.declarations") },
    h("div.row", {}, buttons), soloRow);
}

// -- the one declaration question: Gesund, or Vorbehalt and which ---------------------

/** An answer as the server reads it: "gesund", or "vorbehalt" with a Scharfe and/or one reservation. */
function answerText(scharfe, reservation) {
  const parts = [scharfe, reservation].filter(Boolean);
  return parts.length ? `vorbehalt ${parts.join(" + ")}` : "gesund";
}

/** Send an answer and remember it: if the table moved on meanwhile (the turn timer answered
 * a round for you) the server refuses it as stale, and it is sent again while it is still asked. */
function sendAnswer(view, ctx, text) {
  ctx.memory.pending = { deal: view.deal_number, version: view.version, text, tries: 0 };
  ctx.act(text);
}

function offeredAnswer(question, text) {
  if (text === "gesund") return question.gesund;
  const parts = text.replace(/^vorbehalt /, "").split(" + ");
  return parts.every((p) => question.scharfe.includes(p) || question.reservations.includes(p));
}

/** The answer refused as stale, sent again on the state the page shows now (once or twice). */
function retryAnswer(view, ctx) {
  const pending = ctx.memory.pending;
  if (!pending) return;
  const q = view.question;
  if (!q || view.deal_number !== pending.deal || !offeredAnswer(q, pending.text) || pending.tries >= 2) {
    if (!q || view.deal_number !== pending.deal) ctx.memory.pending = null;
    return;
  }
  if (view.version <= pending.version) return;
  pending.version = view.version;
  pending.tries += 1;
  ctx.act(pending.text);
}

function questionBar(view, ctx) {
  const q = view.question;
  const memory = ctx.memory;
  if (memory.reserve?.deal !== view.deal_number) memory.reserve = { deal: view.deal_number, open: false, scharfe: null };
  const state = memory.reserve;
  const open = state.open || !q.vorbehalt;
  const label = { role: "group", "aria-label": t("dk.q.title") };
  if (!open) {
    return h("div.dk-actions.dk-question", label,
      h("p.dk-hint", {}, t("dk.q.ask")),
      h("div.row", {},
        q.gesund ? h("button.dk-call.primary", { onclick: () => sendAnswer(view, ctx, "gesund"), "data-action": "gesund" }, t("dk.call.pass")) : null,
        h("button.dk-call", { onclick: () => { state.open = true; ctx.rerender(); }, "data-step": "vorbehalt" }, t("dk.call.vorbehalt"))));
  }
  const scharfe = q.scharfe.includes(state.scharfe) ? state.scharfe : null;
  const send = (reservation) => () => sendAnswer(view, ctx, answerText(scharfe, reservation));
  const rows = [];
  if (q.scharfe.length) {
    rows.push(h("div.dk-solos", {}, h("span.dk-label", {}, t("dk.q.scharfe")),
      q.scharfe.map((call) => h(`button.dk-call.small.dk-toggle${call === scharfe ? ".selected" : ""}`, {
        "aria-pressed": call === scharfe ? "true" : "false",
        "data-scharfe": call,
        onclick: () => { state.scharfe = call === scharfe ? null : call; ctx.rerender(); },
      }, callText(call))),
      scharfe ? h("button.dk-call.small.primary", { onclick: send(null), "data-action": answerText(scharfe, null) }, t("dk.q.only_scharfe")) : null));
  }
  const reservations = q.reservations.filter((c) => !(scharfe && c === "redeal"));
  const others = reservations.filter((c) => !c.startsWith("solo "));
  if (others.length) {
    rows.push(h("div.dk-solos", {}, others.map((call) =>
      h("button.dk-call", { onclick: send(call), "data-action": answerText(scharfe, call) }, callText(call)))));
  }
  const solos = reservations.filter((c) => c.startsWith("solo "));
  if (solos.length) {
    const ouvertAllowed = solos.some((c) => c.endsWith(" ouvert"));
    const ouvert = Boolean(memory.ouvert) && ouvertAllowed;
    const kinds = [...new Set(solos.map((c) => c.split(" ")[1]))];
    const toggle = ouvertAllowed
      ? h("label.dk-ouvert", {},
        h("input", { type: "checkbox", checked: ouvert, onchange: (e) => { memory.ouvert = e.target.checked; ctx.rerender(); } }),
        " ", t("dk.ouvert"))
      : null;
    rows.push(h("div.dk-solos", {}, h("span.dk-label", {}, t("dk.solo_label")),
      kinds.map((kind) => {
        const call = ouvert && solos.includes(`solo ${kind} ouvert`) ? `solo ${kind} ouvert` : `solo ${kind}`;
        return h("button.dk-call.small", { onclick: send(call), "data-action": answerText(scharfe, call), disabled: !solos.includes(call) }, gameName(kind));
      }), toggle));
  }
  const back = q.vorbehalt
    ? h("button.dk-call.small", { onclick: () => { state.open = false; state.scharfe = null; ctx.rerender(); }, "data-step": "back" }, t("dk.q.back"))
    : q.gesund ? h("button.dk-call.small", { onclick: () => sendAnswer(view, ctx, "gesund"), "data-action": "gesund" }, t("dk.q.none")) : null;
  return h("div.dk-actions.dk-question", label,
    h("div.dk-question-head", {}, h("p.dk-hint", {}, t(q.vorbehalt ? "dk.q.which" : "dk.q.name")), back), rows);
}

/** While the table answers the declaration rounds for you: what you answered. */
function answeredNote(view) {
  if (view.phase !== "declare" || !view.answer) return null;
  return h("p.dk-notice.dk-answered", { "data-answer": view.answer }, t("dk.q.answered", { answer: answerWords(view.answer) }));
}

function armutBar(view, ctx) {
  const memory = ctx.memory;
  const legal = calls(view);
  if (!legal.length) return null;
  if (view.phase === "armut_answer") {
    return h("div.dk-actions", {},
      h("div.row", {}, legal.map((call) => h(`button.dk-call${call === "accept" ? ".primary" : ""}`, { onclick: () => ctx.act(call), "data-action": call }, callText(call)))));
  }
  const word = view.phase === "armut_give" ? "give" : "return";
  const size = (view.armut && view.armut.size) || 3;  // three cards, or all the trumps if more
  const chosen = selection(view, memory);
  const cards = chosen.map((i) => view.hand[i]);
  const send = h("button.primary", {
    disabled: cards.length !== size,
    "data-action": cards.length === size ? `${word} ${cards.join(" ")}` : null,
    onclick: () => {
      memory.armut = null;
      ctx.act(`${word} ${cards.join(" ")}`);
    },
  }, t(`dk.${word}_selected`, { n: cards.length, k: size }));
  const hints = legal.filter((c) => c.startsWith(`${word} `)).map((call) =>
    h("button.small", { onclick: () => ctx.act(call), "data-action": call, title: t("dk.suggestion") }, callText(call)));
  return h("div.dk-actions", {},
    h("p.dk-hint", {}, t(word === "give" ? "dk.give_hint" : "dk.return_hint", { k: size })),
    h("div.row", {}, send, hints.length ? h("span.muted", {}, t("dk.or")) : null, hints));
}

function announcementBar(view, ctx) {
  const legal = calls(view).filter((c) => ANNOUNCEMENTS.includes(c) || c === "take_back");
  if (!legal.length) return null;
  return h("div.dk-announce", { role: "group", "aria-label": t("dk.announce") },
    h("span.dk-label", {}, t("dk.announce")),
    legal.map((call) => h(`button.dk-call.dk-word${call === "take_back" ? ".dk-take-back" : ""}`, {
      onclick: () => ctx.act(call), "data-action": call,
      title: call === "take_back" ? t("dk.take_back_title") : t("dk.announce_title", { word: wordName(call) }),
    }, call === "take_back" ? callText(call) : wordName(call))));
}

/** The hand positions chosen for the Armut exchange (kept between states of the same step). */
function selection(view, memory) {
  const key = `${view.deal_number}:${view.phase}`;
  if (!memory.armut || memory.armut.key !== key) memory.armut = { key, chosen: [] };
  memory.armut.chosen = memory.armut.chosen.filter((i) => i < view.hand.length);
  return memory.armut.chosen;
}

function handRow(view, ctx) {
  if (view.seat === null) return h("p.muted.spectator", {}, t("ui.spectating"));
  if (!view.hand.length) return h("p.muted.spectator", {}, view.playing.includes(view.seat) ? "" : t("dk.you_sit_out"));
  const trumps = new Set(view.trumps);
  const legal = new Set(view.legal.filter((a) => CARD.test(a)));
  const myTurn = view.to_move === view.seat;
  const exchanging = myTurn && (view.phase === "armut_give" || view.phase === "armut_return");
  const chosen = exchanging ? selection(view, ctx.memory) : [];
  const cards = [];
  view.hand.forEach((code, i) => {
    const trump = trumps.has(code) ? ".trump" : "";
    if (i > 0 && trumps.has(view.hand[i - 1]) && !trumps.has(code)) cards.push(h("span.dk-gap"));
    if (exchanging) {
      const picked = chosen.includes(i);
      cards.push(h(`button.hand-card.selectable${picked ? ".selected" : ""}${trump}`, {
        html: cardSVG(code, cardLabel(code)),
        "aria-pressed": picked ? "true" : "false",
        title: cardLabel(code),
        onclick: () => {
          const at = chosen.indexOf(i);
          if (at >= 0) chosen.splice(at, 1);
          else if (chosen.length < ((view.armut && view.armut.size) || 3)) chosen.push(i);
          ctx.rerender();
        },
      }));
      return;
    }
    const playable = myTurn && view.phase === "play" && legal.has(code);
    const cls = playable ? ".playable" : myTurn && view.phase === "play" ? ".blocked" : "";
    // A card you may not play is not disabled: a click asks the table, which says why.
    cards.push(h(`button.hand-card${cls}${trump}`, {
      html: cardSVG(code, cardLabel(code)),
      "aria-disabled": playable ? null : "true",
      title: playable ? t("ui.play_card", { card: cardLabel(code) }) : cardLabel(code),
      onclick: () => ctx.act(code),
    }));
  });
  return h("div.hand.dk-hand", { "aria-label": t("ui.your_hand") }, cards);
}

function openHand(view, table) {
  if (!view.open_hand.length || view.soloist === view.seat) return null;
  return h("div.dk-open", {},
    h("span.dk-label", {}, t("dk.open_hand", { name: nameOf(view, table, view.soloist) })),
    h("div.mini-trick", {}, view.open_hand.map((code) => h("figure", {}, cardBox(code)))));
}

function armutCards(view) {
  const a = view.armut;
  if (!a || (!a.cards.length && !a.returned.length)) return null;
  const row = (key, cards) => (cards.length ? h("div.dk-armut-cards", {}, h("span.dk-label", {}, t(key)), cards.map((c) => h("span.dk-card-text", {}, cardLabel(c)))) : null);
  return h("div.dk-armut", {}, row("dk.armut_cards", a.cards), row("dk.armut_returned", a.returned));
}

// -- the side: sheet, Böcke, last trick, games -------------------------------------

function scoreSheet(view, table, ctx) {
  const seats = [...Array(view.players).keys()];
  const head = h("tr", {}, h("th", {}, "#"), seats.map((s) => h("th", { title: nameOf(view, table, s) }, shortName(view, s))), h("th", { title: t("dk.bock_title") }, "×"));
  // Thrown-in deals (five kings, a refused Armut) score nothing but are shown where they happened.
  const redeals = view.deals.filter((d) => d.outcome === "redeal");
  const thrownIn = (d) => h("tr.dk-redeal", { "data-deal": d.number },
    h("td", {}, h("button.link", { onclick: () => { ctx.memory.summary = d.number; ctx.rerender(); } }, "—")),
    h("td.muted", { colspan: view.players + 1 }, t("explain.thrown_in")));
  const before = (number) => {
    const out = [];
    while (redeals.length && redeals[0].number < number) out.push(thrownIn(redeals.shift()));
    return out;
  };
  const rows = view.sheet.rows.flatMap((row) => {
    const open = row.deal === null ? null : () => { ctx.memory.summary = row.deal; ctx.rerender(); };
    const label = row.kind === "miese" ? `${row.number} ${t("dk.miese_short")}` : String(row.number);
    return [...(row.deal === null ? [] : before(row.deal)), h(`tr${row.kind === "miese" ? ".dk-miese" : ""}`, { title: row.kind === "miese" ? t("dk.miese", { name: shortName(view, row.dealer) }) : null },
      h("td", {}, open ? h("button.link", { onclick: open, title: t("dk.show_game", { n: row.number }) }, label) : label),
      row.totals.map((total, i) => h("td", {}, String(total), row.points[i] ? h("small.dk-pts", {}, row.points[i] > 0 ? `+${row.points[i]}` : String(row.points[i])) : null)),
      h("td.muted", {}, row.multiplier > 1 ? `×${row.multiplier}` : ""))];
  });
  rows.push(...before(Infinity));
  const totals = h("tr.totals", {}, h("th", {}, t("ui.totals")), view.sheet.totals.map((p) => h("th", {}, p)), h("th"));
  return h("table.score-sheet.dk-sheet", {}, h("thead", {}, head), h("tbody", {}, rows, totals));
}

function bockBox(view) {
  if (!view.bock.enabled || view.over) return null;
  const schedule = view.bock.schedule;
  const text = schedule.length
    ? t("dk.bock_queue", { n: view.bock.pending.length, games: schedule.map((m) => `×${m}`).join(" ") })
    : t("dk.no_bock");
  return h("p.dk-bocks", { title: t("dk.bock_title") }, text);
}

function lastTrick(view, table) {
  let trick = view.tricks.length ? view.tricks[view.tricks.length - 1] : null;
  if (!trick && !view.trick.cards.length) {
    const prev = [...view.deals].reverse().find((d) => d.outcome === "played");
    trick = prev ? prev.tricks[prev.tricks.length - 1] : null;
  }
  if (!trick) return null;
  return h("div.last-trick", {},
    h("h3", {}, t("ui.last_trick")),
    h("div.mini-trick", {}, trick.cards.map((code, i) =>
      h(`figure${trick.seats[i] === trick.winner ? ".winner" : ""}`, {}, cardBox(code), h("figcaption", {}, shortName(view, trick.seats[i]))))),
    trick.winner !== null ? h("p.muted", {}, t("ui.won_by", { name: nameOf(view, table, trick.winner) })) : null);
}

function gameNumber(view, deal) {
  const row = view.sheet.rows.find((r) => r.deal === deal.number);
  return row ? row.number : null;
}

function summaryBody(view, table, deal) {
  const names = (seats) => seats.map((s) => nameOf(view, table, s)).join(", ");
  const lines = [];
  lines.push(h("p.dk-game-name", {}, gameName(deal.game_type, deal.ouvert),
    deal.soloist !== null ? ` — ${t("dk.soloist_is", { name: nameOf(view, table, deal.soloist) })}` : ""));
  if (deal.hochzeit !== null) {
    lines.push(h("p", {}, t("dk.hochzeit_of", { name: nameOf(view, table, deal.hochzeit) }),
      deal.hochzeit_partner !== null ? ` — ${t("dk.partner_is", { name: nameOf(view, table, deal.hochzeit_partner) })}` : ""));
  }
  if (deal.armut !== null) {
    lines.push(h("p", {}, t("dk.armut_pair", { name: nameOf(view, table, deal.armut), partner: nameOf(view, table, deal.armut_partner) })));
  }
  lines.push(h("table.dk-parties", {},
    h("tr", {}, h("th", {}, partyName("re")), h("td", {}, names(deal.re)), h("td.num", {}, t("dk.augen_n", { n: deal.augen.re }))),
    h("tr", {}, h("th", {}, partyName("kontra")), h("td", {}, names(deal.kontra)), h("td.num", {}, t("dk.augen_n", { n: deal.augen.kontra })))));
  lines.push(h("p.dk-winner", {}, t("dk.party_wins", { party: partyName(deal.winner) })));
  // How the value came about, line by line (kartentisch.explain; see explain.js); the
  // parties and their Augen are in the table above.
  const seatNames = [...Array(view.players).keys()].map((s) => shortName(view, s));
  const explained = (deal.explain || []).filter((line) => !SHOWN_ABOVE.includes(line.key));
  lines.push(h("h3.explain-title", {}, t("explain.title")), explainDeal(explained, seatNames));
  const seats = [...Array(view.players).keys()];
  lines.push(h("table.score-sheet.dk-points", {},
    h("thead", {}, h("tr", {}, seats.map((s) => h("th", {}, shortName(view, s))))),
    h("tbody", {}, h("tr", {}, deal.points.map((p) => h("td", {}, p > 0 ? `+${p}` : String(p)))))));
  return lines;
}

/** A thrown-in deal: why, and that it scores nothing. */
function redealBody(view, deal) {
  const seatNames = [...Array(view.players).keys()].map((s) => shortName(view, s));
  return [explainDeal(deal.explain, seatNames)];
}

function summaryDialog(message, number, ctx) {
  const { view, table } = message;
  const memory = ctx.memory;
  const deal = view.deals.find((d) => d.number === number);
  if (!deal) return null;
  if (deal.outcome !== "played") {
    const close = () => { memory.summary = null; ctx.rerender(); };
    return h("div.modal.dk-summary", { role: "dialog", "aria-modal": "true", "aria-label": t("explain.thrown_in") },
      h("div.modal-body", {},
        h("h2", {}, t("explain.redeal_tab", { n: deal.number })),
        redealBody(view, deal),
        h("div.row", {}, h("button.primary", { onclick: close }, t("ui.continue")))));
  }
  const close = () => { memory.summary = null; ctx.rerender(); };
  // While the next deal waits for this summary: "Close" and "Next deal".
  const buttons = gateButtons(message, ctx, deal.number) ?? [h("button.primary", { onclick: close }, t("ui.continue"))];
  const review = () => { memory.summary = null; memory.review = deal.number; memory.reviewTrick = 0; ctx.rerender(); };
  return h("div.modal.dk-summary", { role: "dialog", "aria-modal": "true", "aria-label": t("dk.game_over", { n: gameNumber(view, deal) }) },
    h("div.modal-body", {},
      h("h2", {}, t("dk.game_over", { n: gameNumber(view, deal) })),
      summaryBody(view, table, deal),
      tableAnalysis(ctx, message, deal.number),
      h("div.row", {},
        h("button", { onclick: review }, t("ui.review")),
        buttons)));
}

function reviewDialog(view, table, ctx) {
  const memory = ctx.memory;
  const deal = view.deals.find((d) => d.number === memory.review && d.outcome === "played");
  if (!deal) return null;
  const index = Math.min(memory.reviewTrick ?? 0, deal.tricks.length - 1);
  const trick = deal.tricks[index];
  const close = () => { memory.review = null; ctx.rerender(); };
  const go = (step) => () => {
    memory.reviewTrick = Math.max(0, Math.min(deal.tricks.length - 1, index + step));
    ctx.rerender();
  };
  return h("div.modal", { role: "dialog", "aria-modal": "true", "aria-label": t("dk.review_game", { n: gameNumber(view, deal) }) },
    h("div.modal-body", {},
      h("h2", {}, t("dk.review_game", { n: gameNumber(view, deal) })),
      h("p", {}, gameName(deal.game_type, deal.ouvert), " — ", t("ui.trick_of", { n: index + 1, total: deal.tricks.length }), " — ",
        t("ui.led_by", { name: nameOf(view, table, trick.leader) })),
      h("div.mini-trick.big", {}, trick.cards.map((code, i) =>
        h(`figure${trick.seats[i] === trick.winner ? ".winner" : ""}`, {}, cardBox(code),
          h("figcaption", {}, shortName(view, trick.seats[i]), deal.re.includes(trick.seats[i]) ? ` (${partyName("re")})` : ` (${partyName("kontra")})`)))),
      h("p", {}, t("ui.won_by", { name: nameOf(view, table, trick.winner) })),
      h("div.row", {},
        h("button", { onclick: go(-1), disabled: index === 0 }, "◀ ", t("ui.previous")),
        h("button", { onclick: go(1), disabled: index === deal.tricks.length - 1 }, t("ui.next"), " ▶"),
        h("button.primary", { onclick: close }, t("ui.close")))));
}

function resultBox(view, table) {
  if (!view.result) return null;
  const names = view.result.winners.map((s) => nameOf(view, table, s)).join(", ");
  return h("div.result", {}, h("h2", {}, t("dk.session_over")), h("p", {}, t("ui.winners", { names })));
}

export function render(root, message, ctx) {
  loadStyle();
  const { view, table } = message;
  const memory = ctx.memory;
  // A game was just scored: its result shows while the next deal waits for "next".
  const played = view.deals.filter((d) => d.outcome === "played");
  const summary = memory.summary ?? gateSummary(message, memory);

  timerNotice(message, memory, t("ui.timer_played"));
  const felt = h(`div.felt.dk-felt.players-${view.players}`, {},
    [...Array(view.players).keys()].map((s) => seatBox(view, table, s)),
    // A completed trick stays on the felt (its winner marked) until the next card is led.
    feltTrick(view, theTrick(view), memory));
  placeBubbles(felt, bubbles(view, saidItems(view), memory));

  const mine = view.seat !== null && view.to_move === view.seat && !view.over;
  // When the session is over the result box says so; no status line repeats it.
  const status = view.over ? null : h(`div.status${mine ? ".mine" : ""}`, { role: "status" },
    h("span", {}, statusLine(view, table)), " ", h("span.timer"));

  let bar = null;
  // While the table holds (paused, between deals) the next deal's question waits too.
  if (view.seat !== null && !view.over && !held(table)) {
    retryAnswer(view, ctx);
    if (view.phase === "declare") bar = view.question ? questionBar(view, ctx) : view.auto || view.answer ? answeredNote(view) : declarationBar(view, ctx);
    else if (view.phase.startsWith("armut")) bar = armutBar(view, ctx);
    else bar = announcementBar(view, ctx);
  }

  const games = played.length
    ? h("div.reviews", {}, h("h3", {}, t("dk.games")), played.map((d) =>
      h("button.small", { onclick: () => { memory.summary = d.number; ctx.rerender(); } }, t("dk.game_n", { n: gameNumber(view, d) }))))
    : null;

  const side = h("aside.side", {},
    h("h3", {}, t("ui.score_sheet")),
    scoreSheet(view, table, ctx),
    bockBox(view),
    lastTrick(view, table),
    games,
    played.length || view.over ? h("a.button.small", { href: `/api/tables/${ctx.tableId}/record`, download: "" }, t("ui.download_record")) : null,
    played.length || view.over ? h("a.button.small.replay-link", { href: `/replay/${ctx.tableId}`, "data-link": "" }, t("ui.replay")) : null,
    h("p#banner.muted"));

  // The deal and its phase on the root, for whoever watches the page (tools, tests).
  root.replaceChildren(h("div.game.dk-game", { "data-deal": view.deal_number, "data-phase": view.phase },
    h("div.main", {}, resultBox(view, table), status, gameLine(view, table), redealNotice(view, table), felt,
      // Why an action was refused floats above the buttons, not over them.
      whyLine(memory, message.version), openHand(view, table), armutCards(view), bar, handRow(view, ctx)),
    side,
    memory.review ? reviewDialog(view, table, ctx) : summary ? summaryDialog(message, summary, ctx) : null));
}
