// "Analyse this deal": one deal of a record analysed for one seat, worked out by the
// server in a worker (GET /api/tables/{id}/analysis, POST /api/analysis): each decision
// with what it cost against the best one, and a chart of the seat's result with every
// hand known over the deal — where the line drops, the deal was lost.

import { cardLabel } from "./cards.js";
import { api, h, svg } from "./dom.js";
import { lang, t } from "./i18n.js";

/** The analysis of deal ``deal`` for ``seat``: of a table (``source.table``) or of a
 * record the page holds (``source.record``). */
export function loadAnalysis(source, deal, seat) {
  const query = `deal=${deal}&seat=${seat}&lang=${lang}`;
  if (source.table) return api(`/api/tables/${encodeURIComponent(source.table)}/analysis?${query}`);
  return api(`/api/analysis?${query}`, { method: "POST", body: source.record });
}

/** A panel: a seat to choose, the button, and (once asked) the analysis. ``names``: the
 * seats' names; ``seat``: the seat chosen first (the person's own); ``fixed``: only that
 * seat may be analysed (a table still being played shows a person their own). */
export function analysisPanel(source, deal, names, { seat = 0, fixed = false } = {}) {
  const out = h("div.analysis-result", { "aria-live": "polite" });
  const choice = h("select.analysis-seat", { "aria-label": t("analysis.seat") },
    names.map((name, i) => h("option", { value: String(i), selected: i === seat }, name)));
  if (fixed) choice.disabled = true;
  // (Not a primary button: in a deal's summary the primary one goes on with the game.)
  const button = h("button.small.analysis-go", {
    onclick: async () => {
      button.disabled = true;
      out.replaceChildren(h("p.muted", {}, t("analysis.working")));
      try {
        const result = await loadAnalysis(source, deal, Number(choice.value));
        out.replaceChildren(...analysisView(result, names));
      } catch (error) {
        out.replaceChildren(h("p.error", { role: "alert" }, error.message));
      } finally {
        button.disabled = false;
      }
    },
  }, t("analysis.go"));
  return h("section.analysis", {},
    h("div.row.analysis-ask", {}, h("label", {}, t("analysis.seat"), " ", choice), button),
    out);
}

/** What the server found: the verdict, the chart, each decision. */
export function analysisView(result, names) {
  const decisions = result.decisions || [];
  if (!decisions.length) return [h("p.muted", {}, t("analysis.none"))];
  const worst = result.worst === null || result.worst === undefined ? null : decisions[result.worst];
  const verdict = worst
    ? h("p.analysis-verdict", {}, t("analysis.lost_at", {
      trick: worst.trick,
      played: cardLabel(worst.played),
      best: cardLabel(worst.full_information.best),
    }))
    : h("p.analysis-verdict", {}, t("analysis.no_loss", { name: names[result.seat] || "" }));
  return [
    verdict,
    result.curve?.length > 1 ? chart(result) : null,
    result.estimated ? h("p.muted.analysis-note", {}, t("analysis.estimated")) : null,
    h("ol.analysis-list", {}, decisions.map((d, i) => {
      // Cards: their cost with every hand known; declarations and announcements: the
      // strong bot's estimate (they have no exact value).
      const cost = Number((d.full_information || d.seat_information)?.cost || 0);
      return h(`li${i === result.worst ? ".worst" : ""}${cost > 0 ? ".costly" : ""}`, {}, d.text);
    })),
    (result.summary || []).length ? h("p.muted.analysis-summary", {}, result.summary.join(" ")) : null,
  ].filter(Boolean);
}

/** The seat's result with every hand known, before its first card and after each one. */
function chart(result) {
  const width = 560, height = 200, left = 44, right = 12, top = 14, bottom = 34;
  const points = result.curve;
  const values = points.map((p) => p.value);
  let low = Math.min(...values), high = Math.max(...values);
  if (low === high) { low -= 1; high += 1; }
  const x = (i) => left + (i * (width - left - right)) / Math.max(1, points.length - 1);
  const y = (v) => top + ((high - v) * (height - top - bottom)) / (high - low);
  const box = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "analysis-chart", role: "img", "aria-label": t("analysis.chart") });
  for (const v of [low, high]) {
    const shown = Number.isInteger(v) ? String(v) : v.toFixed(1);
    box.append(svg("line", { x1: left, x2: width - right, y1: y(v), y2: y(v), class: "grid" }),
      svg("text", { x: left - 6, y: y(v) + 4, "text-anchor": "end", class: "axis" }, shown));
  }
  points.forEach((p, i) => {
    if (p.decision === null) return;
    box.append(svg("text", { x: x(i), y: height - bottom + 14, "text-anchor": "middle", class: "axis" }, String(p.trick)));
  });
  box.append(svg("text", { x: (left + width - right) / 2, y: height - 4, "text-anchor": "middle", class: "axis" },
    t(result.unit === "penalties" ? "analysis.chart_penalties" : "analysis.chart_points")));
  box.append(svg("polyline", { points: points.map((p, i) => `${x(i)},${y(p.value)}`).join(" "), fill: "none", class: "line" }));
  points.forEach((p, i) => {
    const worst = p.decision !== null && p.decision === result.worst;
    box.append(svg("circle", { cx: x(i), cy: y(p.value), r: worst ? 5 : 3, class: worst ? "worst" : "dot" }));
  });
  return box;
}

/** At a table, in the summary of deal ``number``: "Analyse this deal" for this page's
 * seat (any seat may be chosen: a deal that is over has shown every card), kept across
 * the page's redraws. */
export function tableAnalysis(ctx, message, number) {
  const memory = ctx.memory;
  memory.analysisPanels ??= new Map();
  const key = `${lang}:${number}`; // (a new panel in a new language)
  if (!memory.analysisPanels.has(key)) {
    const { table } = message;
    const names = table.seats.map((s, i) => s.name || `#${i + 1}`);
    const seat = table.you ?? 0;
    memory.analysisPanels.set(key, h("details.deal-analysis", {},
      h("summary", {}, t("analysis.title")),
      analysisPanel({ table: ctx.tableId }, number, names, { seat })));
  }
  return memory.analysisPanels.get(key);
}
