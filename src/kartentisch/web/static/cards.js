// Playing cards drawn as inline SVG: rank and suit in the corners, pips for
// number cards, a framed letter for court cards, one large suit for an ace.
// Card codes are the engine's notation: rank then suit letter ("QC", "10H");
// the corners and labels show the court cards' letters of the page's language
// (D/B/K/A in German, Д/В/К/Т in Russian: the catalog's card.rank.*).

import { t } from "./i18n.js";

const SUITS = { C: "♣", S: "♠", H: "♥", D: "♦" };
const RED = new Set(["H", "D"]);
const CODE = /^(10|[2-9JQKA])([CSHD])$/;

// Pip centres on a 100×140 card; pips below the middle are drawn upside down.
const PIPS = {
  2: [[50, 28], [50, 112]],
  3: [[50, 28], [50, 70], [50, 112]],
  4: [[30, 28], [70, 28], [30, 112], [70, 112]],
  5: [[30, 28], [70, 28], [50, 70], [30, 112], [70, 112]],
  6: [[30, 28], [70, 28], [30, 70], [70, 70], [30, 112], [70, 112]],
  7: [[30, 28], [70, 28], [50, 49], [30, 70], [70, 70], [30, 112], [70, 112]],
  8: [[30, 28], [70, 28], [50, 49], [30, 70], [70, 70], [50, 91], [30, 112], [70, 112]],
  9: [[30, 28], [70, 28], [30, 56], [70, 56], [50, 70], [30, 84], [70, 84], [30, 112], [70, 112]],
  10: [[30, 28], [70, 28], [50, 42], [30, 56], [70, 56], [30, 84], [70, 84], [50, 98], [30, 112], [70, 112]],
};

export function parseCard(code) {
  const m = CODE.exec(String(code).toUpperCase());
  if (!m) return null;
  return { rank: m[1], suit: m[2], symbol: SUITS[m[2]], red: RED.has(m[2]) };
}

/** The rank as the page's language writes it: "Q" is "D" in German, "Д" in Russian. */
export function rankLetter(rank) {
  return /^[JQKA]$/.test(rank) ? t(`card.rank.${rank}`) : rank;
}

/** The rank as SVG text (the catalog's letter, escaped). */
function rankText(rank) {
  return escapeXML(rankLetter(rank));
}

/** The card as text with its suit symbol: "Q♣" ("D♣" in German), "10♥". */
export function cardLabel(code) {
  const c = parseCard(code);
  return c ? rankLetter(c.rank) + c.symbol : String(code);
}

function pip(x, y, symbol, size) {
  const flip = y > 70 ? ` transform="rotate(180 ${x} ${y})"` : "";
  return `<text x="${x}" y="${y}" font-size="${size}" text-anchor="middle" dominant-baseline="central"${flip}>${symbol}</text>`;
}

function corner(rank, symbol) {
  const small = rank === "10" ? 15 : 17;
  return (
    `<text x="11" y="19" font-size="${small}" font-weight="700" text-anchor="middle">${rank}</text>` +
    `<text x="11" y="35" font-size="15" text-anchor="middle">${symbol}</text>`
  );
}

/** An SVG string for the card ``code``; ``title`` becomes its accessible name. */
export function cardSVG(code, title = "") {
  const c = parseCard(code);
  if (!c) return backSVG();
  const colour = c.red ? "#c0262d" : "#1b1b1f";
  let middle = "";
  if (PIPS[c.rank]) {
    middle = PIPS[c.rank].map(([x, y]) => pip(x, y, c.symbol, 21)).join("");
  } else if (c.rank === "A") {
    middle = pip(50, 70, c.symbol, 64);
  } else {
    middle =
      `<rect x="24" y="24" width="52" height="92" rx="6" fill="none" stroke="${colour}" stroke-width="1.5" opacity="0.6"/>` +
      `<text x="50" y="62" font-size="40" font-weight="700" font-family="Georgia, serif" text-anchor="middle" dominant-baseline="central">${rankText(c.rank)}</text>` +
      `<text x="50" y="96" font-size="26" text-anchor="middle" dominant-baseline="central">${c.symbol}</text>`;
  }
  const label = title ? `<title>${escapeXML(title)}</title>` : "";
  return (
    `<svg class="card" viewBox="0 0 100 140" role="img" aria-label="${escapeXML(title || cardLabel(code))}" data-card="${c.rank}${c.suit}">` +
    label +
    `<rect x="1" y="1" width="98" height="138" rx="8" fill="#fffdf8" stroke="#9a948a" stroke-width="1.5"/>` +
    `<g fill="${colour}" font-family="system-ui, sans-serif">` +
    corner(rankText(c.rank), c.symbol) +
    `<g transform="rotate(180 50 70)">${corner(rankText(c.rank), c.symbol)}</g>` +
    middle +
    `</g></svg>`
  );
}

/** The back of a card. */
export function backSVG(title = "") {
  return (
    `<svg class="card back" viewBox="0 0 100 140" role="img" aria-label="${escapeXML(title)}">` +
    `<rect x="1" y="1" width="98" height="138" rx="8" fill="#fffdf8" stroke="#9a948a" stroke-width="1.5"/>` +
    `<rect x="8" y="8" width="84" height="124" rx="5" fill="#2f5d8a"/>` +
    `<path d="M8 20 L20 8 M8 44 L44 8 M8 68 L68 8 M8 92 L92 8 M8 116 L92 32 M20 132 L92 56 M44 132 L92 80 M68 132 L92 104" stroke="#4f7fb0" stroke-width="3"/>` +
    `</svg>`
  );
}

export function escapeXML(text) {
  return String(text).replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]);
}
