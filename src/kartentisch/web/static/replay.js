// The replay viewer: a game record (opened from a file, or a table's games)
// replayed by the server, then gone through deal by deal and trick by trick.
// The server checks the record against the rules and sends the game's summary
// and its whole course as text in the page's language (POST /api/replay,
// GET /api/tables/{id}/replay); nothing is stored.

import { cardLabel, cardSVG } from "./cards.js";
import { api, h, setRulesGame, toast } from "./dom.js";
import { analysisPanel } from "./analysis.js";
import { explainDeal } from "./explain.js";
import { lang, t } from "./i18n.js";
import { handOverRules, recordRules, ruleSetGames } from "./ruleeditor.js";

// The record last opened from a file: a language switch replays it again.
let opened = null;
// Where the reader is: the deal and the trick shown.
const at = { deal: 0, trick: 0 };
let keys = null;
// The page's router, for "play with these rules" (to the lobby).
let go = null;

export function leaveReplay() {
  if (keys) document.removeEventListener("keydown", keys);
  keys = null;
}

/** ``/replay``: open a record; ``/replay/{id}``: the games of a stored table. */
/** ``current()`` is false once the page went elsewhere meanwhile: then nothing is drawn;
 * ``navigate(path)`` goes to another page of the app. */
export async function showReplay(root, tableId = null, current = () => true, navigate = null) {
  leaveReplay();
  go = navigate;
  if (tableId) {
    root.replaceChildren(h("p.muted", {}, t("replay.loading")));
    const shown = await api(`/api/tables/${encodeURIComponent(tableId)}/replay?lang=${lang}`);
    if (!current()) return;
    viewer(root, shown, { table: tableId }, [
      h("p.muted", {}, t("replay.of_table", { id: tableId })),
      shown.finished ? null : h("p.muted", {}, t("replay.unfinished")),
    ]);
    return;
  }
  if (opened) {
    await replayRecord(root, opened.record, opened.name, current);
    return;
  }
  root.replaceChildren(picker(root, current));
}

function picker(root, current) {
  const input = h("input#record-file", { type: "file", accept: ".json,application/json" });
  input.addEventListener("change", () => input.files[0] && openFile(root, input.files[0], current));
  const zone = h("label.drop-zone", { for: "record-file" },
    h("span.button.primary", {}, t("replay.open")), " ", h("span.muted", {}, t("replay.drop")), input);
  zone.addEventListener("dragover", (event) => {
    event.preventDefault();
    zone.classList.add("over");
  });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (event) => {
    event.preventDefault();
    zone.classList.remove("over");
    const file = event.dataTransfer?.files?.[0];
    if (file) openFile(root, file, current);
  });
  return h("section.panel.replay-open", {},
    h("h2", {}, t("replay.title")),
    h("p", {}, t("replay.intro")),
    zone);
}

async function openFile(root, file, current) {
  let record;
  try {
    record = JSON.parse(await file.text());
  } catch {
    toast(t("replay.not_json", { file: file.name }), "error");
    return;
  }
  at.deal = 0;
  at.trick = 0;
  if (!current()) return;
  await replayRecord(root, record, file.name, current);
}

async function replayRecord(root, record, name, current) {
  let shown;
  try {
    shown = await api(`/api/replay?lang=${lang}`, { method: "POST", body: record });
  } catch (error) {
    if (!current()) return;
    // The server names what is wrong (a malformed record, an illegal action and where).
    opened = null;
    root.replaceChildren(picker(root, current));
    root.querySelector(".replay-open").append(h("p.error.replay-error", { role: "alert" }, error.message));
    return;
  }
  if (!current()) return;
  opened = { record, name };
  const again = h("button.small", { onclick: () => { opened = null; showReplay(root, null, current, go); } }, t("replay.another"));
  viewer(root, shown, { file: name, record }, [h("p.muted", {}, name, " ", again)]);
}

// -- the viewer -------------------------------------------------------------------

/** "Play with these rules": for a game with rule sets, a button that opens the lobby
 * with the record's options (a preset and overrides) in the rule editor; ``source``
 * is ``{file}`` or ``{table}``, where the record came from. */
function playButton(shown, source) {
  const place = h("span.replay-play");
  ruleSetGames().then((names) => {
    place.dataset.ready = "";
    if (!names.includes(shown.game) || !go) return;
    place.replaceChildren(h("button#replay-play-rules.small.primary", {
      onclick: () => {
        handOverRules(recordRules(shown.game, shown.options), source);
        go("/");
      },
    }, t("lobby.rules.play_these")));
  });
  return place;
}

