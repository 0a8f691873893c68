// Kartentisch in the browser: a tiny router over the lobby, a table, the rules and replays.

import { loadMe, me, showAccount, showLogin } from "./account.js";
import { h, rulesHref, toast } from "./dom.js";
import { showFriends } from "./friends.js";
import { showLeaderboard, showProfile } from "./players.js";
import { LANGUAGES, LANGUAGE_NAMES, loadLanguage, pickLanguage, t } from "./i18n.js";
import { leaveLobby, showLobby } from "./lobby.js";
import { leaveReplay, showReplay } from "./replay.js";
import { showRules } from "./rules.js";
import { TableScreen } from "./table.js";

const root = document.getElementById("app");
let screen = null;

function navigate(path, replace = false) {
  if (replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  route();
}

// Each route's number: a screen still loading when another route began (a link
// clicked before the lobby came) draws nothing, so the newer screen stays.
let routes = 0;

async function route() {
  const mine = ++routes;
  const current = () => mine === routes;
  leaveLobby();
  leaveReplay();
  screen?.destroy();
  screen = null;
  drawHeader();
  const path = location.pathname;
  try {
    let m;
    if ((m = path.match(/^\/t\/([\w-]+)$/))) {
      screen = new TableScreen(root, m[1], navigate);
    } else if ((m = path.match(/^\/rules\/([\w-]+)$/))) {
      await showRules(root, m[1], current);
    } else if (path === "/login" || path === "/signup") {
      showLogin(root, navigate, path === "/signup");
    } else if (path === "/account") {
      showAccount(root, navigate);
    } else if (path === "/friends") {
      await showFriends(root, navigate, current);
    } else if ((m = path.match(/^\/players\/([^/]+)$/))) {
      await showProfile(root, decodeURIComponent(m[1]), current);
    } else if ((m = path.match(/^\/leaderboard(?:\/([\w-]+))?$/))) {
      await showLeaderboard(root, m[1] || null, current);
    } else if ((m = path.match(/^\/replay(?:\/([\w-]+))?$/))) {
      await showReplay(root, m[1] || null, current, navigate);
    } else {
      await showLobby(root, navigate, current);
    }
  } catch (error) {
    toast(error.message, "error");
  }
}

function drawHeader() {
  const header = document.getElementById("top");
  const select = h("select#lang", { "aria-label": t("ui.language") },
    LANGUAGES.map((code) => h("option", { value: code }, LANGUAGE_NAMES[code])));
  select.value = document.documentElement.lang;
  select.addEventListener("change", async () => {
    await loadLanguage(select.value);
    document.title = t("ui.title");
    // A ?lang= in the address would undo the choice on the next reload.
    const url = new URL(location.href);
    if (url.searchParams.has("lang")) {
      url.searchParams.set("lang", select.value);
      history.replaceState(null, "", url);
    }
    if (screen) {
      // Keep the connection; the server's messages follow the new language too.
      screen.hello();
      drawHeader();
      screen.render();
    } else {
      route();
    }
  });
  header.replaceChildren(
    h("a.brand", { href: "/", "data-link": "", title: t("ui.title") }, "♣ ", h("span.brand-name", {}, t("ui.title"))),
    h("nav", {},
      h("a", { href: "/", "data-link": "" }, t("nav.lobby")),
      h("a.rules-link", { href: rulesHref(), "data-link": "" }, t("nav.rules")),
      h("a.replay-link", { href: "/replay", "data-link": "" }, t("nav.replay"))),
    // (on a phone only the figure shows: the label is the link's name for readers)
    me.account
      ? h("a.account-link", { href: "/account", "data-link": "", title: t("nav.account"), "aria-label": me.account.name },
        h("span.account-icon", { "aria-hidden": "true" }), h("span.account-label", {}, me.account.name))
      : h("a.account-link.login-link", { href: "/login", "data-link": "", title: t("nav.login"), "aria-label": t("nav.login") },
        h("span.account-icon", { "aria-hidden": "true" }), h("span.account-label", {}, t("nav.login"))),
    select);
}

document.addEventListener("click", (event) => {
  const link = event.target.closest("a[data-link]");
  if (link && link.origin === location.origin && !event.ctrlKey && !event.metaKey) {
    event.preventDefault();
    navigate(link.pathname);
  }
});
window.addEventListener("popstate", route);

await Promise.all([loadLanguage(pickLanguage()), loadMe()]);
document.title = t("ui.title");
route();
