// The game log beside the table: every action of every seat in words, in the
// page's language, newest at the bottom. The server sends the log in parts
// (docs/web-protocol.md, "The game log"): each state message carries the
// entries this page lacks; the page keeps them between states in ctx.memory
// and names what it holds when it says hello again (logHello).

import { h } from "./dom.js";
import { lang, t } from "./i18n.js";

const SUITS = { C: "♣", S: "♠", H: "♥", D: "♦" };
const CODE = /^(10|[2-9JQKA])([CSHD])$/;
const ANNOUNCEMENTS = new Set(["re", "kontra", "no90", "no60", "no30", "schwarz"]);
// How far from the bottom the list may be scrolled and still follow new entries.
const FOLLOW_PX = 24;

/** The card in the page's language, suit first: "♥D" (German), "♥Q", "♥Д". */
export function cardName(code) {
  const m = CODE.exec(String(code).toUpperCase());
  if (!m) return String(code);
  const rank = /^[JQKA]$/.test(m[1]) ? t(`log.rank.${m[1]}`) : m[1];
  return SUITS[m[2]] + rank;
}

/** A counted text: ``base.one`` / ``.few`` / ``.many`` / ``.other`` by the language's plural rules. */
function counted(base, n, params = {}) {
  let form = "other";
  try {
    form = new Intl.PluralRules(lang).select(n);
  } catch {
    form = n === 1 ? "one" : "other";
  }
  const key = `${base}.${form}`;
  const text = t(key, { n, ...params });
  return text === key ? t(`${base}.other`, { n, ...params }) : text;
}

/** The log as this page holds it (kept in the renderer's memory between states). */
function store(ctx) {
  const memory = ctx.memory;
  if (!memory.gameLog) memory.gameLog = { epoch: null, entries: [], el: null, list: null, follow: true, top: 0 };
  return memory.gameLog;
}

/** What ``hello`` says of the log this page holds: the server sends only the rest. */
export function logHello(memory) {
  const log = memory?.gameLog;
  if (!log || log.epoch === null) return {};
  return { log_epoch: log.epoch, log_from: log.entries.length };
}

/** Take in a state message's ``log``: from entry ``from`` on, of the log named ``epoch``. */
function merge(log, part) {
  if (!part) return false;
  if (!log.taken) log.taken = new WeakSet();
  if (log.taken.has(part)) return false; // taken in already (on receipt)
  log.taken.add(part);
  if (part.epoch !== log.epoch) {
    if (part.from !== 0) return false; // another log: only a whole one replaces ours
    log.epoch = part.epoch;
    log.entries = [];
  }
  if (part.from > log.entries.length) return false; // a gap: the next hello asks again
  log.entries.length = part.from;
  log.entries.push(...part.entries);
  log.dirtyFrom = log.dirtyFrom === null || log.dirtyFrom === undefined ? part.from : Math.min(log.dirtyFrom, part.from);
  return true;
}

/**
 * Take in the log part of a state message as it arrives. The page may draw only the
 * newest of several states that came while it was busy (a game's screen loading):
 * each part must be kept all the same, or the log would have a gap.
 */
export function takeLog(memory, part) {
  if (!memory || !part) return;
  merge(store({ memory }), part);
}

function nameOf(message, seat) {
  if (seat === null || seat === undefined) return "";
  const view = message.view || {};
  const name = view.names?.[seat] || message.table?.seats?.[seat]?.name || `#${seat + 1}`;
  return seat === view.seat ? `${name} (${t("ui.you")})` : name;
}

function callText(text) {
  const [word, ...rest] = String(text).split(" ");
  if (ANNOUNCEMENTS.has(word)) return t(`dk.word.${word}`);
  if (word === "solo") {
    const ouvert = rest.includes("ouvert");
    const game = t(`dk.game.${rest.find((r) => r !== "ouvert") || "queens"}`);
    return ouvert ? t("dk.ouvert_game", { game }) : game;
  }
  if (word === "scharfe") {
    const parts = rest.length ? rest : ["aces", "kings"];
    return parts.map((p) => t(`dk.scharfe.${p}`)).join(", ");
  }
  if (word === "hochzeit") {
    return rest.length ? t("dk.call.hochzeit_rule", { rule: t(`dk.hochzeit.${rest[0]}`) }) : t("dk.call.hochzeit");
  }
  return t(`dk.call.${word}`);
}

