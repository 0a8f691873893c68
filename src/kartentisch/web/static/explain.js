// A deal's value in words: the server sends the explanation as lines
// {key, params} of the catalog (kartentisch.explain), this writes them in the
// page's language. A parameter is a number or a string, {seats: [..]} (names),
// {t: key, params} (another text), {list: [..]} (joined by commas) or
// {signed: n} (+10 / −10) — the same rules as kartentisch.explain.render_line.

import { h } from "./dom.js";
import { t } from "./i18n.js";

function nameOf(names, seat) {
  return (names && names[seat]) || `#${seat + 1}`;
}

/** One parameter as text. */
export function explainParam(value, names = []) {
  if (value && typeof value === "object") {
    if (Array.isArray(value.seats)) return value.seats.map((s) => nameOf(names, s)).join(", ");
    if (typeof value.t === "string") return explainLine({ key: value.t, params: value.params || {} }, names);
    if (Array.isArray(value.list)) return value.list.map((v) => explainParam(v, names)).join(", ");
    if (typeof value.signed === "number") return value.signed >= 0 ? `+${value.signed}` : `−${-value.signed}`;
  }
  return String(value);
}

/** One line {key, params} as text in the page's language. */
export function explainLine(line, names = []) {
  const params = {};
  for (const [name, value] of Object.entries(line.params || {})) {
    params[name] = name === "n" && typeof value === "number" ? value : explainParam(value, names);
  }
  return t(line.key, params);
}

/** The explanation of a deal as a list element (one item per line); ``names`` are the seats' names. */
export function explainDeal(lines, names = []) {
  return h("ul.explain", { "data-explain": "" },
    (lines || []).map((line) => h("li", { "data-key": line.key }, explainLine(line, names))));
}