function viewer(root, shown, source, intro) {
  setRulesGame(shown.game);
  const title = shown.titles?.[lang] || shown.game;
  // Deals played (their tricks) and thrown-in ones (why, and that they score nothing).
  const deals = dealsOf(shown.summary).filter((d) => (d.tricks || []).length || d.outcome === "redeal");
  at.deal = Math.min(at.deal, Math.max(0, deals.length - 1));
  const body = h("div.replay-body");
  // Each deal's analysis panel, kept while the reader goes through its tricks.
  const panels = new Map();
  const analysis = (number) => {
    if (!ANALYSED.includes(shown.game)) return null;
    if (!panels.has(number)) {
      const from = source.table ? { table: source.table } : { record: source.record };
      panels.set(number, analysisPanel(from, number, shown.names));
    }
    return panels.get(number);
  };
  // (replaceChildren would write a null as the text "null")
  const draw = () => body.replaceChildren(...dealView(shown, deals, draw, analysis).filter(Boolean));
  draw();
  leaveReplay();
  keys = (event) => {
    if (event.target.closest?.("input, select, textarea")) return;
    const deal = deals[at.deal];
    if (!deal || !(deal.tricks || []).length) return;
    if (event.key === "ArrowRight") at.trick = Math.min(deal.tricks.length - 1, at.trick + 1);
    else if (event.key === "ArrowLeft") at.trick = Math.max(0, at.trick - 1);
    else return;
    draw();
  };
  document.addEventListener("keydown", keys);
  root.replaceChildren(h("section.panel.replay", {},
    h("h2", {}, t("replay.title"), " — ", title),
    intro,
    playButton(shown, source),
    results(shown),
    body,
    h("details.replay-log", {},
      h("summary", {}, t("replay.log")),
      h("pre", {}, shown.text.join("\n")))));
}

/** The deals of a record: a match's or session's list, or a single deal's record itself. */
function dealsOf(summary) {
  if (Array.isArray(summary.deals)) return summary.deals;
  return Array.isArray(summary.tricks) ? [summary] : [];
}

function nameOf(shown, seat) {
  return shown.names[seat] || `#${seat + 1}`;
}

/** Points per deal and in all, as on a score sheet; who won. */
function results(shown) {
  const summary = shown.summary;
  const seats = summary.points?.length || shown.names.length;
  const names = [...Array(seats).keys()].map((s) => nameOf(shown, s));
  // A Doppelkopf session's sheet: 100 Miese rows where they were written (after a thrown-in deal).
  const sheet = Array.isArray(summary.sheet) ? [...summary.sheet] : [];
  const miese = () => {
    const out = [];
    while (sheet.length && sheet[0].kind === "miese") {
      const row = sheet.shift();
      out.push(h("tr.replay-miese", {}, h("td", {}, "—"),
        row.points.map((p) => h("td", {}, p ? String(p) : "·"))));
    }
    return out;
  };
  const rows = dealsOf(summary).flatMap((d, i) => {
    if (d.outcome === "played" && sheet.length && sheet[0].kind === "game") sheet.shift();
    const row = d.outcome === "redeal"
      ? h("tr.replay-redeal", {}, h("td", {}, String(i + 1)), h("td.muted", { colspan: seats }, t("explain.thrown_in")))
      : h("tr", {}, h("td", {}, String(i + 1)), (d.points || []).map((p) => h("td", {}, p ? String(p) : "·")));
    return [row, ...miese()];
  });
  const mieseNote = (summary.sheet || []).filter((r) => r.kind === "miese")
    .map((r) => h("div.replay-miese-note", {}, explainDeal(r.explain, shown.names)));
  const table = h("table.score-sheet.replay-points", {},
    h("thead", {}, h("tr", {}, h("th", {}, t("replay.points")), names.map((n) => h("th", { title: n }, n)))),
    h("tbody", {}, rows,
      summary.points ? h("tr.totals", {}, h("th", {}, t("ui.totals")), summary.points.map((p) => h("th", {}, String(p)))) : null));
  // Seats named by the summary (a match's winners and losers, a real-time game's winner).
  const seatList = (list) => (Array.isArray(list) && list.length && list.every((s) => typeof s === "number")
    ? list.map((s) => nameOf(shown, s)).join(", ") : null);
  const winners = seatList(summary.winners) ?? (typeof summary.winner === "number" ? nameOf(shown, summary.winner) : null);
  const losers = seatList(summary.losers);
  return h("div.replay-result", {},
    h("h3", {}, t("replay.result")),
    table,
    mieseNote,
    losers ? h("p.replay-losers", {}, t("ui.losers", { names: losers })) : null,
    winners ? h("p.replay-winners", {}, t("ui.winners", { names: winners })) : null);
}

/** The seats of a trick's cards, in the order they were played. */
function trickSeats(shown, deal, trick) {
  const seats = deal.playing || [...Array(shown.summary.points?.length || shown.names.length).keys()];
  const first = seats.indexOf(trick.leader);
  return trick.cards.map((_, i) => seats[(first + i) % seats.length]);
}