function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

function pointsList(message, points) {
  return points.map((p, seat) => `${nameOf(message, seat)} ${signed(p)}`).join(", ");
}

/** The lines of one entry: what was done, then what followed from it. */
function entryLines(message, entry) {
  const name = nameOf(message, entry.seat);
  if (entry.note) {
    const key = `log.note.${entry.note}`;
    const text = t(key, { name });
    return text === key ? [] : [{ text, kind: "note" }];
  }
  const lines = [];
  const action = String(entry.action);
  if (CODE.test(action.toUpperCase())) {
    lines.push({ text: t("log.plays", { name, card: cardName(action) }), kind: "play" });
  } else if (action.startsWith("cut ")) {
    lines.push({ text: t("cut.done", { name, n: action.slice(4) }), kind: "play" });
  } else if (action === "give" || action === "return") {
    // The cards go face down: the events say how many, and how many trumps.
  } else {
    lines.push({ text: t("log.says", { name, call: callText(action) }), kind: "call" });
  }
  for (const event of entry.events || []) lines.push(...eventLines(message, event));
  return lines;
}

function eventLines(message, e) {
  const name = nameOf(message, e.seat);
  switch (e.type) {
    case "trick_won":
      if (e.augen !== undefined) {
        return [{ text: t("log.trick_augen", { trick: e.trick, name, augen: counted("log.augen", e.augen) }), kind: "trick" }];
      }
      return [{ text: t("log.trick", { trick: e.trick, name }), kind: "trick" }];
    case "penalty":
      return [{ text: t(`reason.${e.reason}`, { name, chips: e.chips }), kind: "penalty" }];
    case "deal_ended":
      if (e.winner) {
        return [
          { text: t("log.deal_won", { party: t(`dk.party.${e.winner}`), re: e.augen.re, kontra: e.augen.kontra }), kind: "end" },
          { text: t("log.points", { list: pointsList(message, e.points) }), kind: "end" },
        ];
      }
      return [{ text: t("log.deal_over_chips", { list: e.points.map((p, s) => `${nameOf(message, s)} ${p}`).join(", ") }), kind: "end" }];
    case "match_ended":
      return [{ text: t("log.match_over", { names: e.losers.map((s) => nameOf(message, s)).join(", ") }), kind: "end" }];
    case "redeal":
      return [{ text: t(`dk.redeal.${e.reason}`, { name }), kind: "end" }];
    case "armut_offered":
      return [{ text: t(`log.armut_${e.direction}`, { name, n: e.trumps }), kind: "call" }];
    case "armut_cards_passed":
      return [{ text: t(e.kind === "give" ? "log.armut_give" : "log.armut_return", { name, to: nameOf(message, e.to), trumps: e.trumps, k: e.count }), kind: "call" }];
    case "play_started":
      if (e.soloist !== null && e.soloist !== undefined) {
        const game = t(`dk.game.${e.game_type}`);
        return [{ text: t("log.solo_game", { name: nameOf(message, e.soloist), game: e.ouvert ? t("dk.ouvert_game", { game }) : game }), kind: "call" }];
      }
      return [{ text: t("log.game", { game: t(`dk.game.${e.game_type}`) }), kind: "call" }];
    case "hochzeit_partner_found":
      return [{ text: t("log.hochzeit_partner", { name, partner: nameOf(message, e.partner) }), kind: "call" }];
    case "hochzeit_alone":
      return [{ text: t("log.hochzeit_alone", { name }), kind: "call" }];
    case "pigs_shown":
      return [{ text: t("log.pigs_shown", { name, what: t(`dk.pig.${e.kind}`) }), kind: "call" }];
    case "card_taken_back":
      return [{ text: t("log.taken_back", { name, card: cardName(e.card) }), kind: "call" }];
    case "miese":
      return [{ text: t("dk.miese", { name }), kind: "end" }];
    default:
      return [];
  }
}

