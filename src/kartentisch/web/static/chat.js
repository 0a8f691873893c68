// The table's chat: the players' messages (read by everyone at the table) and the
// spectators' (read by spectators only), quick phrases in the reader's language,
// muting an author (in this browser) and reporting a message (kept for the admin).
// Every message is drawn as text, never as markup.

import { api, h, toast } from "./dom.js";
import { lang, t } from "./i18n.js";

const PHRASES = ["hello", "good_luck", "well_played", "thanks", "sorry", "one_moment", "good_game", "bye"];
const KEPT = 50;
const MUTED_KEY = "kt.muted";

function chatStore(memory) {
  memory.chat ??= { messages: [], el: null, list: null, unread: 0 };
  return memory.chat;
}

function mutedNames() {
  try {
    return new Set(JSON.parse(localStorage.getItem(MUTED_KEY) || "[]"));
  } catch {
    return new Set();
  }
}

function author(said) {
  return said.from ?? t("chat.spectator", { n: said.spectator });
}

/** A ``chat`` or ``chat_history`` message from the server, kept for the next draw. */
export function takeChat(memory, message) {
  const chat = chatStore(memory);
  const incoming = message.type === "chat_history" ? message.messages : [message];
  const known = new Set(chat.messages.map((m) => m.id));
  for (const said of incoming) if (!known.has(said.id)) chat.messages.push(said);
  chat.messages.sort((a, b) => a.id - b.id);
  chat.messages.splice(0, Math.max(0, chat.messages.length - KEPT));
  if (chat.el && !chat.el.open && message.type === "chat") chat.unread += 1;
}

/** The panel's own words (the language may change while the panel is kept). */
function relabel(chat) {
  const input = chat.form.querySelector(".chat-input");
  input.placeholder = t("chat.placeholder");
  input.setAttribute("aria-label", t("chat.placeholder"));
  chat.form.querySelector("button[type=submit]").textContent = t("chat.send");
  const quick = chat.el.querySelector(".chat-quick");
  quick.setAttribute("aria-label", t("chat.quick"));
  for (const button of quick.querySelectorAll("button[data-phrase]")) button.textContent = t(`chat.phrase.${button.dataset.phrase}`);
  chat.drawnLang = lang;
}

/** The chat panel, kept across draws (its input keeps what is being typed). */
export function drawChat(root, memory, table, send) {
  const chat = chatStore(memory);
  const spectator = table.you === null || table.you === undefined;
  if (spectator && table.spectator_chat === "off" && !chat.messages.length) {
    chat.el?.remove();
    return;
  }
  if (!chat.el) {
    chat.list = h("ol.chat-messages", { "aria-live": "polite" });
    const input = h("input.chat-input", { maxlength: 300, "aria-label": t("chat.placeholder"), placeholder: t("chat.placeholder"), autocomplete: "off" });
    const form = h("form.chat-form", {
      onsubmit: (event) => {
        event.preventDefault();
        const text = input.value.trim();
        if (!text) return;
        send({ type: "chat", text });
        input.value = "";
      },
    }, input, h("button", { type: "submit" }, t("chat.send")));
    const quick = h("div.chat-quick", { role: "group", "aria-label": t("chat.quick") },
      PHRASES.map((p) => h("button.quick", { type: "button", "data-phrase": p, onclick: () => send({ type: "chat", phrase: p }) }, t(`chat.phrase.${p}`))));
    chat.summary = h("summary", {});
    chat.el = h("details.chat", { open: window.innerWidth >= 1000 ? true : null }, chat.summary, chat.list, quick, form);
    chat.el.addEventListener("toggle", () => {
      if (chat.el.open) chat.unread = 0;
      drawSummary(chat, spectator);
    });
    chat.form = form;
  }
  if (chat.drawnLang !== lang) relabel(chat);
  const canWrite = !(spectator && table.spectator_chat === "off");
  chat.form.hidden = !canWrite;
  chat.el.querySelector(".chat-quick").hidden = !canWrite;
  drawSummary(chat, spectator);
  const muted = mutedNames();
  const shown = chat.messages.filter((m) => !muted.has(author(m)));
  chat.list.replaceChildren(...(shown.length ? shown.map((m) => line(m, send, memory, root, table)) : [h("li.muted", {}, t("chat.empty"))]));
  chat.list.scrollTop = chat.list.scrollHeight;
  // The newest message this page has (shown or muted), for whoever watches the page.
  chat.el.dataset.last = String(chat.messages.at(-1)?.id ?? 0);
  // Before the game log, which stays the root's last child (the layout places both).
  const log = root.querySelector(":scope > aside.game-log");
  if (log) {
    if (chat.el.nextElementSibling !== log) root.insertBefore(chat.el, log);
  } else if (chat.el.parentNode !== root || root.lastElementChild !== chat.el) {
    root.append(chat.el);
  }
}

