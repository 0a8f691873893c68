// Friends in the page: the list with who is online, requests both ways, invitations to
// tables, and "invite a friend" in a table's waiting room.

import { me } from "./account.js";
import { api, h, toast } from "./dom.js";
import { lang, t } from "./i18n.js";
import { playerHref } from "./players.js";

/** ``/friends``: the friends, the requests, the invitations; a form to ask someone. */
export async function showFriends(root, navigate, current) {
  if (!me.account) {
    navigate("/login", true);
    return;
  }
  const data = await api(`/api/friends?lang=${lang}`);
  if (!current()) return;
  const again = () => showFriends(root, navigate, current);
  const post = async (path, body, done) => {
    try {
      const answer = await api(`${path}?lang=${lang}`, { method: "POST", body });
      if (done) toast(done(answer));
      await again();
    } catch (error) {
      toast(error.message, "error");
    }
  };
  const name = h("input#friend-name", { maxlength: 24, required: true, autocomplete: "off", "aria-label": t("friends.name") });
  const ask = h("form.row.friend-ask", {
    onsubmit: (event) => {
      event.preventDefault();
      post("/api/friends", { name: name.value }, (a) => t(a.result === "friends" ? "friends.now_friends" : "friends.asked", { name: a.name }));
    },
  }, name, h("button.primary", { type: "submit" }, t("friends.ask")));
  const friends = data.friends.map((f) => h("li.friend", { "data-name": f.name },
    h(`span.dot${f.online ? ".online" : ""}`, { title: f.online ? t("friends.online") : t("friends.offline") }),
    h("a", { href: playerHref(f.name), "data-link": "" }, f.name), " ",
    h("span.muted", {}, f.online ? t("friends.online") : t("friends.offline")),
    f.table ? h("a.small", { href: `/t/${encodeURIComponent(f.table)}`, "data-link": "" }, t("friends.at_table")) : null,
    h("button.link", { type: "button", onclick: () => post("/api/friends/remove", { name: f.name }) }, t("friends.remove"))));
  const incoming = data.incoming.map((n) => h("li", {}, h("strong", {}, n), " ",
    h("button.primary.accept", { type: "button", onclick: () => post("/api/friends", { name: n }, () => t("friends.now_friends", { name: n })) }, t("friends.accept")),
    h("button.decline", { type: "button", onclick: () => post("/api/friends/remove", { name: n }) }, t("friends.decline"))));
  const outgoing = data.outgoing.map((n) => h("li", {}, n, " ", h("span.muted", {}, t("friends.waiting")),
    h("button.link", { type: "button", onclick: () => post("/api/friends/remove", { name: n }) }, t("friends.take_back"))));
  const invitations = data.invitations.map((i) => h("li.invitation", {},
    t("friends.invited", { name: i.from }), " ",
    h("a", { href: `/t/${encodeURIComponent(i.table)}`, "data-link": "" }, t("friends.to_table"))));
  root.replaceChildren(h("section.panel.friends", {},
    h("h1", {}, t("friends.title")),
    ask,
    invitations.length ? [h("h2", {}, t("friends.invitations")), h("ul.invitations", {}, invitations)] : null,
    incoming.length ? [h("h2", {}, t("friends.incoming")), h("ul.incoming", {}, incoming)] : null,
    h("h2", {}, t("friends.list")),
    friends.length ? h("ul.friend-list", {}, friends) : h("p.muted", {}, t("friends.none")),
    outgoing.length ? [h("h2", {}, t("friends.outgoing")), h("ul.outgoing", {}, outgoing)] : null));
}

/** In a waiting room: a friend to invite (for a person logged in at the table). */
export function inviteBox(tableId) {
  if (!me.account) return null;
  const select = h("select#invite-friend", { "aria-label": t("friends.invite_who") });
  const button = h("button", { type: "submit" }, t("friends.invite"));
  const box = h("form.row.invite-friend", {
    onsubmit: async (event) => {
      event.preventDefault();
      if (!select.value) return;
      try {
        await api(`/api/friends/invite?lang=${lang}`, { method: "POST", body: { name: select.value, table: tableId } });
        toast(t("friends.invite_sent", { name: select.value }));
      } catch (error) {
        toast(error.message, "error");
      }
    },
  }, select, button);
  api("/api/friends").then((data) => {
    const names = data.friends.map((f) => f.name);
    select.replaceChildren(...names.map((n) => h("option", { value: n }, n)));
    box.hidden = !names.length;
  }).catch(() => { box.hidden = true; });
  box.hidden = true;
  return box;
}