function byMark(message, entry) {
  switch (entry.by) {
    case "standin":
      return t("log.by.standin", { name: nameOf(message, entry.seat) });
    case "timer":
      return t("log.by.timer");
    case "auto":
      return t("log.by.auto");
    default:
      return null;
  }
}

// A card in a line ("♥D", "♣10"): set apart, red for hearts and diamonds.
const CARD_IN_TEXT = /([♣♠♥♦](?:10|[2-9]|[^\s\d.,;:!?()]))/u;

function withCards(text) {
  return text.split(CARD_IN_TEXT).map((part, i) =>
    i % 2 ? h(`span.log-card${/[♥♦]/.test(part) ? ".red" : ""}`, {}, part) : part);
}

function entryNode(message, entry, lastDeal) {
  const nodes = [];
  if (entry.deal !== undefined && entry.deal !== lastDeal) {
    nodes.push(h("li.log-deal", {}, t("ui.deal_n", { n: entry.deal })));
  }
  const mark = byMark(message, entry);
  entryLines(message, entry).forEach((line, i) => {
    nodes.push(h(`li.log-${line.kind}`, { "data-v": entry.v, "data-by": i === 0 ? entry.by : null },
      withCards(line.text),
      i === 0 && mark ? h("span.log-by", {}, ` (${mark})`) : null));
  });
  return nodes;
}

/** Draw (or update) the log panel: one ``aside.game-log``, the last child of ``root``. */
export function drawLog(root, message, ctx) {
  const log = store(ctx);
  merge(log, message.log);
  // What changed since the last draw: entries from ``dirtyFrom`` on (taken in on receipt).
  const changed = log.dirtyFrom !== null && log.dirtyFrom !== undefined;
  const changedFrom = log.dirtyFrom;
  log.dirtyFrom = null;
  if (log.epoch === null) {
    // A game without a log here (the slap games keep their own): nothing to show.
    log.el?.remove();
    return;
  }
  if (!log.el) {
    log.list = h("ol.log-entries", { "aria-live": "polite" });
    log.el = h("aside.game-log", { "aria-label": t("log.title") }, h("h3", {}, t("log.title")), log.list);
    log.list.addEventListener("scroll", () => {
      const list = log.list;
      log.follow = list.scrollHeight - list.scrollTop - list.clientHeight <= FOLLOW_PX;
      log.top = list.scrollTop;
    });
    log.drawnLang = null;
    log.drawn = 0;
  }
  const same = log.drawnLang === lang && log.drawnFor === message.view?.seat && log.drawnEpoch === log.epoch;
  if (changed && same && log.drawn > 0 && changedFrom === log.drawn) {
    // New entries after those drawn (the usual case): only they are drawn.
    const items = [];
    for (const entry of log.entries.slice(log.drawn)) {
      items.push(...entryNode(message, entry, log.lastDeal));
      if (entry.deal !== undefined) log.lastDeal = entry.deal;
    }
    log.list.append(...items);
    log.drawn = log.entries.length;
  } else if (changed || !same) {
    const items = [];
    log.lastDeal = undefined;
    for (const entry of log.entries) {
      items.push(...entryNode(message, entry, log.lastDeal));
      if (entry.deal !== undefined) log.lastDeal = entry.deal;
    }
    if (!items.length) items.push(h("li.log-empty.muted", {}, t("log.empty")));
    log.list.replaceChildren(...items);
    log.el.firstChild.textContent = t("log.title");
    log.el.setAttribute("aria-label", t("log.title"));
    log.drawn = log.entries.length;
    log.drawnLang = lang;
    log.drawnFor = message.view?.seat;
    log.drawnEpoch = log.epoch;
  }
  log.el.dataset.entries = String(log.entries.length);
  if (root.lastElementChild !== log.el) root.append(log.el);
  // Moved back into the page the list has lost its scroll position: follow the newest
  // entry, unless the reader had scrolled up to read.
  log.list.scrollTop = log.follow ? log.list.scrollHeight : log.top;
}
