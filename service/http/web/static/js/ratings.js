// Ratings (docs/ratings.md): a leaderboard per game (#/ratings/<ruleset>, GET /v1/ratings/{ruleset},
// a page at a time), a player's profile (#/player/<handle>, GET /v1/players/{handle}) with their
// results and, per game, their rating over time drawn as SVG; and the words of a rating change,
// for the game-over panel and the game-over notification.
import { h, clear, toast } from "./dom.js";
import * as api from "./api.js";
import { t, when, problem } from "./i18n.js";
import { rulesetTitle } from "./terms.js";

const RULESETS = ["corte", "cuatro-cartas", "pedro", "least-score"];
const SVG = "http://www.w3.org/2000/svg";

/** A rating as the page shows it: one decimal, in the player's language. */
export const shown = (value) => new Intl.NumberFormat(document.documentElement.lang || "en",
  { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value);

/** "before → after (±delta)" of a change ({before, after}, each {rating, mu, sigma}). */
export function change(c) {
  const delta = c.after.rating - c.before.rating;
  return t("rating.change", { before: shown(c.before.rating), after: shown(c.after.rating),
    delta: `${delta >= 0 ? "+" : "−"}${shown(Math.abs(delta))}` });
}

/** The mark after the name of a player whose account is a bot's (nothing for a person's). */
export function botBadge(p) {
  return p.bot ? [" ", h("span", { class: "bot-badge" }, t("bot.badge"))] : null;
}

/** A player's name linking to their profile, marked when the account is a bot's. */
export function playerLink(p) {
  const name = p.handle ? h("a", { href: `#/player/${encodeURIComponent(p.handle)}` }, p.name) : p.name;
  return [name, botBadge(p)];
}

export function mountBoard(root, ruleset) {
  const game = RULESETS.includes(ruleset) ? ruleset : RULESETS[0];
  let cursor = null;
  let closed = false;
  const body = h("tbody", { id: "board-rows" });
  const more = h("button", { type: "button", id: "board-more", hidden: true, onclick: () => page() }, t("ratings.more"));
  const empty = h("p", { id: "board-empty", hidden: true }, t("ratings.empty", { game: rulesetTitle(game) }));
  const pick = h("select", { id: "board-ruleset", onchange: () => { location.hash = `#/ratings/${pick.value}`; } },
    RULESETS.map((r) => h("option", { value: r, selected: r === game }, rulesetTitle(r))));
  clear(root).append(h("section", { class: "leaderboard", id: "board", "aria-label": t("ratings.title", { game: rulesetTitle(game) }) },
    h("h1", {}, t("ratings.title", { game: rulesetTitle(game) })),
    h("p", {}, h("label", { for: "board-ruleset" }, t("ratings.choose")), " ", pick),
    h("p", { class: "hint" }, t("ratings.explain")),
    h("table", {}, h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("ratings.col.rank")),
      h("th", { scope: "col" }, t("ratings.col.player")), h("th", { scope: "col" }, t("ratings.col.rating")),
      h("th", { scope: "col" }, t("ratings.col.games")))), body),
    empty, more));
  let n = 0;
  async function page() {
    try {
      const out = await api.get(`/v1/ratings/${game}?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      if (closed) return;
      for (const e of out.ratings) {
        n += 1;
        body.append(h("tr", { class: e.provisional ? "provisional" : null, dataset: { player: e.player.id } },
          h("td", {}, String(n)), h("td", {}, playerLink(e.player)),
          h("td", {}, shown(e.rating), e.provisional ? [" ", h("span", { class: "hint" }, t("ratings.provisional"))] : null),
          h("td", {}, String(e.games))));
      }
      cursor = out.next_cursor;
      more.hidden = !cursor;
      empty.hidden = n > 0;
    } catch (err) { toast(problem(err)); }
  }
  page();
  return () => { closed = true; };
}

// The rating after each rated game as a line (no chart library: a few SVG elements), with the
// first game's rating before it as the start; a title on each point says which game it was.
function chart(game, entry) {
  const points = [entry.history[0].before.rating, ...entry.history.map((x) => x.after.rating)];
  const W = 320, H = 120, pad = 8;
  const lo = Math.min(...points), hi = Math.max(...points);
  const span = hi - lo || 1;
  const x = (i) => pad + (i * (W - 2 * pad)) / Math.max(points.length - 1, 1);
  const y = (v) => H - pad - ((v - lo) * (H - 2 * pad)) / span;
  const el = (tag, attrs) => {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    return node;
  };
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-chart", role: "img", id: `chart-${game}`,
    "aria-label": t("profile.chart", { game: rulesetTitle(game), from: shown(points[0]), to: shown(points[points.length - 1]) }) });
  svg.append(el("polyline", { points: points.map((v, i) => `${x(i)},${y(v)}`).join(" "), fill: "none",
    stroke: "currentColor", "stroke-width": 2 }));
  points.forEach((v, i) => {
    const dot = el("circle", { cx: x(i), cy: y(v), r: 3, fill: "currentColor" });
    const title = el("title", {});
    title.textContent = i === 0 ? t("profile.start", { rating: shown(v) })
      : t("profile.point", { rating: shown(v), when: when(entry.history[i - 1].at, { dateStyle: "medium" }) });
    dot.append(title);
    svg.append(dot);
  });
  return svg;
}

export function mountProfile(root, handle) {
  let closed = false;
  clear(root).append(h("p", { class: "loading", "aria-busy": "true" }, "…"));
  api.get(`/v1/players/${encodeURIComponent(handle)}`).then((p) => {
    if (closed) return;
    const results = Object.entries(p.games.rulesets).map(([r, g]) =>
      h("li", {}, t("profile.ruleset_line", { game: rulesetTitle(r), played: g.played, won: g.won })));
    const rated = Object.entries(p.ratings).map(([r, e]) => h("section", { class: "profile-rating", dataset: { ruleset: r } },
      h("h3", {}, rulesetTitle(r)),
      h("p", {}, t("profile.rating", { rating: shown(e.rating), count: e.games }),
        e.provisional ? [" ", h("span", { class: "hint" }, t("ratings.provisional"))] : null,
        " ", h("a", { href: `#/ratings/${r}` }, t("profile.board"))),
      e.history.length ? chart(r, e) : null,
      h("details", {}, h("summary", {}, t("profile.history")), h("ol", {}, e.history.map((x) => h("li", {},
        h("a", { href: `#/game/${x.game_id}` }, when(x.at, { dateStyle: "medium" })), " · ",
        t("profile.ranked", { rank: x.rank }), " · ", change(x)))))));
    clear(root).append(h("section", { class: "profile", id: "profile" },
      h("h1", {}, p.name, botBadge(p)),
      h("p", { class: "hint" }, `@${p.handle}`),
      h("h2", {}, t("profile.results")),
      h("p", {}, t("profile.totals", { played: p.games.played, won: p.games.won })),
      results.length ? h("ul", {}, results) : null,
      h("h2", {}, t("profile.ratings")),
      rated.length ? rated : h("p", {}, t("profile.none"))));
  }).catch((err) => { if (!closed) clear(root).append(h("p", { class: "error" }, problem(err))); });
  return () => { closed = true; };
}
