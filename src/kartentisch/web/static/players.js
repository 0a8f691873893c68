// Players in the page: a profile per account (games, ratings and their chart, the latest
// tables with links to their replays) and a leaderboard per rating pool.

import { me } from "./account.js";
import { api, h, svg } from "./dom.js";
import { lang, t } from "./i18n.js";
import { turnsPanel } from "./turns.js";

export const POOLS = ["slobberhannes", "doppelkopf-house", "doppelkopf-ddv", "slapjack", "irish-snap"];
const COLOURS = { "slobberhannes": "#17553a", "doppelkopf-house": "#b5651d", "doppelkopf-ddv": "#7a3b8f", "slapjack": "#1f5fa8", "irish-snap": "#a32020" };
let titles = null;

/** The games' titles in the page's language (from ``GET /api/games``), fetched once. */
async function loadTitles() {
  if (!titles) {
    const data = await api("/api/games");
    titles = Object.fromEntries(data.rules.map((r) => [r.name, r.titles]));
  }
}

function gameTitle(game) {
  return titles?.[game]?.[lang] || game;
}

function poolTitle(pool) {
  return pool.startsWith("doppelkopf-") ? t(`pool.${pool}`, { game: gameTitle("doppelkopf") }) : gameTitle(pool);
}

export function playerHref(name) {
  return `/players/${encodeURIComponent(name)}`;
}

function dateText(ms) {
  return new Date(ms).toLocaleDateString(lang, { year: "numeric", month: "short", day: "numeric" });
}

