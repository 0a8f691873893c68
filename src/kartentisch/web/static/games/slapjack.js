// Slapjack and Irish Snap in real time: the pile in the middle with the card on
// top, every seat's stack around it, and big buttons (and keys) to turn a card
// and to slap. The server judges every slap fairly (docs/referee.md); the page
// only answers its pings at once and sends what the player pressed.
//
// Keys: Space slaps, C slaps with the call "Slapjack!" (call variant), Enter
// or T turns your card. On a phone the pile itself is a slap button.

import { backSVG, cardLabel, cardSVG } from "../cards.js";
import { h, styleSheet } from "../dom.js";
import { whyLine } from "../felt.js";
import { lang, t } from "../i18n.js";

/** The game's own style sheet, added to the page once; a promise that it is loaded
 * (the table draws the game only then, so it is never laid out without it). */
export function ready() {
  return styleSheet("/static/games/slapjack.css");
}

function loadStyle() {
  ready();
}

// The texts of the events, by type (and reason). Listed here so that every key is
// visible to the translation check.
const SLAPJACK_EVENTS = {
  card_turned: "sj.ev.card_turned",
  pile_won: "sj.ev.pile_won",
  comeback: "sj.ev.comeback",
  false_slap: "sj.ev.false_slap",
  false_slap_own: "sj.ev.false_slap_own",
  false_slap_pile: "sj.ev.false_slap_pile",
  split_no_call: "sj.ev.split_no_call",
  split_false_slap: "sj.ev.split_false_slap",
  out_of_cards: "sj.ev.out_of_cards",
  out_lost_jack: "sj.ev.out_lost_jack",
  out_false_slap: "sj.ev.out_false_slap",
  out_no_call: "sj.ev.out_no_call",
  pile_turned_over: "sj.ev.turned_over",
  late_slap: "sj.ev.late_slap",
  end_last_in: "sj.ev.end_last_in",
  end_time_limit: "sj.ev.end_time_limit",
};
const SNAP_EVENTS = {
  card_turned: "snap.ev.card_turned",
  match: "snap.ev.match",
  slapped: "snap.ev.slapped",
  taken_last_slap: "snap.ev.taken_last_slap",
  taken_too_slow: "snap.ev.taken_too_slow",
  taken_false_slap: "snap.ev.taken_false_slap",
  player_safe: "snap.ev.player_safe",
  late_slap: "snap.ev.late_slap",
  end: "snap.ev.end",
};
const CALLS = {
  A: "snap.call.A", 2: "snap.call.2", 3: "snap.call.3", 4: "snap.call.4", 5: "snap.call.5",
  6: "snap.call.6", 7: "snap.call.7", 8: "snap.call.8", 9: "snap.call.9", 10: "snap.call.10",
  J: "snap.call.J", Q: "snap.call.Q", K: "snap.call.K",
};
// Events worth the big message line above the pile.
const BIG = new Set(["pile_won", "false_slap", "pile_split", "player_out", "out_of_cards", "pile_turned_over",
  "pile_taken", "player_safe", "game_ended"]);

// -- words ----------------------------------------------------------------------

function shortName(view, seat) {
  return view.names[seat] || `#${seat + 1}`;
}

function nameOf(view, seat) {
  const name = shortName(view, seat);
  return seat === view.seat ? `${name} (${t("ui.you")})` : name;
}

function callName(letter) {
  return CALLS[letter] ? t(CALLS[letter]) : String(letter ?? "");
}

function isSnap(view) {
  return view.game === "irish-snap";
}