function dealLine(shown, deal, number) {
  const parts = [t("ui.deal_n", { n: number })];
  if (typeof deal.dealer === "number") parts.push(`${t("ui.dealer")}: ${nameOf(shown, deal.dealer)}`);
  if (deal.game_type) {
    const game = t(`dk.game.${deal.game_type}`);
    parts.push(deal.ouvert ? t("dk.ouvert_game", { game }) : game);
    if (typeof deal.soloist === "number") parts.push(t("replay.soloist", { name: nameOf(shown, deal.soloist) }));
  }
  if (deal.augen) parts.push(t("replay.augen", { re: deal.augen.re, kontra: deal.augen.kontra }));
  return parts.join(" · ");
}

/** A Doppelkopf game's parties, announcements, winner and extra points (none elsewhere). */
function gameFacts(shown, deal) {
  if (!deal.parties) return null;
  const names = (seats) => seats.map((s) => nameOf(shown, s)).join(", ");
  const parties = ["re", "kontra"].map((p) => `${t(`dk.party.${p}`)}: ${names(deal.parties[p] || [])}`).join(" · ");
  const words = (deal.announcements || []).map((a) => `${nameOf(shown, a.seat)}: ${t(`dk.word.${a.word}`)}`);
  const extras = (deal.extras || []).map((e) => `${t(`dk.extra.${e.name}`)} — ${t(`dk.party.${e.party}`)}`);
  return h("div.replay-facts", {},
    h("p.replay-parties", {}, parties),
    words.length ? h("p.replay-words", {}, words.join(" · ")) : null,
    deal.winner ? h("p.replay-game-winner", {}, t("ui.winners", { names: t(`dk.party.${deal.winner}`) })) : null,
    extras.length ? h("ul.replay-extras", {}, extras.map((x) => h("li", {}, x))) : null);
}

/** The games whose deals the server analyses. */
const ANALYSED = ["slobberhannes", "doppelkopf"];

function dealView(shown, deals, draw, analysis) {
  if (!deals.length) {
    const realtime = !shown.summary.deals && !shown.summary.tricks;
    return [h("p.muted.replay-empty", {}, t(realtime ? "replay.realtime" : "replay.no_tricks"))];
  }
  const deal = deals[at.deal];
  const number = dealsOf(shown.summary).indexOf(deal) + 1;
  const tab = (d) => {
    const n = dealsOf(shown.summary).indexOf(d) + 1;
    return d.outcome === "redeal" ? t("explain.redeal_tab", { n }) : t("ui.deal_n", { n });
  };
  const chooser = deals.length > 1
    ? h("div.reviews.replay-deals", {}, deals.map((d, i) =>
      h(`button.small${i === at.deal ? ".primary" : ""}`, {
        "aria-pressed": i === at.deal ? "true" : "false",
        onclick: () => { at.deal = i; at.trick = 0; draw(); },
      }, tab(d))))
    : null;
  // How the deal's value came about (or why it was thrown in), in the page's language.
  const explained = deal.explain?.length
    ? h("div.replay-explain", {}, h("h4", {}, t("explain.title")), explainDeal(deal.explain, shown.names))
    : null;
  if (!(deal.tricks || []).length) {
    return [chooser, h("h3.replay-deal", {}, tab(deal)), explained];
  }
  at.trick = Math.min(at.trick, deal.tricks.length - 1);
  const trick = deal.tricks[at.trick];
  const seats = trickSeats(shown, deal, trick);
  const go = (index) => () => {
    at.trick = Math.max(0, Math.min(deal.tricks.length - 1, index));
    draw();
  };
  const last = deal.tricks.length - 1;
  return [
    chooser,
    h("h3.replay-deal", {}, dealLine(shown, deal, number)),
    gameFacts(shown, deal),
    explained,
    h("p.replay-trick-line", {},
      t("ui.trick_of", { n: at.trick + 1, total: deal.tricks.length }), " — ",
      t("ui.led_by", { name: nameOf(shown, trick.leader) })),
    h("div.mini-trick.big.replay-trick", {}, trick.cards.map((code, i) =>
      h(`figure${seats[i] === trick.winner ? ".winner" : ""}`, {},
        h("div.card-box", { html: cardSVG(code, cardLabel(code)) }),
        h("figcaption", {}, nameOf(shown, seats[i]))))),
    h("p.replay-won", {}, t("ui.won_by", { name: nameOf(shown, trick.winner) })),
    h("div.row.replay-controls", {},
      h("button", { onclick: go(0), disabled: at.trick === 0, title: t("replay.first") }, "|◀"),
      h("button", { onclick: go(at.trick - 1), disabled: at.trick === 0 }, "◀ ", t("ui.previous")),
      h("button", { onclick: go(at.trick + 1), disabled: at.trick === last }, t("ui.next"), " ▶"),
      h("button", { onclick: go(last), disabled: at.trick === last, title: t("replay.last") }, "▶|")),
    h("details.replay-analysis", {},
      h("summary", {}, t("analysis.title")),
      analysis(number)),
  ];
}
