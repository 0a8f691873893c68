// The rules of a game as implemented, in the page's language.

import { api, h, setRulesGame } from "./dom.js";
import { lang, t } from "./i18n.js";

/** ``current()`` is false once the page went elsewhere meanwhile: then nothing is drawn. */
export async function showRules(root, game, current = () => true) {
  setRulesGame(game);
  const { rules } = await api("/api/games");
  const response = await fetch(`/api/rules/${encodeURIComponent(game)}/${lang}?format=html`);
  const article = h("article.panel.rules");
  if (response.ok) {
    // Rendered on the server from the package's own Markdown, with raw HTML escaped.
    article.innerHTML = await response.text();
  } else {
    article.append(h("p.error", {}, t("error.no_rules", { game, lang })));
  }
  const nav = h("nav.rule-games", {}, rules.map((g) => h("a", { href: `/rules/${g.name}`, "data-link": "" }, g.titles?.[lang] || g.name)));
  if (!current()) return;
  root.replaceChildren(h("div.rules-page", {}, nav, article));
}