/** An event as a sentence in the page's language; "" for bookkeeping events. */
function eventText(view, e) {
  const name = e.seat !== undefined && e.seat !== null ? nameOf(view, e.seat) : "";
  const card = e.card ? cardLabel(e.card) : "";
  if (isSnap(view)) {
    switch (e.type) {
      case "card_turned":
        return e.match
          ? t(SNAP_EVENTS.match, { card, call: callName(e.call) })
          : t(SNAP_EVENTS.card_turned, { name, card, call: callName(e.call) });
      case "slapped":
        return t(SNAP_EVENTS.slapped, { name, n: e.order });
      case "pile_taken":
        return t(SNAP_EVENTS[`taken_${e.reason}`] || SNAP_EVENTS.taken_last_slap, { name, n: e.n, card: e.top ? cardLabel(e.top) : "" });
      case "player_safe":
        return t(SNAP_EVENTS.player_safe, { name });
      case "late_slap":
        return t(SNAP_EVENTS.late_slap, { name });
      case "game_ended":
        return t(SNAP_EVENTS.end, { name: nameOf(view, e.loser) });
      default:
        return "";
    }
  }
  switch (e.type) {
    case "card_turned":
      return t(SLAPJACK_EVENTS.card_turned, { name, card });
    case "pile_won":
      return t(SLAPJACK_EVENTS.pile_won, { name, n: e.n }) + (e.comeback ? ` — ${t(SLAPJACK_EVENTS.comeback, { name })}` : "");
    case "false_slap": {
      const slapped = cardLabel(e.slapped);
      if (e.to === null) return t(SLAPJACK_EVENTS.false_slap_pile, { name, card: slapped });
      if (e.to === e.seat) return t(SLAPJACK_EVENTS.false_slap_own, { name, card: slapped });
      return t(SLAPJACK_EVENTS.false_slap, { name, card: slapped, to: nameOf(view, e.to) });
    }
    case "pile_split":
      return t(SLAPJACK_EVENTS[`split_${e.reason}`] || SLAPJACK_EVENTS.split_false_slap, { name, card: e.top ? cardLabel(e.top) : "" });
    case "out_of_cards":
      return t(SLAPJACK_EVENTS.out_of_cards, { name });
    case "player_out":
      return t(SLAPJACK_EVENTS[`out_${e.reason}`] || SLAPJACK_EVENTS.out_lost_jack, { name });
    case "pile_turned_over":
      return t(SLAPJACK_EVENTS.pile_turned_over, { name });
    case "late_slap":
      return t(SLAPJACK_EVENTS.late_slap, { name });
    case "game_ended": {
      const names = e.winners.map((s) => nameOf(view, s)).join(", ");
      return t(SLAPJACK_EVENTS[`end_${e.reason}`] || SLAPJACK_EVENTS.end_last_in, { names });
    }
    default:
      return "";
  }
}

/** Whether the event is good or bad news for the viewer (for its colour). */
function tone(view, e) {
  const me = view.seat;
  if (me === null || me === undefined) return "";
  if (e.type === "pile_won") return e.seat === me ? "good" : "";
  if (e.type === "player_safe") return e.seat === me ? "good" : "";
  if (e.type === "pile_taken" || e.type === "false_slap" || e.type === "player_out") return e.seat === me ? "bad" : "";
  if (e.type === "game_ended") {
    const won = isSnap(view) ? e.loser !== me : e.winners.includes(me);
    return won ? "good" : "bad";
  }
  return "";
}

// -- the table --------------------------------------------------------------------

const NARROW = window.matchMedia("(max-width: 820px)");

// Seats clockwise from the viewer, who sits at the bottom.
function position(view, seat) {
  const me = view.seat ?? 0;
  const k = (seat - me + view.players) % view.players;
  const angle = Math.PI / 2 + (k * 2 * Math.PI) / view.players;
  // On a phone the felt is narrow: the seats come closer so that none leaves the screen.
  const [rx, ry] = NARROW.matches ? [34, 40] : [41, 38];
  return { x: 50 + rx * Math.cos(angle), y: 50 + ry * Math.sin(angle) };
}

function seatState(view, seat) {
  if (isSnap(view)) return view.safe[seat] ? "safe" : "";
  return view.out[seat] ? "out" : "";
}

function seatBox(view, table, seat) {
  const info = table.seats[seat];
  const p = position(view, seat);
  const classes = ["seat", "sj-seat"];
  const mark = seatState(view, seat);
  if (view.to_move === seat) classes.push("to-move");
  if (seat === view.seat) classes.push("me");
  if (mark) classes.push(mark);
  if (view.top_seat === seat && view.top) classes.push("last-turner");
  const badges = [];
  if (info.kind === "bot") badges.push(h("span.badge.bot", { title: t(`level.${info.level}`) }, t("ui.bot")));
  else if (info.bot_playing) badges.push(h("span.badge.away", { title: t("ui.bot_playing") }, t("presence.standin")));
  else if (info.kind === "human" && !info.connected) badges.push(h("span.badge.away", {}, t("ui.offline")));
  if (mark) badges.push(h(`span.badge.sj-${mark}`, {}, t(`sj.${mark}`)));
  const size = view.stack_sizes[seat];
  return h(`div.${classes.join(".")}`, { style: { left: `${p.x}%`, top: `${p.y}%` }, "data-seat": seat },
    h("div.seat-name", {}, nameOf(view, seat), " ", badges),
    h("div.sj-stack", { title: t("sj.cards", { n: size }) },
      size ? h("span.sj-back", { html: backSVG() }) : h("span.sj-back.empty"),
      h("span.sj-count", {}, size)),
    view.to_move === seat ? h("div.sj-turns", {}, t("sj.turns")) : null);
}

