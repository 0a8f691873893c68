// Speech bubbles with the longest texts a seat can say (tests/e2e/test_layout.py): the
// page's own callText (a declaration, a solo's name, an announcement) drawn by felt.js's
// bubbles and placeBubbles, one at every seat at once, then measured: each inside the
// viewport and over no seat's name. Everything after the last await runs in one go, so
// no new state can draw between placing and measuring.
async (calls) => {
  const { bubbles, placeBubbles } = await import('/static/felt.js');
  const { callText } = await import('/static/games/doppelkopf.js');
  const W = window.innerWidth, H = window.innerHeight;
  const felt = document.querySelector('.felt');
  const texts = calls.map(callText).sort((a, b) => b.length - a.length);
  felt.querySelectorAll('.bubble').forEach((b) => b.remove());
  const seats = [...felt.querySelectorAll('.seat')].map((e) => Number(e.dataset.seat));
  const memory = {};
  bubbles({}, [], memory);
  const items = seats.map((seat, i) => ({ key: `probe${seat}`, seat, text: texts[i], kind: 'declared' }));
  placeBubbles(felt, bubbles({}, items, memory));
  const shown = [...felt.querySelectorAll('.bubble')];
  for (const a of document.getAnimations()) {
    if (a.effect?.target?.closest?.('.bubble')) { a.pause(); a.currentTime = 1000; }
  }
  const cut = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
  const problems = [];
  if (shown.length !== seats.length) problems.push(`${shown.length} bubbles for ${seats.length} seats`);
  for (const b of shown) {
    const r = b.getBoundingClientRect();
    if (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5) {
      problems.push(`the bubble "${b.textContent}" is not inside the ${W}x${H} viewport`);
    }
    for (const name of felt.querySelectorAll('.seat-name')) {
      if (cut(r, name.getBoundingClientRect())) problems.push(`the bubble "${b.textContent}" covers the name "${name.textContent.trim()}"`);
    }
  }
  return { problems, texts: shown.map((b) => b.textContent) };
}
