// Small DOM helpers: elements are built with text content, never from strings
// that hold names or other input.

import { lang } from "./i18n.js";

const sheets = new Map();

/** The style sheet ``href``, added to the page once; a promise that it loaded (or failed to). */
export function styleSheet(href) {
  if (!sheets.has(href)) {
    const link = h("link", { rel: "stylesheet", href });
    sheets.set(href, new Promise((resolve) => {
      link.addEventListener("load", resolve, { once: true });
      link.addEventListener("error", resolve, { once: true });
    }));
    document.head.append(link);
  }
  return sheets.get(href);
}

/** ``h("div#id.seat.active", {title: "x", onclick: f}, child, "text")``; in ``style``,
 * custom properties (``--name``) too. */
export function h(tag, attrs = {}, ...children) {
  const [head, ...classes] = tag.split(".");
  const [name, id] = head.split("#");
  const el = document.createElement(name || "div");
  if (id) el.id = id;
  if (classes.length) el.className = classes.join(" ");
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "html") el.innerHTML = value; // only for SVG this page generates itself
    else if (key === "value") el.value = value;
    else if (key === "style") { // CSSOM: allowed by the page's CSP
      for (const [name, v] of Object.entries(value)) {
        if (name.startsWith("--")) el.style.setProperty(name, v);
        else el.style[name] = v;
      }
    }
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

// The header's rules link follows the game on screen: the lobby's choice, the
// table's game, the rules being read; in the page's language.
let rulesGame = "slobberhannes";

export function rulesHref() {
  return `/rules/${encodeURIComponent(rulesGame)}?lang=${lang}`;
}

export function setRulesGame(game) {
  if (!game) return;
  rulesGame = game;
  const link = document.querySelector("#top a.rules-link");
  if (link) link.setAttribute("href", rulesHref());
}

/**
 * The name the others see, asked in the page (never the browser's prompt) and remembered.
 * Resolves to the name, or null when the person cancels.
 */
export function askName(title, labels) {
  return new Promise((resolve) => {
    const input = h("input#ask-name", { maxlength: 24, required: true, autocomplete: "nickname", value: localStorage.getItem("kt.name") || "" });
    let done = false;
    const finish = (value) => {
      if (done) return;
      done = true;
      box.remove();
      resolve(value);
    };
    const form = h("form.modal-body.ask-name", {
      onsubmit: (event) => {
        event.preventDefault();
        const name = input.value.trim();
        if (!name) return;
        localStorage.setItem("kt.name", name);
        finish(name);
      },
    },
      h("label", {}, h("span", {}, title), input),
      h("div.row", {},
        h("button.primary", { type: "submit" }, labels.ok),
        h("button", { type: "button", onclick: () => finish(null) }, labels.cancel)));
    const box = h("div.modal", { role: "dialog", "aria-modal": "true", "aria-label": title }, form);
    box.addEventListener("keydown", (event) => event.key === "Escape" && finish(null));
    document.body.append(box);
    input.focus();
  });
}

let toastTimer = null;

/** A short message at the bottom of the page (errors from the server …). */
export function toast(text, kind = "info") {
  const box = document.getElementById("toast");
  box.textContent = text;
  box.className = `show ${kind}`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (box.className = ""), 4500);
}

/** The CSRF cookie's value (``GET /api/me`` sets it): every request that changes something
 * repeats it in ``X-CSRF-Token`` (docs/security.md). */
function csrfToken() {
  const found = document.cookie.split("; ").find((part) => part.startsWith("kt_csrf="));
  return found ? decodeURIComponent(found.slice("kt_csrf=".length)) : null;
}

export async function api(path, options = {}) {
  const headers = { "content-type": "application/json" };
  const method = (options.method || "GET").toUpperCase();
  if (method !== "GET" && method !== "HEAD" && csrfToken()) headers["x-csrf-token"] = csrfToken();
  const init = { headers, ...options };
  if (init.body && typeof init.body !== "string") init.body = JSON.stringify(init.body);
  const response = await fetch(path, init);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(data?.error?.message || response.statusText);
    error.code = data?.error?.code;
    // (a refused rule set: its stable code and what it names, e.g. a line and column)
    error.reason = data?.error?.reason;
    error.params = data?.error?.params || {};
    throw error;
  }
  return data;
}

// Seat tokens, by table id: a reload or a new tab resumes the seat.
export function savedSeat(tableId) {
  try {
    return JSON.parse(localStorage.getItem(`kt.seat.${tableId}`) || "null");
  } catch {
    return null;
  }
}

export function saveSeat(tableId, seat, token) {
  localStorage.setItem(`kt.seat.${tableId}`, JSON.stringify({ seat, token }));
}

export function forgetSeat(tableId) {
  localStorage.removeItem(`kt.seat.${tableId}`);
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** An SVG element (a chart's): ``svg("line", {x1: 0, …}, child, "text")``. */
export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  for (const child of children) el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return el;
}
