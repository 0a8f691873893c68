// Correspondence tables in the page: the "your turn" list (lobby, own profile), the
// deadlines in words, and the browser's notifications (docs/web-protocol.md,
// "Correspondence tables"). Deadlines are counted down from the server's clock (the
// `now` of its answers), never from the browser's: the two may differ by days.

import { api, h } from "./dom.js";
import { lang, t } from "./i18n.js";

/** The server's time now (ms), from its ``now`` read at ``at`` (``performance.now()``). */
export function serverNow(now, at) {
  return now + (performance.now() - at);
}

/** A deadline as a local date and time: "Fri, 13 Mar, 14:00". */
export function dateTime(ms) {
  return new Date(ms).toLocaleString(lang, { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}

/** A span of time in words: "2 days 3 h", "22 h 5 min", "12 min"; whole minutes, rounded
 * up (the time left: "1 min" until it is up) or, with ``down``, down (the time overdue). */
export function span(ms, down = false) {
  const minutes = Math.max(1, down ? Math.floor(ms / 60000) : Math.ceil(ms / 60000));
  const parts = [];
  if (minutes >= 48 * 60) {
    const days = Math.floor(minutes / 1440);
    const hours = Math.floor((minutes % 1440) / 60);
    parts.push(t("corr.days", { n: days }));
    if (hours) parts.push(t("corr.hours", { n: hours }));
  } else if (minutes >= 60) {
    const hours = Math.floor(minutes / 60);
    parts.push(t("corr.hours", { n: hours }));
    if (minutes % 60) parts.push(t("corr.minutes", { n: minutes % 60 }));
  } else {
    parts.push(t("corr.minutes", { n: minutes }));
  }
  return parts.join(" ");
}

/** How long is left until ``deadline`` at server time ``now``, or how long it is overdue. */
export function leftText(deadline, now) {
  return deadline > now ? t("corr.left", { time: span(deadline - now) }) : t("corr.overdue", { time: span(now - deadline, true) });
}

/** A correspondence table's time for each move: "24 h", "2 days". */
export function moveTime(seconds) {
  const hours = Math.round(seconds / 3600);
  return hours >= 48 && hours % 24 === 0 ? t("corr.days", { n: hours / 24 }) : t("corr.hours", { n: hours });
}

/** "Correspondence · 24 h per move" (and whether a bot moves when the time is up). */
export function correspondenceText(correspondence) {
  const line = t("corr.table_note", { time: moveTime(correspondence.move_seconds) });
  return correspondence.standin ? `${line} · ${t("corr.standin_short")}` : line;
}

/** Whether this browser can show notifications and the person allowed them. */
export function mayNotify() {
  return "Notification" in window && Notification.permission === "granted";
}

/** A notification of the browser that a move at ``table`` is due (one per table: ``tag``). */
export function notifyTurn(table, game, deadline) {
  if (!mayNotify()) return;
  try {
    new Notification(t("corr.notify_title", { game }), {
      body: deadline ? t("corr.notify_body", { date: dateTime(deadline) }) : "",
      tag: table,
    });
  } catch {
    // (a browser that shows notifications only from a service worker: the list says it)
  }
}

/**
 * The "your turn" panel: the moves the person logged in owes, each linking to its table.
 * ``refresh()`` reads ``GET /api/turns`` again; with ``notify``, a table the list gains
 * (after the first reading) is told as a notification, and a button asks for the
 * permission while the browser has not been told yet. ``title(game)`` names a game.
 */
export function turnsPanel(title, { notify = false } = {}) {
  const panel = h("section.panel.turns", { "aria-live": "polite" }, h("h2", {}, t("corr.turns_title")), h("p.muted", {}, "…"));
  let known = null;
  let shown = null;

  const askButton = () => {
    if (!notify || !("Notification" in window) || Notification.permission !== "default") return null;
    return h("button.small.notify-ask", {
      type: "button",
      onclick: async () => {
        await Notification.requestPermission().catch(() => "default");
        draw();
      },
    }, t("corr.notify_button"));
  };

  const draw = () => {
    if (!shown) return;
    const now = serverNow(shown.now, shown.at);
    const rows = shown.turns.map((turn) => {
      const overdue = turn.deadline <= now;
      return h(`li.turn${overdue ? ".overdue" : ""}`, { "data-table": turn.table },
        h("a", { href: turn.url, "data-link": "" }, title(turn.game)),
        h("span.turn-deadline", {}, t("corr.deadline", { date: dateTime(turn.deadline) })),
        h(`span.turn-left${overdue ? ".tag.late" : ""}`, {}, leftText(turn.deadline, now)));
    });
    const ask = askButton();
    panel.replaceChildren(h("h2", {}, t("corr.turns_title")),
      rows.length ? h("ul.turn-list", {}, rows) : h("p.muted.no-turns", {}, t("corr.no_turns")),
      ...(ask ? [ask] : []));
    panel.dataset.count = String(rows.length);
  };

  const refresh = async () => {
    const data = await api("/api/turns");
    shown = { turns: data.turns, now: data.now, at: performance.now() };
    const ids = new Set(data.turns.map((turn) => turn.table));
    if (notify && known) {
      for (const turn of data.turns) {
        if (!known.has(turn.table)) notifyTurn(turn.table, title(turn.game), turn.deadline);
      }
    }
    known = ids;
    draw();
  };

  return { panel, refresh, draw };
}
