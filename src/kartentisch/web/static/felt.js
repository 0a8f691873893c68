// What the trick games (Slobberhannes, Doppelkopf) share on the felt: where the
// seats sit, where the cards of the trick lie (never on one another), the
// completed trick that stays until the next lead with its winner marked, the
// short moves of the cards (to the trick, then to the winner), speech bubbles
// at the seats (a declaration, Re, Kontra …) and the line that says why an
// action was refused.

import { cardLabel, cardSVG } from "./cards.js";
import { h } from "./dom.js";

/** How long a speech bubble stays at its seat, in ms (its CSS animation lasts as long). */
export const BUBBLE_MS = 2600;

// -- places -----------------------------------------------------------------------

/** The angle of ``seat`` around the table, clockwise from the viewer at the bottom. */
function angle(view, seat) {
  const me = view.seat ?? 0;
  const k = (seat - me + view.players) % view.players;
  return Math.PI / 2 + (k * 2 * Math.PI) / view.players;
}

/** A seat's place on the felt, in percent of its width and height. */
export function seatPlace(view, seat, radiusX = 40, radiusY = 40) {
  const a = angle(view, seat);
  return { x: 50 + radiusX * Math.cos(a), y: 50 + radiusY * Math.sin(a) };
}

// The cards of a trick lie on an ellipse around the centre, measured in card sizes
// (so they keep clear of each other at any felt size): two cards are apart when
// their centres differ by a card's width across or a card's height down. For each
// number of seats the smallest height of the ellipse that keeps every pair apart.
const ACROSS = 1.2; // the ellipse's half width, in card widths
const GAP = 1.06; // the distance counted as apart, in card sizes (a small gap)
const spreads = new Map();

function spread(players) {
  if (spreads.has(players)) return spreads.get(players);
  const points = Array.from({ length: players }, (_, k) => {
    const a = Math.PI / 2 + (k * 2 * Math.PI) / players;
    return [Math.cos(a), Math.sin(a)];
  });
  let down = 0.5;
  const apart = (ry) => points.every(([x1, y1], i) => points.every(([x2, y2], j) =>
    i <= j || Math.abs(x1 - x2) * ACROSS >= GAP || Math.abs(y1 - y2) * ry >= GAP));
  while (down < 3 && !apart(down)) down += 0.02;
  spreads.set(players, down);
  return down;
}

/** Where the card of ``seat`` lies in the trick, in card widths across and card heights down from the centre. */
function trickOffset(view, seat) {
  const a = angle(view, seat);
  return { dx: ACROSS * Math.cos(a), dy: spread(view.players) * Math.sin(a) };
}

/** Where the card of ``seat`` lies in the trick: CSS lengths relative to the felt. */
export function trickPlace(view, seat) {
  const { dx, dy } = trickOffset(view, seat);
  return {
    left: `calc(50% + ${dx.toFixed(3)} * var(--trick-w))`,
    top: `calc(50% + ${dy.toFixed(3)} * var(--trick-h))`,
  };
}

/** A card's height over its width (cards.js draws them 100 × 140). */
const CARD_RATIO = 1.4;
/** The room kept between a place of the trick and a seat box, in px. */
const CLEAR = 4;
/** The smallest the trick's cards are made to keep clear of the seats, as a share of their size. */
const SMALLEST = 0.6;

/**
 * Keeps every place of the trick clear of every seat box: once the felt is on the
 * page (its seat boxes laid out, with their labels in the page's language), the
 * trick's cards are made smaller (``--trick-w`` on the felt) until no place where a
 * card may lie, whoever plays it, touches a seat box. Every place counts, not only
 * the cards lying there, so the felt looks the same whatever the trick holds.
 * Called after each drawing (and so after each resize); ``root`` holds the felt.
 */
