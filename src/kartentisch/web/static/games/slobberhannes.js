// The Slobberhannes table: seats around the felt, the trick in the middle,
// your hand below, the score sheet and the trick-by-trick review beside.
// With the cut (the Russian preset) the deck lies on the felt between deals
// and the seat due to cut chooses where, above its (empty) hand.

import { tableAnalysis } from "../analysis.js";
import { backSVG, cardLabel, cardSVG } from "../cards.js";
import { h } from "../dom.js";
import { explainDeal } from "../explain.js";
import { bubbles, feltTrick, placeBubbles, seatPlace, shownTrick, timerNotice, whyLine } from "../felt.js";
import { t } from "../i18n.js";
import { gateButtons, gateSummary, held } from "../presence.js";

function nameOf(view, table, seat) {
  const name = view.names[seat] || table.seats[seat]?.name || `#${seat + 1}`;
  return seat === view.seat ? `${name} (${t("ui.you")})` : name;
}

function cardBox(code, extra = {}) {
  return h("div.card-box", { html: cardSVG(code, cardLabel(code)), ...extra });
}

/** The trick on the felt: the one being played, or the completed one until the next lead. */
function theTrick(view) {
  const current = { ...view.trick, id: `${view.deal_number}:${view.trick_number}` };
  const last = view.last_trick;
  let completed = null;
  if (last && !view.trick.cards.length) {
    // From this deal (the trick before the current one), or the last of the deal before.
    const id = view.trick_number > 1 ? `${view.deal_number}:${view.trick_number - 1}` : `${view.deal_number - 1}:${view.tricks_per_deal}`;
    completed = { ...last, id };
  }
  return shownTrick(current, completed);
}

function seatBox(view, table, seat) {
  const info = table.seats[seat];
  const p = seatPlace(view, seat);
  const classes = ["seat"];
  if (view.to_move === seat) classes.push("to-move");
  if (seat === view.seat) classes.push("me");
  const badges = [];
  if (view.dealer === seat) badges.push(h("span.badge", { title: t("ui.dealer") }, t("ui.dealer_short")));
  if (info.kind === "bot") badges.push(h("span.badge.bot", { title: t(`level.${info.level}`) }, t("ui.bot")));
  else if (info.bot_playing) badges.push(h("span.badge.away", { title: t("ui.bot_playing") }, t("presence.standin")));
  else if (info.kind === "human" && !info.connected) badges.push(h("span.badge.away", {}, t("ui.offline")));
  const backs = seat === view.seat ? null : h("div.backs", {}, Array.from({ length: view.hand_sizes[seat] }, () => h("span.back", { html: backSVG() })));
  return h(`div.${classes.join(".")}`, { "data-seat": seat, style: { left: `${p.x}%`, top: `${p.y}%` } },
    h("div.seat-name", {}, nameOf(view, table, seat), " ", badges),
    backs,
    h("div.seat-score", { title: t("ui.seat_score", { n: view.penalties[seat], total: view.totals[seat] }) },
      t("explain.seat_penalties", { points: view.penalties[seat], total: view.totals[seat] })));
}

function statusLine(view, table) {
  if (view.over) return t("ui.match_over");
  if (view.cut) {
    return view.cut.seat === view.seat ? t("cut.your_cut")
      : t("cut.waiting", { name: nameOf(view, table, view.cut.seat), dealer: nameOf(view, table, view.cut.dealer) });
  }
  if (view.to_move === null) return "";
  if (view.to_move === view.seat) return t("ui.your_turn");
  return t("ui.waiting_for", { name: nameOf(view, table, view.to_move) });
}

function handRow(view, ctx) {
  if (view.seat === null) return h("p.muted.spectator", {}, t("ui.spectating"));
  const legal = new Set(view.legal);
  const myTurn = view.to_move === view.seat;
  const cards = view.hand.map((code) => {
    const playable = myTurn && legal.has(code);
    const cls = playable ? "hand-card.playable" : myTurn ? "hand-card.blocked" : "hand-card";
    // A card you may not play is not disabled: a click asks the table, which says why.
    return h(`button.${cls}`, {
      html: cardSVG(code, cardLabel(code)),
      "aria-disabled": playable ? null : "true",
      title: playable ? t("ui.play_card", { card: cardLabel(code) }) : cardLabel(code),
      onclick: () => ctx.act(code),
    });
  });
  return h("div.hand", { "aria-label": t("ui.your_hand") }, cards);
}

// -- the cut --------------------------------------------------------------------

/** The deck on the felt: one packet, or the two a cut of ``lifted`` cards makes. */
function cutDeck(view, lifted) {
  const total = view.cut.max + 1;
  const packet = (n, cls) => h(`div.cut-packet${cls}`, {}, h("span.back", { html: backSVG() }), h("span.cut-count", {}, n));
  return h("div.cut-deck", { "aria-hidden": "true" },
    lifted ? [packet(total - lifted, ".below"), packet(lifted, ".lifted")] : packet(total, ""));
}

