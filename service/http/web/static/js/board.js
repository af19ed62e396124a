// The table as one seat sees it, drawn from its view alone: your layout with the cards you
// know face up and the rest face down, the rivals' layouts with their card counts, the stock
// and the discard pile, whose turn it is, the open window and its claims, the scores and the
// deadline. A card is face up only when the view has it, or, once the game is over, when the
// last round's reveal (an event this seat was sent) showed it.
import { h } from "./dom.js";
import { card } from "./cards.js";
import * as words from "./words.js";
import { t, list } from "./i18n.js";
import { targets, panel } from "./actions.js";
import { command, expand } from "./choices.js";
import { term, rulesPage } from "./terms.js";

const PHASES = new Set(["round_setup", "setup", "initial_peek", "turns", "final_lap", "final_window", "reveal", "game_over"]);
const STEPS = new Set(["await_action", "holding", "power", "power_look", "power_swap", "king_decide", "between_turns"]);
// which explanation a group of actions comes with
const GROUP_TERMS = { snap: "snap", match: "match", final: "final_window", orders: "standing_order", power: "power" };

/** The card of a seat's place as the last reveal showed it (the game is over), else null. */
function revealed(reveal, seat, c, i) {
  const cards = reveal && reveal[seat];
  if (!cards) return null;
  const hit = cards.find((x) => Array.isArray(x) && x[0] === c.slot);
  return hit ? hit[1] : (Array.isArray(cards[i]) ? null : cards[i] || null);
}

function seatSection(p, view, ctx, aim, spanish, mine, reveal) {
  const t_ = view.table;
  const name = ctx.name(p.seat);
  const turn = t_.turn === p.seat;
  const awaited = view.awaiting.includes(p.seat);
  const cards = p.cards.map((c, i) => {
    const slot = c.slot;
    const k = `${p.seat}:${slot}`;
    const act = slot !== null ? aim.cards.get(k) : null;
    const drop = slot !== null ? aim.drops.get(k) : null;
    const code = c.card || (c.empty ? null : revealed(reveal, p.seat, c, i));
    return h("li", {}, card(code, { spanish, empty: c.empty, action: c.empty ? null : act,
      actionLabel: act ? words.action(act, ctx) : null, drop, caption: slot !== null ? slot : `${i + 1}` }));
  });
  const title = mine ? t("seat.yours", { name }) : t("seat.theirs", { name });
  const score = t_.scores && t_.scores[p.seat] !== undefined ? t_.scores[p.seat] : null;
  const facts = [t("count.cards", { count: p.card_count })];
  if (score !== null) facts.push(t("seat.score", { score }));
  if (p.own_turns !== null && p.own_turns !== undefined) facts.push(t("count.turns", { count: p.own_turns }));
  return h("section", { class: `seat${mine ? " mine" : ""}${turn ? " turn" : ""}`, "aria-label": title, "data-seat": p.seat },
    h("h2", {}, title,
      turn ? h("span", { class: "badge turn-badge" }, t("badge.turn")) : null,
      !turn && awaited ? h("span", { class: "badge" }, t("badge.awaited")) : null,
      p.locked ? h("span", { class: "badge" }, t("badge.locked")) : null),
    h("p", { class: "facts" }, facts.join(" · ")),
    h("ul", { class: "cards", role: "list" }, cards));
}

function middle(view, ctx, aim, spanish) {
  const t_ = view.table;
  const ext = t_.extension || {};
  const stock = h("div", { class: "pile" }, h("h3", {}, t("pile.stock")),
    card(null, { spanish, action: aim.stock, actionLabel: aim.stock ? words.action(aim.stock, ctx) : null, extra: "stock" }),
    h("p", { class: "facts" }, t("count.cards", { count: t_.stock_count })));
  const discardAction = aim.discard || aim.discardDrop;
  const openSet = ext.ruleset === "least-score" && ext.open_set && ext.open_set.length ? ext.open_set : null;
  const top = openSet
    ? h("div", { class: "open-set" }, openSet.map((c) => card(c, { spanish })))
    : (t_.discard_top || discardAction
      ? card(t_.discard_top, { spanish, action: discardAction, actionLabel: discardAction ? words.action(discardAction, ctx) : null,
        drop: aim.discardDrop, empty: !t_.discard_top, extra: "discard" })
      : h("span", { class: "card empty", role: "img", "aria-label": t("pile.empty") }));
  const discard = h("div", { class: "pile" }, h("h3", {}, t(openSet ? "pile.open_set" : "pile.discard")), top,
    h("p", { class: "facts" }, t("count.cards", { count: t_.discard_count })));
  const parts = [stock, discard];
  if (t_.held) {
    const mineHeld = t_.turn === view.seat;
    const movable = mineHeld && Boolean(aim.discardDrop || aim.drops.size);
    parts.push(h("div", { class: "pile held-pile" }, h("h3", {}, mineHeld ? t("pile.held.yours") : t("pile.held.theirs", { name: ctx.name(t_.turn) })),
      card(t_.held.card, { spanish, draggable: movable }),
      h("p", { class: "facts" }, movable ? t("pile.held.drag") : t(t_.held.source === "discard" ? "pile.from_discard" : "pile.from_stock"))));
  }
  return h("div", { class: "middle" }, parts);
}