export function fitTrick(root) {
  const felt = root.querySelector(".felt");
  const trick = felt?.querySelector(":scope > .trick[data-players]");
  if (!trick) return;
  felt.style.removeProperty("--trick-w");
  const base = parseFloat(getComputedStyle(felt).getPropertyValue("--trick-w"));
  if (!(base > 0)) return;
  const view = { players: Number(trick.dataset.players), seat: Number(trick.dataset.me) };
  const frame = felt.getBoundingClientRect();
  const left = frame.left + felt.clientLeft;
  const top = frame.top + felt.clientTop;
  const cx = left + felt.clientWidth / 2;
  const cy = top + felt.clientHeight / 2;
  const seats = [...felt.querySelectorAll(":scope > .seat")].map((e) => e.getBoundingClientRect());
  const offsets = Array.from({ length: view.players }, (_, s) => trickOffset(view, s));
  const clear = (w) => offsets.every(({ dx, dy }) => {
    const x = cx + dx * w, y = cy + dy * w * CARD_RATIO;
    const card = { l: x - w / 2 - CLEAR, r: x + w / 2 + CLEAR, t: y - (w * CARD_RATIO) / 2 - CLEAR, b: y + (w * CARD_RATIO) / 2 + CLEAR };
    return seats.every((s) => s.right <= card.l || s.left >= card.r || s.bottom <= card.t || s.top >= card.b);
  });
  let w = base;
  while (w > base * SMALLEST && !clear(w)) w -= 1;
  if (w < base) felt.style.setProperty("--trick-w", `${w}px`);
  felt.dataset.trickW = String(w);
}

// -- the trick ----------------------------------------------------------------------

/**
 * The trick the felt shows: the one being played, or, before the next lead, the
 * completed one (its winner marked). ``current`` and ``completed`` are tricks as the
 * views send them ({leader, seats, cards, winner}), each with an ``id`` that names
 * it (the deal and trick number), the same while it is played and once complete.
 */
export function shownTrick(current, completed) {
  if (current && current.cards.length) return current;
  if (completed && completed.cards.length) return { ...completed, done: true };
  return current;
}

function trickCard(view, trick, i, cls, extra = {}) {
  const code = trick.cards[i];
  const seat = trick.seats[i];
  const place = trickPlace(view, seat);
  const winner = trick.winner === seat && trick.done ? ".winner" : "";
  return h(`div.trick-card${winner}${cls}`, {
    "data-seat": seat,
    "data-card": code,
    style: { left: place.left, top: place.top, zIndex: String(i + 1), ...extra },
    html: cardSVG(code, cardLabel(code)),
  });
}

/**
 * The trick on the felt. A card new since the last state moves in from its
 * seat; a completed trick replaced by the next lead moves to its winner (a copy
 * that fades away). ``memory`` is the renderer's; motion is CSS only, and off
 * under ``prefers-reduced-motion``.
 */
export function feltTrick(view, trick, memory) {
  const before = memory.feltTrick;
  const same = before && trick && before.id === trick.id;
  const known = same ? before.count : 0;
  const nodes = [];
  if (trick) {
    trick.cards.forEach((_, i) => {
      if (i < known || !before) {
        nodes.push(trickCard(view, trick, i, ""));
        return;
      }
      const from = seatPlace(view, trick.seats[i]);
      nodes.push(trickCard(view, trick, i, ".arriving", { "--from-left": `${from.x}%`, "--from-top": `${from.y}%` }));
    });
  }
  // The trick that was on the felt, complete, is gone: it moves to whoever took it.
  if (before && !same && before.done && before.winner !== null && before.trick) {
    const to = seatPlace(view, before.winner);
    before.trick.cards.forEach((_, i) => {
      nodes.push(trickCard(view, { ...before.trick, done: false }, i, ".collecting", {
        "--to-left": `${to.x}%`, "--to-top": `${to.y}%`,
      }));
    });
  }
  memory.feltTrick = trick
    ? { id: trick.id, count: trick.cards.length, done: Boolean(trick.done), winner: trick.winner, trick }
    : null;
  return h("div.trick", {
    "data-trick": trick?.id ?? "", "data-done": trick?.done ? "true" : null,
    "data-players": view.players, "data-me": view.seat ?? 0,
  }, nodes);
}