/** The rating over the rated tables, one line per pool: where it drops, games were lost. */
function chart(ratings) {
  const pools = POOLS.filter((p) => ratings[p]?.history?.length);
  if (!pools.length) return h("p.muted", {}, t("player.no_rated"));
  const width = 640, height = 240, left = 48, right = 12, top = 12, bottom = 28;
  // Every line starts where a newcomer starts (1000), before the first rated table.
  const series = Object.fromEntries(pools.map((p) => [p, [1000, ...ratings[p].history.map((x) => x.display)]]));
  const values = pools.flatMap((p) => series[p]);
  let low = Math.min(...values), high = Math.max(...values);
  if (high - low < 40) { low -= 20; high += 20; }
  const most = Math.max(...pools.map((p) => series[p].length));
  const x = (i) => left + (most <= 1 ? 0.5 : i / (most - 1)) * (width - left - right);
  const y = (v) => top + (1 - (v - low) / (high - low)) * (height - top - bottom);
  const box = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "rating-chart", role: "img", "aria-label": t("player.chart") });
  for (const v of [low, (low + high) / 2, high]) {
    const value = Math.round(v);
    box.append(svg("line", { x1: left, x2: width - right, y1: y(v), y2: y(v), class: "grid" }),
      svg("text", { x: left - 6, y: y(v) + 4, "text-anchor": "end", class: "axis" }, value));
  }
  box.append(svg("text", { x: (left + width - right) / 2, y: height - 6, "text-anchor": "middle", class: "axis" }, t("player.chart_x")));
  for (const pool of pools) {
    const points = series[pool].map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`);
    box.append(svg("polyline", { points: points.join(" "), fill: "none", stroke: COLOURS[pool], "stroke-width": 2.5, class: `line pool-${pool}` }));
    const last = series[pool].length - 1;
    box.append(svg("circle", { cx: x(last), cy: y(series[pool][last]), r: 3.5, fill: COLOURS[pool] }));
  }
  const legend = h("ul.chart-legend", {}, pools.map((p) =>
    h("li", {}, h("span.swatch", { style: { background: COLOURS[p] } }), poolTitle(p))));
  return h("figure.chart", {}, box, legend);
}

/** A rating's number; a provisional one marked "?" (the model knows the player little yet). */
function shownRating(rating) {
  return h("td.num", rating.provisional ? { title: t("player.provisional") } : {},
    String(rating.display), rating.provisional ? h("span.provisional", { "aria-label": t("player.provisional") }, "?") : null);
}

function statsLine(game, stats) {
  const parts = [];
  if (game === "slobberhannes" && stats.deals) {
    parts.push(t("player.stat.penalties_per_deal", { value: (stats.penalties / stats.deals).toFixed(2) }));
  }
  if (game === "doppelkopf" && stats.deals) {
    parts.push(t("player.stat.parties", { re: stats.re, kontra: stats.kontra }));
    parts.push(t("player.stat.soli", { played: stats.soli, won: stats.soli_won }));
    parts.push(t("player.stat.announcements", { made: stats.announcements, won: stats.announcements_won }));
  }
  if ((game === "slapjack" || game === "irish-snap") && stats.slaps_won !== undefined) {
    parts.push(t("player.stat.slaps", { won: stats.slaps_won, false: stats.false_slaps }));
  }
  return parts.join(" · ");
}

/** ``/players/{name}``: the profile. */
export async function showProfile(root, name, current) {
  const [data] = await Promise.all([api(`/api/players/${encodeURIComponent(name)}?lang=${lang}`), loadTitles()]);
  if (!current()) return;
  const games = Object.entries(data.games);
  const ratingRows = POOLS.filter((p) => data.ratings[p]).map((p) =>
    h("tr", {}, h("th", { scope: "row" }, poolTitle(p)), shownRating(data.ratings[p]),
      h("td.num", {}, data.ratings[p].games),
      h("td", {}, h("a", { href: `/leaderboard/${p}`, "data-link": "" }, t("player.to_leaderboard")))));
  const gameRows = games.map(([game, g]) =>
    h("tr", {}, h("th", { scope: "row" }, gameTitle(game)), h("td.num", {}, g.played), h("td.num", {}, g.won),
      h("td.small", {}, statsLine(game, g.stats))));
  const recent = data.recent.map((r) =>
    h("li", {}, h("a", { href: `/replay/${encodeURIComponent(r.table)}`, "data-link": "" }, gameTitle(r.game)), " ",
      h("span.muted", {}, dateText(r.finished)), " ",
      r.won ? h("span.tag.won", {}, t("player.won")) : h("span.tag", {}, t("player.place", { n: r.rank + 1 })),
      r.rated ? h("span.tag.rated", {}, t("player.rated")) : null));
  // One's own profile: the moves owed at correspondence tables.
  let turns = null;
  if (me.account && me.account.name === data.account.name) {
    turns = turnsPanel(gameTitle);
    await turns.refresh().catch(() => { turns = null; });
    if (!current()) return;
  }
  root.replaceChildren(h("section.panel.profile", {},
    h("h1", {}, data.account.name),
    h("p.muted", {}, t("player.since", { date: dateText(Date.parse(data.account.since)) })),
    turns?.panel,
    h("h2", {}, t("player.ratings")),
    chart(data.ratings),
    ratingRows.length ? h("table.figures", {}, h("thead", {}, h("tr", {}, h("th", {}, t("player.pool")), h("th.num", {}, t("player.rating")), h("th.num", {}, t("player.rated_games")), h("th", {}))), h("tbody", {}, ratingRows)) : null,
    h("h2", {}, t("player.games")),
    gameRows.length
      ? h("table.figures", {}, h("thead", {}, h("tr", {}, h("th", {}, t("player.game")), h("th.num", {}, t("player.played")), h("th.num", {}, t("player.won_count")), h("th", {}))), h("tbody", {}, gameRows))
      : h("p.muted", {}, t("player.no_games")),
    h("h2", {}, t("player.recent")),
    recent.length ? h("ul.recent", {}, recent) : h("p.muted", {}, t("player.no_games"))));
}

/** ``/leaderboard/{pool}?page=N``: the pool's players by rating. */
export async function showLeaderboard(root, pool, current) {
  const chosen = POOLS.includes(pool) ? pool : POOLS[0];
  const page = Math.max(1, Number(new URLSearchParams(location.search).get("page")) || 1);
  const [data] = await Promise.all([api(`/api/leaderboard/${chosen}?page=${page}&lang=${lang}`), loadTitles()]);
  if (!current()) return;
  const tabs = h("nav.pool-tabs", {}, POOLS.map((p) =>
    h(`a${p === chosen ? ".active" : ""}`, { href: `/leaderboard/${p}`, "data-link": "", "aria-current": p === chosen ? "page" : null }, poolTitle(p))));
  const rows = data.rows.map((r) => h("tr", {}, h("td.num", {}, r.place),
    h("td", {}, h("a", { href: playerHref(r.name), "data-link": "" }, r.name)),
    shownRating(r), h("td.num", {}, r.games)));
  const pager = h("div.row.pager", {},
    page > 1 ? h("a", { href: `/leaderboard/${chosen}?page=${page - 1}`, "data-link": "" }, t("board.previous")) : null,
    h("span.muted", {}, t("board.page", { page: data.page, pages: data.pages })),
    page < data.pages ? h("a", { href: `/leaderboard/${chosen}?page=${page + 1}`, "data-link": "" }, t("board.next")) : null);
  root.replaceChildren(h("section.panel.leaderboard", {},
    h("h1", {}, t("board.title")), tabs,
    rows.length
      ? h("table.figures", {}, h("thead", {}, h("tr", {}, h("th.num", {}, "#"), h("th", {}, t("player.name")), h("th.num", {}, t("player.rating")), h("th.num", {}, t("player.rated_games")))), h("tbody", {}, rows))
      : h("p.muted", {}, t("board.empty")),
    pager));
}