function notes(view, ctx, spanish) {
  const t_ = view.table;
  const out = [];
  const page = rulesPage(view.ruleset);
  if (t_.window) {
    const w = t_.window;
    out.push(h("div", { class: "note window" }, h("p", {}, h("strong", {}, t(w.final ? "note.final_window" : "note.window")), " ",
      card(w.card, { spanish, extra: "mini" }), " ", t("note.window.on", { card: words.cardText(w.card, ctx) }), " ",
      w.won ? t("note.window.won", { who: ctx.who(w.won_by) }) : t("note.window.open"),
      w.passed && w.passed.length ? ` ${t("note.window.passed", { names: list(w.passed.map(ctx.who)) })}` : ""),
    term(w.final ? "final_window" : "window", page)));
  }
  if (t_.call) out.push(h("p", { class: "note call" }, h("strong", {}, t("note.call")), " ", t("note.call.text", { who: ctx.who(t_.call.seat), call: words.callName(t_.call.kind) })));
  if (t_.power) out.push(h("p", { class: "note power" }, h("strong", {}, t("note.power")), " ", t("note.power.text", { rank: words.rankWord(t_.power.rank) })));
  const ext = t_.extension || {};
  if (ext.king) out.push(h("p", { class: "note power" }, t("note.king", { slot: ext.king.own_slot, other: words.loc([ext.king.rival, ext.king.rival_slot], ctx) })));
  if (t_.phase === "final_lap") out.push(h("div", { class: "note" }, h("p", {}, t("note.final_lap")), term("final_lap", page)));
  return out;
}

function orders(view, ctx) {
  const ext = view.table.extension || {};
  if (!Array.isArray(ext.orders)) return null;
  // one CancelOrder entry names every live order: a Cancel button beside each
  const cancels = new Map(view.legal_actions.filter((a) => a.type === "CancelOrder")
    .flatMap((a) => expand(a, 1000) || [command(a)]).map((a) => [a.order_id, a]));
  const what = (o) => (o.slot ? t("loc.own", { slot: o.slot }) : words.loc([o.rival, o.rival_slot], ctx));
  return h("section", { class: "orders", "aria-label": t("orders.title") }, h("h2", {}, t("orders.title")),
    ext.orders.length ? h("ul", {}, ext.orders.map((o) => h("li", {},
      t(String(o.claim).startsWith("Match") ? "orders.item.match" : "orders.item.snap", { id: o.order_id, card: what(o), rank: words.aRank(o.rank) }), " ",
      cancels.has(o.order_id) ? h("button", { type: "button", class: "act small", "data-action": JSON.stringify(cancels.get(o.order_id)) }, t("orders.cancel")) : null)))
      : h("p", {}, t("orders.none")));
}

/** Whether this seat has something to do now (a standing order alone is not a move). */
export function yourMove(view) {
  return view.seat !== null && view.awaiting.includes(view.seat)
    && view.legal_actions.some((a) => a.type !== "PlaceOrder" && a.type !== "CancelOrder");
}

export function headline(view, ctx) {
  const t_ = view.table;
  if (view.status === "finished" || (t_ && t_.phase === "game_over")) {
    const w = (t_ && t_.winners) || [];
    return w.length ? t("head.over.won", { names: list(w.map(ctx.who)), count: w.length }) : t("head.over");
  }
  if (!t_) return t("head.waiting_players");
  const me = view.seat;
  const phase = t(PHASES.has(t_.phase) ? `phase.${t_.phase}` : "phase.other");
  const step = t_.step && STEPS.has(t_.step) ? t(`step.${t_.step}`) : null;
  if (yourMove(view)) {
    return step && t_.turn === me ? t("head.yours.step", { round: t_.round, phase, step }) : t("head.yours", { round: t_.round, phase });
  }
  const waiting = view.awaiting.filter((s) => s !== me).map(ctx.who);
  const names = waiting.length ? list(waiting) : t("head.nobody");
  return step ? t("head.waiting.step", { round: t_.round, phase, step, names }) : t("head.waiting", { round: t_.round, phase, names });
}

/** The whole table of one view (null table: nothing dealt yet); ``reveal``: the last round's layouts, once the game is over. */
export function render(view, ctx, spanish, reveal = null) {
  const t_ = view.table;
  const aim = targets(view.legal_actions, view.seat);
  const me = t_.players.find((p) => p.seat === view.seat);
  const rivals = t_.players.filter((p) => p.seat !== view.seat);
  const page = rulesPage(view.ruleset);
  const scores = h("section", { class: "scores-box", "aria-label": t("scores.title") }, h("table", { class: "scores" }, h("caption", {}, t("scores.title")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("scores.player")), h("th", { scope: "col" }, t("scores.total")),
      h("th", { scope: "col" }, t("scores.last")))),
    h("tbody", {}, t_.players.map((p) => h("tr", {}, h("th", { scope: "row" }, ctx.name(p.seat)),
      h("td", {}, t_.scores[p.seat]), h("td", {}, t_.last_round_scores ? t_.last_round_scores[p.seat] : "–"))))));
  const explainTerm = (group) => (GROUP_TERMS[group] ? term(GROUP_TERMS[group], page) : null);
  return h("div", { class: "board" },
    h("div", { class: "rivals" }, rivals.map((p) => seatSection(p, view, ctx, aim, spanish, false, reveal))),
    middle(view, ctx, aim, spanish),
    notes(view, ctx, spanish),
    me ? seatSection(me, view, ctx, aim, spanish, true, reveal) : null,
    view.legal_actions.length
      ? h("section", { class: "actions", "aria-label": t("actions.title") }, h("h2", {}, t("actions.title")), panel(view.legal_actions, ctx, explainTerm))
      : null,
    orders(view, ctx),
    scores);
}
