"""What the browser tests read inside a player's page, each in one evaluation (a round trip to
the browser is costlier than the reading): scripts for ``page.evaluate``."""

FORMS = ".game form[data-legal]"
# for Seat.send: whether a control may take the drawn card dropped on it (when dragging), how
# many controls carry the command, whether one is a card (clicked first), and whether the one
# clicked is in a folded group
CONTROL = """([text, drag]) => {
  const carrying = (attr) => [...document.querySelectorAll(`.game [data-${attr}]`)].filter(e => e.dataset[attr] === text);
  const controls = carrying('action'), cards = controls.filter(e => e.matches('button.card'));
  const control = cards[0] || controls[0];
  return {drop: drag && carrying('drop').length > 0, controls: controls.length, card: cards.length > 0,
          folded: Boolean(control && control.closest('details:not([open])'))};
}"""
# null, or how far the page is wider than the window and the first elements past its edge
WIDE = ("(() => { const over = document.documentElement.scrollWidth - innerWidth; return over <= 0 ? null : [over,"
        " [...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right > innerWidth)"
        ".slice(0, 5).map(e => e.tagName + '.' + e.className + ': ' + e.textContent.slice(0, 60))]; })()")
# what Seat.check_table reads of a game's page, in one evaluation
TABLE = f"""() => ({{
  wide: {WIDE},
  cards: [...document.querySelectorAll('.game .board .seat')].map(s => [Number(s.dataset.seat),
    [...s.querySelectorAll('.cards .card')].map(c => c.getAttribute('aria-label'))]),
  forms: [...document.querySelectorAll('{FORMS}')].map(e => e.dataset.legal),
  actions: [...document.querySelectorAll('.game [data-action]')].map(e => e.dataset.action),
}})"""

# axe cannot measure text on the felt (a gradient: it reports "incomplete", never a failure). This
# does, against the felt's lightest colour (app.css, .board) and the WCAG AA ratios: every
# visible text on a .board with no ground of its own in between (a card, a paper box, a note
# have theirs, which axe measures). A seat's translucent shade only darkens the felt under
# white words, so it is left out. Returns what falls short: [element, words, colour, ratio].
ON_THE_FELT = """() => {
  const felt = [0x2a, 0x72, 0x49];
  const channels = (css) => (css.match(/[\\d.]+/g) || []).map(Number);
  const lin = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  const lum = ([r, g, b]) => 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  const bad = [];
  for (const board of document.querySelectorAll('.board')) {
    const walk = document.createTreeWalker(board, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const el = n.parentElement;
      if (!n.data.trim() || el.closest('.sr-only') || !el.checkVisibility({ visibilityProperty: true })) continue;
      let alpha = 1, own = false;
      for (let a = el; a && a !== board; a = a.parentElement) {
        const cs = getComputedStyle(a);
        const bg = channels(cs.backgroundColor);
        if (cs.backgroundImage !== 'none' || (bg.length === 3 || bg[3] >= 0.5)) { own = true; break; }
        alpha *= Number(cs.opacity);
      }
      if (own) continue;
      const cs = getComputedStyle(el);
      const [r, g, b, a = 1] = channels(cs.color);
      const k = a * alpha;
      const fg = [r, g, b].map((c, i) => c * k + felt[i] * (1 - k));
      const [hi, lo] = [lum(fg), lum(felt)].sort((x, y) => y - x);
      const ratio = (hi + 0.05) / (lo + 0.05);
      const size = parseFloat(cs.fontSize), bold = Number(cs.fontWeight) >= 700;
      if (ratio < (size >= 24 || (bold && size >= 18.66) ? 3 : 4.5)) {
        bad.push([el.tagName + '.' + el.className, n.data.trim().slice(0, 40), cs.color, Math.round(ratio * 100) / 100]);
      }
    }
  }
  return bad;
}"""

# Seat.at_version: until the game's page shows ``v`` or later, its history the events up to
# ``e``, with no update due; or an error after ``ms``. Looked at whenever the page changes (a
# MutationObserver), not at every frame as Playwright's wait_for_function does: its polling
# made the browser draw about 60 frames a second for as long as the wait lasted, which cost
# Chromium 0.10-0.13 CPU-s per second of waiting against none
AT_VERSION = """([v, e, ms]) => new Promise((resolve, reject) => {
  const ok = () => { const g = document.querySelector('.game'); return Boolean(g && Number(g.dataset.version) >= v
    && (Number(g.dataset.events) || 0) >= e && g.getAttribute('aria-busy') === 'false'); };
  if (ok()) { resolve(true); return; }
  const done = (settle) => { observer.disconnect(); clearTimeout(timer); settle(); };
  const observer = new MutationObserver(() => { if (ok()) done(() => resolve(true)); });
  observer.observe(document, {subtree: true, childList: true, attributes: true,
                              attributeFilter: ['data-version', 'data-events', 'aria-busy']});
  const timer = setTimeout(() => done(() => reject(new Error(`not at version ${v} after ${ms} ms`))), ms);
})"""
