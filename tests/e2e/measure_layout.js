// One picture of the page (tests/e2e/test_layout.py): what does not fit the viewport,
// what overlaps, and the counts measured. Evaluated by Playwright as one function.
// Every place of the trick is measured, whoever's card lies there now: a seat that
// has not played gets a stand-in card at its place (felt.js trickPlace), removed
// again before the function returns, so the picture does not depend on the trick.
async () => {
  const W = window.innerWidth, H = window.innerHeight;
  const { trickPlace } = await import('/static/felt.js');
  const { cardSVG } = await import('/static/cards.js');
  // From here on nothing waits: the page cannot draw again while it is measured.
  // Cards measured where they come to rest: a card still moving into the trick (from
  // its seat, over the seat box) or a raised hand card is put at the end of its move.
  for (const a of document.getAnimations()) {
    if (!a.effect?.target?.closest?.('.bubble')) a.finish();
  }
  const trickEl = document.querySelector('.felt > .trick[data-players]');
  const placed = [];
  if (trickEl) {
    const view = { players: Number(trickEl.dataset.players), seat: Number(trickEl.dataset.me) };
    for (let s = 0; s < view.players; s++) {
      if (trickEl.querySelector(`.trick-card:not(.collecting)[data-seat="${s}"]`)) continue;
      const place = trickPlace(view, s);
      const card = Object.assign(document.createElement('div'), { className: 'trick-card stand-in', innerHTML: cardSVG('AS') });
      card.dataset.seat = String(s);
      card.style.left = place.left;
      card.style.top = place.top;
      trickEl.append(card);
      placed.push(card);
    }
  }
  // Without the game log module a stand-in log (long) takes its place (the caller removes it).
  const app = document.getElementById('app');
  let standIn = null;
  if (!app.querySelector(':scope > aside.game-log') && app.querySelector(':scope > .game:not(.sj-game)')) {
    standIn = document.createElement('aside');
    standIn.className = 'game-log stand-in';
    for (let i = 0; i < 80; i++) standIn.append(Object.assign(document.createElement('p'), { textContent: `(stand-in for the game log) ${i}` }));
    app.append(standIn);
  }
  const visible = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  const boxOf = (e) => { const r = e.getBoundingClientRect(); return { x: r.left, y: r.top, r: r.right, b: r.bottom }; };
  const all = (sel, kind) => [...document.querySelectorAll(sel)].filter(visible)
    .map((e, i) => ({ name: `${kind} ${i} ${(e.dataset.action || e.dataset.seat || e.textContent || '').trim().slice(0, 24)}`, kind, box: boxOf(e) }));
  const trick = all('.felt .trick-card:not(.collecting):not(.stand-in)', 'trick card')
    .concat(all('.felt .trick-card.stand-in', 'trick place'));
  for (const card of placed) card.remove();
  const seats = all('.felt .seat', 'seat');
  const buttons = all('.main button:not(.hand-card), .main input, .main select', 'button');
  const cards = all('.hand .hand-card', 'hand card');
  const status = all('.main .status', 'status');
  const pile = all('.sj-pile', 'pile');
  const header = all('#top', 'header');
  const problems = [];
  const inside = (item) => item.box.x >= -0.5 && item.box.y >= -0.5 && item.box.r <= W + 0.5 && item.box.b <= H + 0.5;
  for (const item of [...trick, ...seats, ...buttons, ...cards, ...status, ...pile, ...header]) {
    if (!inside(item)) problems.push(`${item.name} is not inside the ${W}x${H} viewport: ${JSON.stringify(item.box)}`);
  }
  const boxes = [...trick, ...seats, ...buttons, ...pile];
  if (cards.length) {
    const u = cards.reduce((a, c) => ({ x: Math.min(a.x, c.box.x), y: Math.min(a.y, c.box.y), r: Math.max(a.r, c.box.r), b: Math.max(a.b, c.box.b) }),
      { x: Infinity, y: Infinity, r: -Infinity, b: -Infinity });
    boxes.push({ name: 'the hand', kind: 'hand', box: u });
  }
  const cut = (a, b) => Math.min(a.r, b.r) - Math.max(a.x, b.x) > 1 && Math.min(a.b, b.b) - Math.max(a.y, b.y) > 1;
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      if (cut(boxes[i].box, boxes[j].box)) problems.push(`${boxes[i].name} overlaps ${boxes[j].name}: ${JSON.stringify(boxes[i].box)} ${JSON.stringify(boxes[j].box)}`);
    }
  }
  const doc = document.scrollingElement;
  if (doc.scrollLeft !== 0 || doc.scrollTop !== 0) problems.push(`the page is scrolled (${doc.scrollLeft}, ${doc.scrollTop})`);
  if (doc.scrollWidth > W + 0.5) problems.push(`the page is ${doc.scrollWidth} px wide, wider than ${W}`);
  const top = document.getElementById('top');
  const rows = new Set([...top.children].filter(visible).map((e) => Math.round(e.getBoundingClientRect().top / 12)));
  if (rows.size > 1 || top.getBoundingClientRect().height > 56) problems.push(`the header takes ${top.getBoundingClientRect().height} px, in ${rows.size} rows`);
  const log = document.querySelector('#app > aside.game-log');
  const game = document.querySelector('#app > .game');
  if (log && game) {
    const l = log.getBoundingClientRect(), g = game.getBoundingClientRect();
    if (W >= 1000 && (l.left < g.right - 0.5 || Math.abs(l.width - 260) > 1)) problems.push(`the log is not a 260 px column at the right: ${JSON.stringify(l)}`);
    if (W >= 1000 && Math.abs(l.bottom - g.bottom) > 1) problems.push(`the log (to ${l.bottom}) is not as tall as the table (to ${g.bottom})`);
    if (W < 1000 && l.top < g.bottom - 0.5) problems.push('the log is not after the table');
  }
  // Room for the log: on a wide screen the trick games leave its column free.
  if (W >= 1000 && game && !game.classList.contains('sj-game') && game.getBoundingClientRect().right > W - 260) {
    problems.push(`the game reaches ${game.getBoundingClientRect().right} px: no room for the log column`);
  }
  return { problems, counts: { trick: trick.length, seats: seats.length, buttons: buttons.length, cards: cards.length, status: status.length } };
}