/** For the seat due to cut: how many cards to lift (a slider), and the cut itself. */
function cutBar(view, ctx) {
  const memory = ctx.memory;
  const { max, deal } = view.cut;
  const total = max + 1;
  if (memory.cutDeal !== deal) {
    memory.cutDeal = deal;
    memory.cut = Math.floor(total / 2);
  }
  memory.cut = Math.max(1, Math.min(max, memory.cut));
  const packets = h("span.cut-packets", {}, t("cut.packets", { n: memory.cut, rest: total - memory.cut }));
  const button = h("button.primary.cut-button", {
    "data-action": `cut ${memory.cut}`,
    onclick: () => ctx.act(`cut ${memory.cut}`),
  }, t("cut.button"));
  const slider = h("input.cut-range", {
    type: "range", min: 1, max, step: 1, value: memory.cut, "aria-label": t("cut.how_many"),
    // Updated in place: a redraw would drop the slider from under the finger.
    oninput: (event) => {
      memory.cut = Number(event.target.value);
      packets.textContent = t("cut.packets", { n: memory.cut, rest: total - memory.cut });
      button.setAttribute("data-action", `cut ${memory.cut}`);
      document.querySelector(".felt .cut-deck")?.replaceWith(cutDeck(view, memory.cut));
    },
  });
  return h("div.cut-bar", { role: "group", "aria-label": t("cut.title") },
    h("span.cut-label", {}, t("cut.title")), slider, packets, button);
}

/** "Ann cut 12", under the deal and trick, while the first trick of a cut deal is played. */
function cutNote(view, table) {
  if (view.cut || view.trick_number !== 1) return null;
  const cut = view.cuts?.find((c) => c.deal === view.deal_number);
  return cut ? h("div.cut-note", {}, t("cut.done", { name: nameOf(view, table, cut.seat), n: cut.n })) : null;
}

function penaltyText(view, table, p) {
  return t(`reason.${p.reason}`, { name: nameOf(view, table, p.seat), chips: p.chips, trick: p.trick ?? "" });
}

function scoreSheet(view, table) {
  const seats = [...Array(view.players).keys()];
  const head = h("tr", {}, h("th", {}, t("ui.deal")), seats.map((s) => h("th", { title: nameOf(view, table, s) }, view.names[s])));
  const rows = view.deals.map((deal) => h("tr", {}, h("td", {}, deal.number), deal.points.map((p) => h("td", {}, p || "·"))));
  if (!view.over) {
    rows.push(h("tr.current", {}, h("td", {}, `${view.deal_number}…`), view.penalties.map((p) => h("td", {}, p || "·"))));
  }
  const totals = h("tr.totals", {}, h("th", {}, t("ui.totals")), view.totals.map((p) => h("th", {}, p)));
  const extra = [];
  if ((view.scoring ?? view.options.scoring ?? "chips") === "chips") {
    extra.push(h("tr", {}, h("td", {}, t("ui.chips")), view.chips.map((c) => h("td", {}, c))));
  }
  if (view.result) {
    extra.push(h("tr.settlement", {}, h("td", {}, t("ui.settlement")), view.result.settlement.map((c) => h("td", {}, c > 0 ? `+${c}` : c))));
  }
  return h("table.score-sheet", {}, h("thead", {}, head), h("tbody", {}, rows, totals, extra));
}

function lastTrick(view, table) {
  if (!view.last_trick) return null;
  const trick = view.last_trick;
  return h("div.last-trick", {},
    h("h3", {}, t("ui.last_trick")),
    h("div.mini-trick", {}, trick.cards.map((code, i) =>
      h(`figure${trick.seats[i] === trick.winner ? ".winner" : ""}`, {}, cardBox(code), h("figcaption", {}, view.names[trick.seats[i]])))),
    trick.winner !== null ? h("p.muted", {}, t("ui.won_by", { name: nameOf(view, table, trick.winner) })) : null);
}

function reviewDialog(view, table, ctx) {
  const memory = ctx.memory;
  const deal = view.deals.find((d) => d.number === memory.review);
  if (!deal) return null;
  const index = Math.min(memory.reviewTrick ?? 0, deal.tricks.length - 1);
  const trick = deal.tricks[index];
  const close = () => {
    memory.review = null;
    ctx.rerender();
  };
  const go = (step) => () => {
    memory.reviewTrick = Math.max(0, Math.min(deal.tricks.length - 1, index + step));
    ctx.rerender();
  };
  const penalties = deal.penalties.filter((p) => p.trick === index + 1 || (p.trick === null && index === deal.tricks.length - 1));
  return h("div.modal", { role: "dialog", "aria-modal": "true", "aria-label": t("ui.review_deal", { n: deal.number }) },
    h("div.modal-body", {},
      h("h2", {}, t("ui.review_deal", { n: deal.number })),
      h("p", {}, t("ui.trick_of", { n: index + 1, total: deal.tricks.length }), " — ",
        t("ui.led_by", { name: nameOf(view, table, trick.leader) })),
      h("div.mini-trick.big", {}, trick.cards.map((code, i) =>
        h(`figure${trick.seats[i] === trick.winner ? ".winner" : ""}`, {}, cardBox(code), h("figcaption", {}, view.names[trick.seats[i]])))),
      h("p", {}, t("ui.won_by", { name: nameOf(view, table, trick.winner) })),
      h("ul.penalties", {}, penalties.map((p) => h("li", {}, penaltyText(view, table, p)))),
      h("div.row", {},
        h("button", { onclick: go(-1), disabled: index === 0 }, "◀ ", t("ui.previous")),
        h("button", { onclick: go(1), disabled: index === deal.tricks.length - 1 }, t("ui.next"), " ▶"),
        h("button.primary", { onclick: close }, t("ui.close")))));
}

