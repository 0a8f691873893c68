// The page's texts: the server's gettext catalog of one language as JSON.

export const LANGUAGES = ["de", "en", "ru"];
export const LANGUAGE_NAMES = { de: "Deutsch", en: "English", ru: "Русский" };

let messages = {};
export let lang = "en";

/** ``?lang=`` in the address, the language stored by the switcher, else the browser's first of de/en/ru. */
export function pickLanguage() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (LANGUAGES.includes(asked)) return asked;
  const stored = localStorage.getItem("kt.lang");
  if (LANGUAGES.includes(stored)) return stored;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const code = String(tag).slice(0, 2).toLowerCase();
    if (LANGUAGES.includes(code)) return code;
  }
  return "en";
}

export async function loadLanguage(code) {
  const response = await fetch(`/api/i18n/${code}`);
  if (!response.ok) throw new Error(`no catalog for ${code}`);
  const data = await response.json();
  messages = data.messages;
  lang = code;
  document.documentElement.lang = code;
  localStorage.setItem("kt.lang", code);
}

/** ``one``, ``few`` or ``many``: the plural form of ``n`` in the page's language (as kartentisch.i18n). */
export function pluralForm(n, code = lang) {
  const k = Math.abs(Number(n));
  if (code === "ru") {
    if (k % 10 === 1 && k % 100 !== 11) return "one";
    if (k % 10 >= 2 && k % 10 <= 4 && !(k % 100 >= 12 && k % 100 <= 14)) return "few";
    return "many";
  }
  return k === 1 ? "one" : "many";
}

/** Whether the catalog has ``key`` (or its plural forms). */
export function hasText(key) {
  return key in messages || `${key}.one` in messages;
}

/** The message ``key`` with ``{name}`` fields filled from ``params``; a number ``n``
 * picks the plural form ``key.one`` / ``key.few`` / ``key.many`` where the catalog has them. */
export function t(key, params = {}) {
  let text;
  if (typeof params.n === "number" && `${key}.one` in messages) {
    text = messages[`${key}.${pluralForm(params.n)}`] ?? messages[`${key}.many`];
  }
  text = text ?? messages[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}