function pileBox(view, ctx) {
  const depth = Math.min(4, Math.max(0, view.pile_size - 1));
  const under = Array.from({ length: depth }, (_, i) => h("div.sj-under", { style: { transform: `translate(${(i + 1) * 3}px, ${(i + 1) * 3}px)` } }));
  const top = view.top
    ? h("div.sj-top", { html: cardSVG(view.top, cardLabel(view.top)) })
    : h("div.sj-top.sj-none", {}, t("sj.empty_pile"));
  const canSlap = view.legal.includes("slap");
  const classes = ["sj-pile"];
  if (view.top && view.top.startsWith("J") && !isSnap(view)) classes.push("jack");
  if (view.match_open) classes.push("match");
  if (canSlap) classes.push("slappable");
  // The pile is the slap button on a touch screen: a tap slaps at once.
  return h(`div.${classes.join(".")}`, {
    "data-size": view.pile_size,
    "data-turned": view.turned,
    role: canSlap ? "button" : null,
    "aria-label": canSlap ? t("sj.slap") : null,
    onpointerdown: canSlap ? (event) => { event.preventDefault(); slap(ctx, view, view.call_required); } : null,
  }, under, top, h("div.sj-pile-count", {}, view.top ? t("sj.pile", { n: view.pile_size }) : ""));
}

function callBox(view) {
  if (!isSnap(view)) return null;
  return h("div.sj-calls", {},
    view.call ? h("div.sj-call", {}, t("snap.call_now", { call: callName(view.call) })) : null,
    view.over ? null : h("div.sj-next-call", {}, t("snap.next_call", { call: callName(view.next_call) })));
}

function headline(view, table, live) {
  if (view.over) return { text: "", kind: "over" }; // the result box says it
  if (isSnap(view) && view.match_open) {
    return { text: view.must_slap ? `${t("snap.match")} ${t("snap.must_slap")}` : t("snap.match"), kind: "match" };
  }
  if (view.to_move === null || view.to_move === undefined) return { text: "", kind: "" };
  if (view.to_move === view.seat) {
    return { text: t(view.needs_turnover ? "sj.your_turnover" : "sj.your_turn"), kind: "mine" };
  }
  return { text: t("sj.waiting_turn", { name: nameOf(view, view.to_move) }), kind: "" };
}

/** The latest event worth the big message line, and whether a few cards have come since. */
function latestBig(view) {
  let turned = 0;
  for (let i = view.events.length - 1; i >= 0; i--) {
    const e = view.events[i];
    if (BIG.has(e.type) || (e.type === "card_turned" && e.match)) return { e, old: turned >= 3 };
    if (e.type === "card_turned") turned += 1;
  }
  return null;
}

function controls(view, ctx) {
  if (view.seat === null) return h("p.muted.spectator", {}, t("ui.spectating"));
  if (view.over) return null;
  const legal = new Set(view.legal);
  const canTurn = legal.has("turn");
  const canSlap = legal.has("slap");
  const button = (cls, label, key, enabled, action) =>
    h(`button.sj-button.${cls}`, {
      disabled: !enabled,
      // Pointer down, not click: a slap must not wait for the finger to lift.
      onpointerdown: enabled ? (event) => { event.preventDefault(); action(); } : null,
      onclick: (event) => { if (event.detail === 0 && enabled) action(); }, // the keyboard on a focused button
    }, h("span.sj-label", {}, label), h("kbd", {}, key));
  const buttons = [
    button("sj-turn-button", t(view.needs_turnover ? "sj.turn_over" : "sj.turn"), t("sj.key_turn"), canTurn, () => turn(ctx, view)),
    button("sj-slap-button", t("sj.slap"), t("sj.key_slap"), canSlap, () => slap(ctx, view, false)),
  ];
  if (view.call_required) {
    buttons.push(button("sj-call-button", t("sj.slap_call"), t("sj.key_call"), canSlap, () => slap(ctx, view, true)));
  }
  return h("div.sj-controls", {}, buttons);
}

