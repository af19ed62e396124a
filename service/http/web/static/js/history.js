// The game in words: every event this seat may see, the last round's reveal and its scoring
// explained (with the players' names), and what you saw privately (peeks, looks) shown to you alone.
import { h } from "./dom.js";
import { card } from "./cards.js";
import * as words from "./words.js";
import { t } from "./i18n.js";

export function historyPanel(events, ctx) {
  const items = events.map((e) => h("li", { "data-version": e.version }, words.event(e, ctx)));
  return h("details", { class: "history", id: "history" }, h("summary", {}, t("history.title", { count: events.length })),
    h("ol", { reversed: true }, items.reverse()));
}

const PRIVATE = new Set(["PeekChosen", "CardsLooked", "CardPeeked", "CardsPeeked", "CardsShown"]);

/** The last things this seat saw alone (a peek, a look): its own view, never another's. */
export function peeksPanel(events, ctx) {
  const mine = events.filter((e) => PRIVATE.has(e.type) && (e.data.seat === ctx.me || e.actor === ctx.me)
    && (e.data.card || (e.data.cards || []).some((c) => (Array.isArray(c) ? c[c.length - 1] : c)))).slice(-3);
  if (!mine.length) return null;
  return h("section", { class: "peeks", "aria-label": t("peeks.title") }, h("h2", {}, t("peeks.title")),
    h("ul", {}, mine.map((e) => h("li", {}, words.event(e, ctx)))));
}

/** The last round's reveal: every seat's cards as RoundRevealed showed them, by seat (null: none yet). */
export function lastReveal(events) {
  for (let i = events.length - 1; i >= 0; i -= 1) {
    const d = events[i].data || {};
    if (events[i].type === "RoundRevealed") return d.layouts || d.hands || null;
  }
  return null;
}

const byName = (values, ctx) => values.map((s, i) => t("scores.of", { name: ctx.name(i), score: s })).join(", ");

/** The reveal and the scoring of the latest round that was scored, explained. */
export function roundPanel(events, ctx, spanish) {
  let scored = null, revealed = null;
  const judged = [];
  for (let i = events.length - 1; i >= 0; i -= 1) {
    const e = events[i];
    if (!scored && e.type === "RoundScored") scored = e;
    if (scored && e.type === "RoundRevealed" && e.data.round === scored.data.round) { revealed = e; break; }
    if (scored && (e.type === "CallJudged" || e.type === "PlayerEliminated")) judged.unshift(e);
  }
  if (!scored) return null;
  const d = scored.data;
  const rows = [];
  const r = revealed ? revealed.data : null;
  const layouts = r ? (r.layouts || r.hands || []) : [];
  layouts.forEach((cards, seat) => {
    if (!cards) return;
    rows.push(h("li", {}, h("span", { class: "who-name" }, t("reveal.whose", { name: ctx.name(seat) })),
      h("span", { class: "reveal-cards" }, cards.map((c) => (Array.isArray(c)  // [slot, card]; no card: an empty place
        ? card(c[1], { spanish, caption: c[0], extra: "mini", empty: !c[1] }) : card(c, { spanish, extra: "mini" })))),
      r.totals ? ` ${t("reveal.total", { count: r.totals[seat] })}` : ""));
  });
  const explain = [...judged.map((e) => words.event(e, ctx)), words.explain(scored, ctx)].filter(Boolean);
  return h("section", { class: "round-result", "aria-label": t("round.label", { round: d.round }) },
    h("h2", {}, t("round.title", { round: d.round })),
    rows.length ? h("ul", { class: "reveal" }, rows) : null,
    explain.map((text) => h("p", {}, text)),
    d.round_scores ? h("p", {}, t("round.scores", { scores: byName(d.round_scores, ctx) })) : null,
    d.cumulative ? h("p", {}, t("round.totals", { scores: byName(d.cumulative, ctx) })) : null);
}