// -- speech bubbles ---------------------------------------------------------------

/**
 * Speech bubbles at the seats. ``said`` is every spoken item of the deal so far, as
 * [{key, seat, text}] (``key`` unique within the list); an item new since the last
 * state shows at its seat for ``BUBBLE_MS``. The first state a page draws shows none
 * (what was said before it came is old news). ``extra`` items are shown once each.
 */
export function bubbles(view, said, memory, now = Date.now()) {
  const seen = memory.said;
  memory.said = new Set(said.map((item) => item.key));
  memory.bubbles = (memory.bubbles || []).filter((b) => now - b.at < BUBBLE_MS);
  if (seen) {
    for (const item of said) {
      if (!seen.has(item.key)) memory.bubbles.push({ ...item, at: now });
    }
  }
  // One bubble per seat: the latest.
  const latest = new Map();
  for (const b of memory.bubbles) latest.set(b.seat, b);
  return [...latest.values()].map((b) => h(`div.bubble${b.kind ? `.${b.kind}` : ""}`, {
    "data-seat": b.seat,
    role: "status",
    style: { animationDelay: `-${Math.max(0, now - b.at)}ms` },
  }, b.text));
}

/**
 * Puts each bubble on its seat's box on ``felt`` (the boxes carry ``data-seat``), right
 * after the seat's name: the bubble takes the place the next line would have (CSS leaves
 * its ``top`` to that), so it lies over the lower part of the box and below it, never
 * over the name and its badges, however many lines the name or the bubble takes. At a
 * seat by the felt's left or right edge it grows inwards, so that it stays on the screen.
 */
export function placeBubbles(felt, nodes) {
  for (const node of nodes) {
    const seat = felt.querySelector(`.seat[data-seat="${node.dataset.seat}"]`);
    const name = seat?.querySelector(":scope > .seat-name");
    // A seat at the felt's left or right edge: its bubble grows inwards, onto the felt.
    const x = parseFloat(seat?.style.left ?? "");
    if (x < 25) node.classList.add("inwards-right");
    else if (x > 75) node.classList.add("inwards-left");
    if (name) name.after(node);
    else seat?.append(node);
  }
  return felt;
}

/** Adds a bubble at once (a notice that is not in any list: the turn timer played). */
export function pushBubble(memory, bubble, now = Date.now()) {
  memory.bubbles = [...(memory.bubbles || []), { ...bubble, at: now }];
}

// -- why not ---------------------------------------------------------------------

/**
 * The line that says why the last action was refused (the server's text, from the
 * engine's rule code, in the page's language), until a newer state comes.
 */
export function whyLine(memory, version) {
  const why = memory.why;
  const shown = Boolean(why) && why.version === version;
  return h("div.why-anchor", {},
    h("div.why", { role: "alert", "data-rule": shown ? why.code : null, hidden: shown ? null : true }, shown ? why.text : ""));
}

/**
 * Who made the latest action, when the server says so: ``{seat, by}`` with ``by`` one
 * of person, bot, standin, timer, auto (the game log's field), read from the state
 * message's ``last_action`` or the last entry of its ``log``; null when not told.
 */
export function latestBy(message) {
  // The game log's newest action (static/gamelog.js): entries with ``by``; notes have none.
  const logged = (message.log?.entries ?? []).filter((entry) => entry.by).at(-1);
  const last = message.last_action ?? message.view?.last_action ?? logged ?? null;
  return last && typeof last === "object" && last.by && Number.isInteger(last.seat) ? last : null;
}

/** A turn timer that ran out and acted for a seat: a bubble at that seat saying ``text``. */
export function timerNotice(message, memory, text) {
  const by = latestBy(message);
  const fresh = memory.byVersion !== undefined && memory.byVersion !== message.version;
  if (by && by.by === "timer" && fresh) pushBubble(memory, { seat: by.seat, text, kind: "timer" });
  memory.byVersion = message.version;
}