function slap(ctx, view, call) {
  const memory = ctx.memory;
  // Nothing to slap on this screen (an empty pile), or this card is slapped already.
  if (!view.legal.includes("slap")) return;
  if (memory.slappedVersion === view.turned && memory.slappedSeen === view.version) return;
  memory.slappedVersion = view.turned;
  memory.slappedSeen = view.version;
  ctx.act(call && view.call_required ? "slap!" : "slap");
  const pile = document.querySelector(".sj-pile");
  if (pile) {
    pile.classList.remove("hit");
    void pile.offsetWidth; // restart the animation
    pile.classList.add("hit");
  }
}

function turn(ctx, view) {
  if (!view.legal.includes("turn")) return;
  if (ctx.memory.turnedVersion === view.version) return;
  ctx.memory.turnedVersion = view.version;
  ctx.act("turn");
}

function playersTable(view, table) {
  const rows = [...Array(view.players).keys()].map((s) => {
    const mark = seatState(view, s);
    return h(`tr${s === view.seat ? ".me" : ""}`, {},
      h("td", {}, nameOf(view, s)),
      h("td.num", {}, view.stack_sizes[s]),
      h("td.muted", {}, mark ? t(`sj.${mark}`) : view.to_move === s ? t("sj.turns") : ""));
  });
  return h("table.sj-players", {}, h("tbody", {}, rows));
}

// Your own slaps the server refused as too late (live.refused): the pile had been
// taken, or the card had gone. They are no game events, so they come with the state.
const REFUSED = {
  empty_pile: "sj.ev.refused_late",
  stale_card: "sj.ev.refused_stale",
};

function refusedText(view, r) {
  const name = nameOf(view, view.seat);
  if (r.rule === "empty_pile" && r.late_ms !== null && r.late_ms !== undefined) {
    return t(REFUSED.empty_pile, { name, ms: r.late_ms });
  }
  return t(REFUSED.stale_card, { name });
}

/** A log line's game time in seconds, written the page language's way ("12,3 s"). */
function logTime(ms) {
  const seconds = (ms / 1000).toLocaleString(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return t("sj.log_time", { s: seconds });
}

function logList(view, live) {
  const own = view.seat === null || view.seat === undefined ? [] : (live.refused || []);
  const items = view.events
    .map((e) => ({ e, t: e.t, text: eventText(view, e), tone: tone(view, e), refused: false }))
    .concat(own.map((r) => ({ e: r, t: r.t, text: refusedText(view, r), tone: "bad", refused: true })))
    .filter((item) => item.text)
    .sort((a, b) => a.t - b.t)
    .slice(-10)
    .reverse()
    .map(({ t: ms, text, tone: kind, refused }) => h(`li.${kind || "plain"}${refused ? ".refused" : ""}`, {},
      h("span.sj-time", {}, logTime(ms)), " ", text));
  return h("ol.sj-log", {}, items);
}

function resultBox(view) {
  if (!view.over) return null;
  const parts = [h("h2", {}, t("sj.game_over"))];
  if (isSnap(view)) {
    if (view.loser !== null) parts.push(h("p", {}, t("snap.loser", { name: nameOf(view, view.loser) })));
  }
  if (view.winners?.length) parts.push(h("p", {}, t("sj.winners", { names: view.winners.map((s) => nameOf(view, s)).join(", ") })));
  return h("div.result", {}, parts);
}

// -- keys, the countdown ------------------------------------------------------------

function onKey(memory, event) {
  const ctx = memory.ctx;
  const view = memory.view;
  if (!ctx || !view || view.seat === null || view.over) return;
  if (!document.body.contains(memory.root) || !memory.root.querySelector(".sj-game")) return;
  const target = event.target;
  if (target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName)) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const key = event.key;
  let handled = true;
  if (key === " " || key === "Spacebar") {
    if (!event.repeat) slap(ctx, view, false);
  } else if (key === "c" || key === "C") {
    if (!event.repeat) slap(ctx, view, view.call_required);
  } else if (key === "Enter" || key === "t" || key === "T") {
    if (!event.repeat) turn(ctx, view);
  } else {
    handled = false;
  }
  if (handled) event.preventDefault();
}