function drawSummary(chat, spectator) {
  const title = spectator ? t("chat.spectators_title") : t("chat.title");
  chat.summary.replaceChildren(title, chat.unread ? h("span.tag.unread", {}, String(chat.unread)) : "");
}

function line(said, send, memory, root, table) {
  const name = author(said);
  const words = said.phrase ? t(`chat.phrase.${said.phrase}`) : said.text;
  const mine = said.seat !== null && said.seat === table.you;
  return h(`li.chat-line.${said.channel}`, { "data-id": said.id },
    h("strong.chat-author", {}, name), ": ", h("span.chat-text", {}, words),
    mine ? null : h("span.chat-tools", {},
      h("button.link.chat-mute", { type: "button", title: t("chat.mute"), onclick: () => {
        const muted = mutedNames();
        muted.add(name);
        localStorage.setItem(MUTED_KEY, JSON.stringify([...muted]));
        toast(t("chat.muted", { name }));
        drawChat(root, memory, table, send);
      } }, t("chat.mute")),
      h("button.link.chat-report", { type: "button", onclick: () => send({ type: "report", id: said.id }) }, t("chat.report"))));
}

/** The lobby's chat: polled with the table list; a person logged in may write. */
export function lobbyChat(loggedIn) {
  const state = { last: 0, messages: [] };
  const list = h("ol.chat-messages", { "aria-live": "polite" });
  const input = h("input.chat-input", { maxlength: 300, "aria-label": t("chat.placeholder"), placeholder: t("chat.placeholder"), autocomplete: "off" });
  const say = async (body) => {
    try {
      const said = await api(`/api/lobby/chat?lang=${lang}`, { method: "POST", body });
      take([said]);
    } catch (error) {
      toast(error.message, "error");
    }
  };
  const form = h("form.chat-form", {
    onsubmit: (event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      input.value = "";
      say({ text });
    },
  }, input, h("button", { type: "submit" }, t("chat.send")));
  const quick = h("div.chat-quick", { role: "group", "aria-label": t("chat.quick") },
    PHRASES.map((p) => h("button.quick", { type: "button", "data-phrase": p, onclick: () => say({ phrase: p }) }, t(`chat.phrase.${p}`))));
  const panel = h("section.panel.chat.lobby-chat", {}, h("h2", {}, t("chat.lobby_title")), list,
    loggedIn ? [quick, form] : h("p.muted.small", {}, t("chat.lobby_login")));
  function draw() {
    const muted = mutedNames();
    const shown = state.messages.filter((m) => !muted.has(m.from));
    list.replaceChildren(...(shown.length ? shown.map((said) => h("li.chat-line", { "data-id": said.id },
      h("strong.chat-author", {}, said.from), ": ",
      h("span.chat-text", {}, said.phrase ? t(`chat.phrase.${said.phrase}`) : said.text),
      h("span.chat-tools", {},
        h("button.link.chat-mute", { type: "button", onclick: () => {
          const names = mutedNames();
          names.add(said.from);
          localStorage.setItem(MUTED_KEY, JSON.stringify([...names]));
          toast(t("chat.muted", { name: said.from }));
          draw();
        } }, t("chat.mute")),
        h("button.link.chat-report", { type: "button", onclick: async () => {
          try {
            await api(`/api/lobby/chat/report?lang=${lang}`, { method: "POST", body: { id: said.id } });
            toast(t("chat.reported"));
          } catch (error) {
            toast(error.message, "error");
          }
        } }, t("chat.report"))))) : [h("li.muted", {}, t("chat.empty"))]));
    list.scrollTop = list.scrollHeight;
    panel.dataset.last = String(state.messages.at(-1)?.id ?? 0);
  }
  function take(messages) {
    const known = new Set(state.messages.map((m) => m.id));
    for (const said of messages) if (!known.has(said.id)) state.messages.push(said);
    state.messages.sort((a, b) => a.id - b.id);
    state.messages.splice(0, Math.max(0, state.messages.length - KEPT));
    state.last = Math.max(state.last, ...state.messages.map((m) => m.id), 0);
    draw();
  }
  async function poll() {
    const data = await api(`/api/lobby/chat?after=${state.last}`);
    take(data.messages);
  }
  draw();
  return { panel, poll };
}
