// Accounts in the page: who is logged in, the log-in and sign-up forms, the account page.
// Guests play as before; an account keeps the games (docs/web-protocol.md, "Accounts").

import { api, h, toast } from "./dom.js";
import { lang, t } from "./i18n.js";

/** ``{account, csrf}``: the account logged in (or null) and the CSRF token (``GET /api/me``). */
export const me = { account: null, csrf: null };

/** Ask the server who is logged in (at start, and after a log-in or log-out). */
export async function loadMe() {
  try {
    const data = await api("/api/me");
    me.account = data.account;
    me.csrf = data.csrf;
  } catch {
    me.account = null;
  }
  return me;
}

/** The seats this browser took as a guest: ``[{table, token}]`` from the saved seat tokens. */
export function guestSeats() {
  const seats = [];
  for (let i = 0; i < localStorage.length; i += 1) {
    const key = localStorage.key(i);
    if (!key?.startsWith("kt.seat.")) continue;
    try {
      const saved = JSON.parse(localStorage.getItem(key));
      if (saved?.token) seats.push({ table: key.slice("kt.seat.".length), token: saved.token });
    } catch {
      // (a value some other page wrote: not a seat)
    }
  }
  return seats;
}

function field(id, label, attrs) {
  const input = h(`input#${id}`, attrs);
  return [h("label", { for: id }, h("span", {}, label), input), input];
}

/** ``/login`` and ``/signup``: the two forms, one shown, a link to the other. */
export function showLogin(root, navigate, signup) {
  const title = signup ? t("account.signup_title") : t("account.login_title");
  const [nameRow, name] = field("account-name", t("account.name"), {
    maxlength: 24, required: true, autocomplete: "username", value: signup ? localStorage.getItem("kt.name") || "" : "",
  });
  const [passwordRow, password] = field("account-password", t("account.password"), {
    type: "password", required: true, minlength: 8, maxlength: 256,
    autocomplete: signup ? "new-password" : "current-password",
  });
  const seats = signup ? guestSeats() : [];
  const claim = h("input#account-claim", { type: "checkbox", checked: true });
  const claimRow = seats.length
    ? h("label.check", { for: "account-claim" }, claim, h("span", {}, t("account.claim", { n: seats.length })))
    : null;
  const problem = h("p.form-error", { role: "alert" });
  const submit = async (event) => {
    event.preventDefault();
    problem.textContent = "";
    const body = { name: name.value, password: password.value };
    if (signup && claimRow && claim.checked) body.claim = seats;
    try {
      const done = await api(`/api/${signup ? "accounts" : "login"}?lang=${lang}`, { method: "POST", body });
      await loadMe();
      const claimed = done.claimed?.length || 0;
      const name = done.account.name;
      if (!signup) toast(t("account.logged_in", { name }));
      else toast(claimed ? t("account.signed_up", { name, n: claimed }) : t("account.welcome", { name }));
      navigate("/");
    } catch (error) {
      problem.textContent = error.message;
    }
  };
  const other = signup
    ? h("p.muted", {}, t("account.have_account"), " ", h("a", { href: "/login", "data-link": "" }, t("account.login")))
    : h("p.muted", {}, t("account.no_account"), " ", h("a", { href: "/signup", "data-link": "" }, t("account.signup")));
  root.replaceChildren(h("section.panel.account-form", {},
    h("h1", {}, title),
    h("form", { onsubmit: submit, id: signup ? "signup-form" : "login-form" },
      nameRow, passwordRow,
      signup ? h("p.muted.small", {}, t("account.name_rules")) : null,
      claimRow, problem,
      h("div.row", {}, h("button.primary", { type: "submit" }, signup ? t("account.signup") : t("account.login")))),
    other,
    h("p.muted.small", {}, t("account.guest_note"))));
  name.focus();
}

/**
 * The account's mail settings (``GET``/``POST /api/mail``): the address, and whether a
 * mail comes when a move is due at a correspondence table. ``data-loaded`` is set
 * once the saved settings are shown (for whoever watches the page: tests).
 */
function mailForm() {
  const [addressRow, address] = field("mail-address", t("corr.mail_address"), { type: "email", maxlength: 254, autocomplete: "email" });
  const notify = h("input#mail-notify", { type: "checkbox" });
  const state = h("p.mail-state", { role: "status" });
  const noServer = h("p.muted.mail-note.mail-no-server", { hidden: true }, t("corr.mail_no_server"));
  const problem = h("p.form-error", { role: "alert" });
  const show = (data) => {
    address.value = data.email || "";
    notify.checked = Boolean(data.notify);
    state.textContent = data.email && data.notify ? t("corr.mail_on", { email: data.email })
      : data.email ? t("corr.mail_kept", { email: data.email }) : t("corr.mail_off");
    noServer.hidden = data.server_sends !== false;
    form.dataset.loaded = "1";
  };
  const save = async (event) => {
    event.preventDefault();
    problem.textContent = "";
    try {
      const body = { email: address.value.trim() || null, notify: notify.checked };
      show(await api(`/api/mail?lang=${lang}`, { method: "POST", body }));
      toast(t("corr.mail_saved"));
    } catch (error) {
      problem.textContent = error.message;
    }
  };
  const form = h("form#mail-form", { onsubmit: save },
    h("h2", {}, t("corr.mail_title")),
    addressRow,
    h("label.check", { for: "mail-notify" }, notify, h("span", {}, t("corr.mail_notify"))),
    h("p.muted.mail-note", {}, t("corr.mail_language")),
    state, noServer, problem,
    h("div.row", {}, h("button.primary", { type: "submit" }, t("corr.mail_save"))));
  api(`/api/mail?lang=${lang}`).then(show).catch((error) => { problem.textContent = error.message; });
  return form;
}

/** ``/account``: the account's name, the password change, logging out. */
export function showAccount(root, navigate) {
  if (!me.account) {
    navigate("/login", true);
    return;
  }
  const [oldRow, old] = field("password-old", t("account.password_old"), { type: "password", required: true, autocomplete: "current-password", maxlength: 256 });
  const [newRow, fresh] = field("password-new", t("account.password_new"), { type: "password", required: true, minlength: 8, maxlength: 256, autocomplete: "new-password" });
  const problem = h("p.form-error", { role: "alert" });
  const change = async (event) => {
    event.preventDefault();
    problem.textContent = "";
    try {
      await api(`/api/password?lang=${lang}`, { method: "POST", body: { old: old.value, new: fresh.value } });
      old.value = fresh.value = "";
      toast(t("account.password_changed"));
    } catch (error) {
      problem.textContent = error.message;
    }
  };
  const logOut = async () => {
    await api(`/api/logout?lang=${lang}`, { method: "POST" }).catch(() => {});
    await loadMe();
    toast(t("account.logged_out"));
    navigate("/");
  };
  root.replaceChildren(h("section.panel.account-page", {},
    h("h1.account-title", {}, me.account.name),
    h("p.row", {}, h("a.profile-link", { href: `/players/${encodeURIComponent(me.account.name)}`, "data-link": "" }, t("account.profile")),
      h("a.friends-link", { href: "/friends", "data-link": "" }, t("friends.title"))),
    mailForm(),
    h("form#password-form", { onsubmit: change },
      h("h2", {}, t("account.change_password")), oldRow, newRow, problem,
      h("div.row", {}, h("button.primary", { type: "submit" }, t("account.change_password")))),
    h("div.row", {}, h("button#logout", { type: "button", onclick: logOut }, t("account.logout")))));
}