function clockText(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

function updateCountdown(memory) {
  const limit = memory.root?.querySelector(".sj-time-left");
  if (limit && memory.limitAt !== null && memory.limitAt !== undefined) {
    limit.textContent = t("sj.time_left", { time: clockText(memory.limitAt - performance.now()) });
  }
  const el = memory.root?.querySelector(".sj-countdown");
  if (!el) return;
  if (memory.turnDueAt === null || memory.turnDueAt === undefined) {
    el.textContent = "";
    return;
  }
  const left = Math.max(0, (memory.turnDueAt - performance.now()) / 1000);
  el.textContent = t("sj.auto_turn", { s: left.toFixed(1) });
}

function install(memory) {
  if (memory.installed) return;
  memory.installed = true;
  memory.keydown = (event) => onKey(memory, event);
  memory.keyup = (event) => {
    // A focused button would be "clicked" by the space bar on key up.
    if (event.key === " " && memory.view && memory.view.seat !== null) event.preventDefault();
  };
  document.addEventListener("keydown", memory.keydown);
  document.addEventListener("keyup", memory.keyup);
  memory.countdown = setInterval(() => updateCountdown(memory), 100);
}

/** The table screen is closing: stop listening to keys. */
export function destroy(memory) {
  if (!memory?.installed) return;
  document.removeEventListener("keydown", memory.keydown);
  document.removeEventListener("keyup", memory.keyup);
  clearInterval(memory.countdown);
  memory.installed = false;
}

// -- the screen -----------------------------------------------------------------------

export function render(root, message, ctx) {
  loadStyle();
  const { view, table } = message;
  const live = message.live || {};
  const memory = ctx.memory;
  memory.ctx = ctx;
  memory.view = view;
  memory.root = root;
  install(memory);
  // The automatic turn, counted down on this page's clock from the server's figures.
  memory.turnDueAt = live.turn_due !== null && live.turn_due !== undefined && view.to_move === view.seat
    ? performance.now() + (live.turn_due - live.now)
    : null;
  // Slapjack with a time limit: the time left, counted down the same way.
  const limitMs = view.options?.time_limit_ms;
  memory.limitAt = limitMs && !view.over && live.now !== undefined ? performance.now() + (limitMs - live.now) : null;

  const head = headline(view, table, live);
  const status = view.over ? null : h(`div.status.sj-status${head.kind ? `.${head.kind}` : ""}`, { role: "status" },
    h("span", {}, head.text), " ", h("span.sj-countdown"),
    memory.limitAt !== null ? h("span.sj-time-left") : null);
  const big = latestBig(view);
  const newsClass = big ? `.${tone(view, big.e) || "plain"}${big.old ? ".old" : ""}` : "";
  const news = h(`div.sj-news${newsClass}`, { "aria-live": "polite" }, big ? eventText(view, big.e) : "\u00a0");

  const felt = h(`div.felt.sj-felt${view.match_open ? ".match" : ""}${view.players > 4 ? ".many" : ""}`, {},
    [...Array(view.players).keys()].map((s) => seatBox(view, table, s)),
    h("div.sj-centre", {}, callBox(view), pileBox(view, ctx)));

  const rtt = view.seat === null || view.over ? null
    : h("p.muted.sj-rtt", {}, live.rtt === null || live.rtt === undefined ? t("sj.rtt_unknown") : t("sj.rtt", { ms: live.rtt }));
  const help = [
    h("p.sj-help", {}, t(isSnap(view) ? "snap.rules_short" : "sj.rules_short")),
    view.call_required ? h("p.sj-help", {}, t("sj.rules_call")) : null,
    h("p.sj-help.muted", {}, t(isSnap(view) ? "snap.keys_help" : "sj.keys_help")),
  ];
  const side = h("aside.side", {},
    h("h3", {}, t("sj.players")),
    playersTable(view, table),
    h("h3", {}, t("sj.log")),
    logList(view, live),
    help,
    rtt,
    view.over ? h("a.button.small", { href: `/api/tables/${ctx.tableId}/record`, download: "" }, t("ui.download_record")) : null,
    view.over ? h("a.button.small.replay-link", { href: `/replay/${ctx.tableId}`, "data-link": "" }, t("ui.replay")) : null,
    h("p#banner.muted"));

  root.replaceChildren(h(`div.game.sj-game${isSnap(view) ? ".snap" : ""}`, {},
    h("div.main", {}, resultBox(view), status, news, felt, whyLine(memory, message.version), controls(view, ctx)),
    side));
  updateCountdown(memory);
}
