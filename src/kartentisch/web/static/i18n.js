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

/** The message ``key`` with ``{name}`` fields filled from ``params``. */
export function t(key, params = {}) {
  const text = messages[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}
