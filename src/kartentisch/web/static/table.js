// A table in real time: the WebSocket, the waiting room, and the game screen
// drawn by the game's own renderer (games/<name>.js).

import { forgetSeat, h, savedSeat, saveSeat, setRulesGame, toast } from "./dom.js";
import { fitTrick } from "./felt.js";
import { drawChat, takeChat } from "./chat.js";
import { inviteBox } from "./friends.js";
import { drawLog, logHello, takeLog } from "./gamelog.js";
import { lang, t } from "./i18n.js";
import { applyPatch } from "./patch.js";
import { join } from "./lobby.js";
import { drawPresence, held, tickPresence } from "./presence.js";
import { correspondenceText, dateTime, leftText, notifyTurn, serverNow } from "./turns.js";


// Refusals of a hint: the button may be pressed again.
const HINT_REFUSALS = ["hints_off", "hint_not_your_turn", "hint_pending", "analysis_busy", "analysis_timeout"];

const RENDERERS = {
  slobberhannes: () => import("./games/slobberhannes.js"),
  doppelkopf: () => import("./games/doppelkopf.js"),
  slapjack: () => import("./games/slapjack.js"),
  "irish-snap": () => import("./games/slapjack.js"),
};

export class TableScreen {
  constructor(root, tableId, navigate) {
    this.root = root;
    this.id = tableId;
    this.navigate = navigate;
    this.message = null;
    this.closed = false;
    this.retry = 0;
    this.renderer = null;
    this.memory = {}; // what the renderer keeps between states (open dialogs …)
    this.clock = setInterval(() => this.tick(), 1000);
    // The layout reserves a column for the game log (style.css, "the table screen").
    this.root.classList.add("table-screen");
    // Some places on the felt depend on the width: draw again when it changes.
    this.resized = () => {
      if (this.resizing) return;
      this.resizing = requestAnimationFrame(() => {
        this.resizing = null;
        if (this.message?.view) this.render();
      });
    };
    window.addEventListener("resize", this.resized);
    // A resume link (/t/ID#seat=N&token=T) moves a seat to another browser.
    const resume = new URLSearchParams(location.hash.slice(1));
    if (resume.get("token")) {
      saveSeat(tableId, Number(resume.get("seat") ?? -1), resume.get("token"));
      history.replaceState(null, "", location.pathname);
    }
    this.root.replaceChildren(h("p.muted", {}, t("ui.connecting")));
    this.connect();
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/ws/tables/${encodeURIComponent(this.id)}`);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.retry = 0;
      this.hello();
    });
    ws.addEventListener("message", (event) => this.receive(JSON.parse(event.data)));
    ws.addEventListener("close", (event) => {
      if (this.closed || ws !== this.ws || this.expired) return;
      if (event.code === 4404) {
        this.root.replaceChildren(h("p.error", {}, t("error.no_such_table")));
        return;
      }
      if (event.code === 4409) {
        // The table is set aside (its stored game cannot be read): coming back is no use.
        this.root.replaceChildren(h("p.error", {}, t("error.table_unreadable")));
        return;
      }
      const wait = Math.min(10000, 1000 * 2 ** this.retry++);
      this.setBanner(t("ui.reconnecting"));
      setTimeout(() => !this.closed && this.connect(), wait);
    });
  }

  hello() {
    const seat = savedSeat(this.id);
    // The game log this page holds already: the server sends only the rest.
    // Each state after the first may come as a patch against the one before (patch.js).
    this.resyncing = false;
    this.send({ type: "hello", token: seat?.token, lang, patches: true, ...logHello(this.memory) });
  }

  send(message) {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
    else if (message.type !== "hello") toast(t("ui.reconnecting"), "error"); // a click would be lost silently
  }

  act(action) {
    const version = this.message?.version ?? 0;
    // The version the last action was made on (data-sent), beside the version drawn
    // (data-version): once the page drew a newer one, the server has answered.
    this.root.dataset.sent = String(version);
    this.send({ type: "act", action, version });
  }

  /** Between deals: this seat is ready for the next deal (the summary closes). */
  ready() {
    const version = this.message?.version ?? 0;
    this.memory.readyFor = version;
    this.memory.gateOpen = null;
    this.send({ type: "ready", version });
    this.render();
  }

  destroy() {
    this.closed = true;
    clearInterval(this.clock);
    window.removeEventListener("resize", this.resized);
    this.root.classList.remove("table-screen");
    delete this.root.dataset.layout;
    this.renderer?.destroy?.(this.memory);
    delete this.root.dataset.version;
    delete this.root.dataset.sent;
    for (const key of ["paused", "between", "waiting", "storage"]) delete this.root.dataset[key];
    this.ws?.close();
  }

  receive(message) {
    if (message.type === "ping" && message.nonce) {
      // A real-time table measures the line: answer at once, before anything else.
      this.send({ type: "pong", nonce: message.nonce });
    } else if (message.type === "patch") {
      if (this.resyncing) return; // a whole state is on its way: patches before it are of no use
      const state = applyPatch(this.message, message);
      if (state === null) {
        // Not made against the state this page holds: ask for the whole state.
        this.resyncing = true;
        this.send({ type: "resync" });
        return;
      }
      this.receive(state);
    } else if (message.type === "state") {
      this.resyncing = false;
      // The log's part now: a render busy meanwhile draws only the newest state.
      takeLog(this.memory, message.log);
      this.message = message;
      // The server's clock when it sent this: a correspondence deadline counts down from it.
      this.receivedAt = performance.now();
      this.tellTurn(message);
      this.setBanner("");
      this.render();
    } else if (message.type === "chat" || message.type === "chat_history") {
      takeChat(this.memory, message);
      if (this.message) drawChat(this.root, this.memory, this.message.table, (m) => this.send(m));
    } else if (message.type === "hint") {
      // The strong bot's suggestion, for the version it was asked at (drawn while current).
      this.memory.hint = { version: message.version, action: message.action, reason: message.reason };
      if (this.message?.view) this.render();
    } else if (message.type === "reported") {
      toast(t("chat.reported"));
    } else if (message.type === "notice") {
      this.notice(message);
    } else if (message.type === "error") {
      if (message.code === "table_expired") {
        // Nobody started it in time: the server closes the table for good (no reconnecting).
        this.expired = true;
        this.root.replaceChildren(h("p.error", {}, message.message));
        return;
      }
      if (message.code === "bad_token") {
        forgetSeat(this.id);
        this.send({ type: "hello", lang, patches: true });
      }
      if (message.code === "stale_version") return; // the newer state follows
      if (HINT_REFUSALS.includes(message.code)) this.memory.hintAsked = null; // ask again later
      if (message.code !== "bad_token" && this.renderer && this.message?.view) {
        // Why the action was refused, beside the hand or the buttons (felt.js whyLine),
        // until the next state; a toast where the screen has no such line.
        this.memory.why = { code: message.code, text: message.message, version: message.version ?? this.message.version, at: Date.now() };
        this.render();
        if (this.root.querySelector(".why")) return;
      }
      toast(message.message, "error");
    }
  }

  /**
   * At a correspondence table: a notification when a state makes it this page's move
   * while the page is hidden (another tab, a window in the background), once per move.
   */
  tellTurn(message) {
    const view = message.view;
    const mine = Boolean(view) && view.seat !== null && view.seat !== undefined && view.to_move === view.seat && !view.over;
    const before = this.wasMine;
    this.wasMine = mine;
    if (!mine || before !== false || !message.table?.correspondence || !document.hidden) return;
    const table = message.table;
    notifyTurn(this.id, table.titles?.[lang] || table.game, table.turn_deadline);
  }

  /**
   * What the table does meanwhile: storage_wait (the server cannot save; nothing can be
   * played until it can: the status line says so, data-storage="wait"), storage_back
   * (it can again: a toast, and the state follows).
   */
  notice(message) {
    if (message.code === "storage_wait") {
      this.storageWait = message.message || t("notice.storage_wait");
      this.root.dataset.storage = "wait";
    } else if (message.code === "storage_back") {
      this.storageWait = null;
      delete this.root.dataset.storage;
      toast(message.message || t("notice.storage_back"));
    }
    if (this.message?.view) this.render();
    else if (this.storageWait) this.root.replaceChildren(h("p.storage-note", { role: "status" }, this.storageWait));
  }

  setBanner(text) {
    const banner = document.getElementById("banner");
    if (banner) banner.textContent = text;
  }

  async render() {
    const { view, table } = this.message;
    setRulesGame(table.game);
    if (!view) {
      this.root.replaceChildren(this.waitingRoom(table));
      return;
    }
    if (!this.renderer) {
      const load = RENDERERS[table.game];
      if (!load) {
        this.root.replaceChildren(h("p.error", {}, table.game));
        return;
      }
      const renderer = await load();
      // The game's own style sheet first: the table is never drawn (nor measured) without it.
      await renderer.ready?.();
      if (this.closed) return; // the page went elsewhere meanwhile
      this.renderer = renderer;
    }
    // While the table holds (paused, or between deals) nothing may be played: the
    // renderer is shown no legal action, and the status line says why.
    // While the server cannot save (a storage_wait notice) nothing may be played either.
    const holding = held(table) || Boolean(this.storageWait);
    const shown = holding ? { ...this.message, view: { ...view, legal: [] } } : this.message;
    const ctx = {
      act: (action) => this.act(action),
      ready: () => this.ready(),
      memory: this.memory,
      tableId: this.id,
      rerender: () => this.render(),
    };
    this.renderer.render(this.root, shown, ctx);
    drawPresence(this.root, this.message, ctx);
    this.drawCorrespondence();
    this.drawHint();
    if (this.storageWait) {
      const status = this.root.querySelector(".main .status");
      if (status) {
        status.classList.remove("mine");
        status.classList.add("held");
        status.replaceChildren(h("span.storage-note", { role: "status" }, this.storageWait));
      } else {
        toast(this.storageWait, "error");
      }
    }
    // The game log: one aside.game-log, kept as the last child of the table root.
    drawLog(this.root, this.message, ctx);
    drawChat(this.root, this.memory, this.message.table, (m) => this.send(m));
    // The trick's places clear of the seat boxes, as they were laid out (felt.js).
    fitTrick(this.root);
    // The version drawn, for whoever watches the page (tools, tests): it changes
    // with every state the server sends, accepted actions and refusals alike.
    this.root.dataset.version = String(this.message.version);
    // Whose turn it is ("" when nobody's: a real-time game, the end) and the page's seat.
    const drawn = this.message.view;
    this.root.dataset.turn = drawn && drawn.to_move !== null && drawn.to_move !== undefined && !drawn.over ? String(drawn.to_move) : "";
    this.root.dataset.you = this.message.table?.you ?? "";
    // The viewport the screen was laid out for (a test resizes, then waits for this).
    this.root.dataset.layout = `${window.innerWidth}x${window.innerHeight}`;
    this.tick();
  }

  /** A correspondence table says so below the status line: the time for each move. */
  drawCorrespondence() {
    const corr = this.message?.table?.correspondence;
    const main = this.root.querySelector(".game .main");
    if (!corr || !main) return;
    const note = h("p.corr-note", {}, correspondenceText(corr));
    const status = main.querySelector(":scope > .status");
    if (status) status.after(note);
    else main.prepend(note);
  }

  /** At a table whose host allowed hints: the Hint button at this seat's turn, and the
   * suggestion once the server answered (only for the version it was asked at). */
  drawHint() {
    const { view, table } = this.message;
    const main = this.root.querySelector(".game .main");
    if (!table.hints || !view || !main || table.you === null || table.you === undefined) return;
    if (view.over || view.to_move !== table.you || held(table) || !(view.legal || []).length) return;
    const version = this.message.version;
    const got = this.memory.hint?.version === version ? this.memory.hint : null;
    const waiting = this.memory.hintAsked === version && !got;
    const ask = () => {
      this.memory.hintAsked = version;
      this.send({ type: "hint", version });
      this.render();
    };
    const action = got ? (this.renderer?.actionText?.(got.action) ?? got.action) : null;
    const bar = h("p.hint-bar", {},
      got ? null : h("button.small.hint-button", { onclick: ask, disabled: waiting }, t(waiting ? "hint.working" : "hint.button")),
      got ? h("span.hint-text", {}, h("strong", {}, t("hint.suggest", { action })), " — ", got.reason) : null);
    const status = main.querySelector(":scope > .status");
    if (status) status.after(bar);
    else main.prepend(bar);
  }

  tick() {
    tickPresence(this.root, this.message);
    const table = this.message?.table;
    const deadline = table?.turn_deadline;
    const el = this.root.querySelector(".timer");
    if (!el) return;
    if (!deadline) {
      el.textContent = "";
      return;
    }
    if (table.correspondence) {
      // Hours or days: the date and time it is due, and what is left of it on the server's clock.
      const now = serverNow(table.now, this.receivedAt);
      el.classList.add("corr-deadline");
      el.classList.toggle("overdue", deadline <= now);
      el.textContent = t("corr.deadline_left", { date: dateTime(deadline), left: leftText(deadline, now) });
      return;
    }
    const left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
    el.textContent = t("ui.seconds_left", { n: left });
  }

  waitingRoom(table) {
    const you = table.you;
    const link = `${location.origin}/t/${table.id}`;
    const linkInput = h("input.link", { value: link, readonly: true, "aria-label": t("ui.invite_link") });
    const copy = h("button", {
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(link);
          toast(t("ui.copied"));
        } catch {
          linkInput.select();
        }
      },
    }, t("ui.copy"));
    const seats = table.seats.map((seat, i) => {
      let who;
      if (seat.kind === "open") {
        who = you === null
          ? h("button", { onclick: () => join(table, this.navigate, i).then(() => this.reconnect()) }, t("lobby.join"))
          : h("span.muted", {}, t("lobby.seat_free"));
      } else {
        who = h("span", {}, seat.name, seat.kind === "bot" ? ` (${t("ui.bot")})` : "", i === you ? ` — ${t("ui.you")}` : "");
      }
      return h("li", {}, h("span.seat-no", {}, t("lobby.seat_n", { n: i + 1 })), " ", who);
    });
    return h("section.panel.waiting", {},
      h("h2", {}, table.titles?.[lang] || table.game, " — ", t("status.waiting")),
      table.rules_name ? h("p.table-rules", {}, t("lobby.rules_named", { name: table.rules_name })) : null,
      table.correspondence ? h("p.corr-note", {}, correspondenceText(table.correspondence)) : null,
      h("p", {}, t("ui.invite")),
      table.private ? h("p.muted.private-note", {}, t("lobby.private_note")) : null,
      h("div.row", {}, linkInput, copy),
      you !== null ? inviteBox(table.id) : null,
      h("ol.seats", {}, seats),
      you !== null ? h("button.primary", { onclick: () => this.send({ type: "start" }) }, t("ui.start_now")) : h("p.muted", {}, t("ui.spectating")),
      h("p#banner.muted"));
  }

  reconnect() {
    this.hello();
  }
}