function dealOverDialog(message, number, ctx) {
  const { view, table } = message;
  const memory = ctx.memory;
  const deal = view.deals.find((d) => d.number === number);
  if (!deal) return null;
  const close = () => {
    memory.dealOver = null;
    ctx.rerender();
  };
  // While the next deal waits for this summary: "Close" and "Next deal".
  const buttons = gateButtons(message, ctx, deal.number) ?? [h("button.primary", { onclick: close }, t("ui.continue"))];
  const review = () => {
    memory.dealOver = null;
    memory.review = deal.number;
    memory.reviewTrick = 0;
    ctx.rerender();
  };
  return h("div.modal", { role: "dialog", "aria-modal": "true" },
    h("div.modal-body", {},
      h("h2", {}, t("ui.deal_over", { n: deal.number })),
      // Every penalty with its trick or card, then each seat's sum (kartentisch.explain).
      explainDeal(deal.explain, [...Array(view.players).keys()].map((s) => nameOf(view, table, s))),
      scoreSheet(view, table),
      tableAnalysis(ctx, message, deal.number),
      h("div.row", {},
        h("button", { onclick: review }, t("ui.review")),
        buttons)));
}

function resultBox(view, table) {
  if (!view.result) return null;
  const names = (seats) => seats.map((s) => nameOf(view, table, s)).join(", ");
  return h("div.result", {},
    h("h2", {}, t("ui.match_over")),
    view.result.losers.length ? h("p", {}, t("ui.losers", { names: names(view.result.losers) })) : null,
    h("p", {}, t("ui.winners", { names: names(view.result.winners) })));
}

/** An action as the page names it (a hint's suggestion): a card, or a cut. */
export function actionText(action) {
  const cut = /^cut (\d+)$/.exec(action);
  return cut ? t("hint.cut", { n: Number(cut[1]) }) : cardLabel(action);
}

export function render(root, message, ctx) {
  const { view, table } = message;
  const memory = ctx.memory;
  // A deal just ended: its summary shows while the next deal waits for "next".
  const summary = memory.dealOver ?? gateSummary(message, memory);

  const cutting = Boolean(view.cut);
  // The cut belongs to the next deal: it comes after the wait between deals.
  const myCut = cutting && view.cut.seat === view.seat && !held(table);
  const cutControls = myCut && !view.over ? cutBar(view, ctx) : null;
  timerNotice(message, memory, t("ui.timer_played"));
  const felt = h(`div.felt.players-${view.players}`, {},
    [...Array(view.players).keys()].map((s) => seatBox(view, table, s)),
    cutting ? cutDeck(view, myCut ? memory.cut : null) : feltTrick(view, theTrick(view), memory),
    h("div.felt-info", {}, cutting ? t("cut.deal", { deal: view.deal_number })
      : t("ui.deal_trick", { deal: view.deal_number, trick: Math.min(view.trick_number, view.tricks_per_deal), total: view.tricks_per_deal }),
    cutNote(view, table)));

  placeBubbles(felt, bubbles(view, [], memory));

  const status = h(`div.status${view.to_move === view.seat && view.seat !== null ? ".mine" : ""}`, { role: "status" },
    h("span", {}, statusLine(view, table)), " ", h("span.timer"));

  const reviews = view.deals.length
    ? h("div.reviews", {}, h("h3", {}, t("ui.review")), view.deals.map((d) =>
      h("button.small", { onclick: () => { memory.review = d.number; memory.reviewTrick = 0; ctx.rerender(); } }, t("ui.deal_n", { n: d.number }))))
    : null;

  const side = h("aside.side", {},
    h("h3", {}, t("ui.score_sheet")),
    scoreSheet(view, table),
    lastTrick(view, table),
    reviews,
    view.deals.length || view.over ? h("a.button.small", { href: `/api/tables/${ctx.tableId}/record`, download: "" }, t("ui.download_record")) : null,
    view.deals.length || view.over ? h("a.button.small.replay-link", { href: `/replay/${ctx.tableId}`, "data-link": "" }, t("ui.replay")) : null,
    h("p#banner.muted"));

  root.replaceChildren(h("div.game", {},
    h("div.main", {}, resultBox(view, table), status, felt, whyLine(memory, message.version), cutControls, handRow(view, ctx)),
    side,
    memory.review ? reviewDialog(view, table, ctx) : summary ? dealOverDialog(message, summary, ctx) : null));
}
