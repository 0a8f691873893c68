// Who is at the table, the pause and the wait between deals: the same for every game.
//
// The server's table summary says it all: `paused`, each seat's `presence`
// (present, away, standin) and `between_deals` ({deal, ready, waiting, deadline}).
// table.js calls held() before drawing (nothing may be played while the table holds)
// and drawPresence() after the game's renderer drew; the renderers ask
// gateSummary() whether to show the summary of the deal just over.

import { h } from "./dom.js";
import { t } from "./i18n.js";

function names(table, seats) {
  return seats.map((s) => table.seats[s]?.name || `#${s + 1}`).join(", ");
}

/** Whether the table holds play now: paused, or waiting between deals. */
export function held(table) {
  return Boolean(table?.paused || table?.between_deals);
}

/** Whether this page still has to say "next" for the deal that just ended. */
export function mustSayReady(message, memory) {
  const gate = message.table.between_deals;
  const you = message.table.you;
  return Boolean(gate) && you !== null && gate.waiting.includes(you) && memory.readyFor !== message.version;
}

/**
 * The deal whose summary opens by itself: the one just over, while the next waits
 * for "next" (until this page said it, or closed the summary; the status line opens
 * it again); else null. Once the next deal starts the summary closes: it never
 * covers a deal being played.
 */
export function gateSummary(message, memory) {
  const gate = message.table.between_deals;
  if (!gate) return null;
  if (memory.gateOpen === message.version) return gate.deal;
  if (memory.gateClosed === message.version || memory.readyFor === message.version) return null;
  return gate.deal;
}

function closeSummary(message, ctx) {
  ctx.memory.gateClosed = message.version;
  ctx.memory.gateOpen = null;
  ctx.rerender();
}

/**
 * The buttons of the summary of ``deal`` while the next deal waits: "Close" and
 * "Next deal" (only "Close" once this page said it, and for spectators); null when
 * the next deal does not wait for this summary.
 */
export function gateButtons(message, ctx, deal) {
  const gate = message.table.between_deals;
  if (!gate || gate.deal !== deal || gateSummary(message, ctx.memory) !== deal) return null;
  if (!mustSayReady(message, ctx.memory)) {
    return [h("button.primary.gate-close", { onclick: () => closeSummary(message, ctx) }, t("ui.close"))];
  }
  return [
    h("button.gate-close", { onclick: () => closeSummary(message, ctx) }, t("ui.close")),
    h("button.primary.gate-next", { onclick: () => ctx.ready() }, t("gate.next")),
  ];
}

function gateBar(message, ctx) {
  const { table } = message;
  const gate = table.between_deals;
  const you = table.you;
  const others = gate.waiting.filter((s) => s !== you);
  const parts = [h("span.gate-text", {}, t("gate.deal_over"))];
  if (mustSayReady(message, ctx.memory)) {
    parts.push(h("button.primary.small.gate-next", { onclick: () => ctx.ready() }, t("gate.next")));
  } else if (others.length) {
    parts.push(h("span.gate-waiting", {}, t("gate.waiting_for", { names: names(table, others) })));
  }
  if (gateSummary(message, ctx.memory) === null) {
    const open = () => { ctx.memory.gateOpen = message.version; ctx.rerender(); };
    parts.push(h("button.small.gate-summary", { onclick: open }, t("gate.summary")));
  }
  parts.push(h("span.gate-timer"));
  return parts;
}

function pausedText(table) {
  const away = table.seats.map((s, i) => (s.presence === "away" || s.presence === "standin" ? i : null)).filter((i) => i !== null);
  return t("presence.paused", { names: names(table, away) });
}

/**
 * After the renderer drew: the status line tells of a pause or of the wait between
 * deals (with "Next deal"), and the root element carries the table's state for whoever
 * watches the page (tools, tests): data-paused, data-between (the deal just over) and
 * data-waiting (the seats still to say "next").
 */
export function drawPresence(root, message, ctx) {
  const { table } = message;
  const gate = table.between_deals;
  if (table.paused) root.dataset.paused = "1";
  else delete root.dataset.paused;
  if (gate) {
    root.dataset.between = String(gate.deal);
    root.dataset.waiting = gate.waiting.join(",");
  } else {
    delete root.dataset.between;
    delete root.dataset.waiting;
  }
  for (const seat of root.querySelectorAll(".felt .seat[data-seat]")) {
    const info = table.seats[Number(seat.dataset.seat)];
    if (info?.presence) seat.dataset.presence = info.presence;
  }
  if (!held(table) || table.status !== "playing") return;
  const status = root.querySelector(".main .status");
  if (!status) return;
  status.classList.remove("mine");
  status.classList.add("held");
  if (table.paused) {
    status.classList.add("paused");
    status.replaceChildren(h("span.paused-note", {}, pausedText(table)));
  } else {
    status.classList.add("between");
    status.replaceChildren(...gateBar(message, ctx));
  }
}

/** The countdown of the wait between deals (called every second). */
export function tickPresence(root, message) {
  const el = root.querySelector(".gate-timer");
  if (!el) return;
  const deadline = message?.table?.between_deals?.deadline;
  el.textContent = deadline ? t("gate.starts_in", { n: Math.max(0, Math.round((deadline - Date.now()) / 1000)) }) : "";
}
