// The table as one seat sees it, drawn from its view alone: your layout with the cards you
// know face up and the rest face down, the rivals' layouts with their card counts, the stock
// and the discard pile, whose turn it is, the open window and its claims, the scores and the
// deadline. A card is face up only when the view has it.
import { h } from "./dom.js";
import { card } from "./cards.js";
import * as words from "./words.js";
import { targets, panel } from "./actions.js";
import { command, expand } from "./choices.js";

const PHASES = { round_setup: "the deal", setup: "the deal", initial_peek: "the initial peek", turns: "turns",
  final_lap: "the final lap", final_window: "the final window", reveal: "the reveal", game_over: "game over" };
const STEPS = { await_action: "to draw or call", holding: "holding the drawn card", power: "using a power",
  power_look: "using a power (look)", power_swap: "using a power (swap)", king_decide: "deciding on the King's swap",
  between_turns: "between turns" };

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

function seatSection(p, view, ctx, aim, spanish, mine) {
  const t = view.table;
  const name = ctx.names[p.seat] || `seat ${p.seat}`;
  const turn = t.turn === p.seat;
  const awaited = view.awaiting.includes(p.seat);
  const cards = p.cards.map((c, i) => {
    const slot = c.slot;
    const k = `${p.seat}:${slot}`;
    const act = slot !== null ? aim.cards.get(k) : null;
    const drop = slot !== null ? aim.drops.get(k) : null;
    return h("li", {}, card(c.card, { spanish, empty: c.empty, action: c.empty ? null : act,
      actionLabel: act ? words.action(act, ctx) : null, drop, caption: slot !== null ? slot : `${i + 1}` }));
  });
  const title = mine ? `Your cards (${name})` : `${name}'s cards`;
  const score = t.scores && t.scores[p.seat] !== undefined ? t.scores[p.seat] : null;
  return h("section", { class: `seat${mine ? " mine" : ""}${turn ? " turn" : ""}`, "aria-label": title,
    "data-seat": p.seat },
  h("h2", {}, title,
    turn ? h("span", { class: "badge turn-badge" }, "▶ turn") : null,
    !turn && awaited ? h("span", { class: "badge" }, "awaited") : null,
    p.locked ? h("span", { class: "badge" }, "locked") : null),
  h("p", { class: "facts" }, plural(p.card_count, "card"),
    score !== null ? ` · score ${score}` : "",
    p.own_turns !== null && p.own_turns !== undefined ? ` · ${plural(p.own_turns, "turn")}` : ""),
  h("ul", { class: "cards", role: "list" }, cards));
}

function middle(view, ctx, aim, spanish) {
  const t = view.table;
  const ext = t.extension || {};
  const stock = h("div", { class: "pile" }, h("h3", {}, "Stock"),
    card(null, { spanish, action: aim.stock, actionLabel: aim.stock ? words.action(aim.stock, ctx) : null,
      extra: "stock" }),
    h("p", { class: "facts" }, plural(t.stock_count, "card")));
  const discardAction = aim.discard || aim.discardDrop;
  const openSet = ext.ruleset === "least-score" && ext.open_set && ext.open_set.length ? ext.open_set : null;
  const top = openSet
    ? h("div", { class: "open-set" }, openSet.map((c) => card(c, { spanish })))
    : (t.discard_top || discardAction
      ? card(t.discard_top, { spanish, action: discardAction, actionLabel: discardAction ? words.action(discardAction, ctx) : null,
        drop: aim.discardDrop, empty: !t.discard_top, extra: "discard" })
      : h("span", { class: "card empty", role: "img", "aria-label": "empty pile" }));
  const discard = h("div", { class: "pile" }, h("h3", {}, openSet ? "Open set" : "Discard pile"), top,
    h("p", { class: "facts" }, plural(t.discard_count, "card")));
  const parts = [stock, discard];
  if (t.held) {
    const mineHeld = t.turn === view.seat;
    parts.push(h("div", { class: "pile held-pile" }, h("h3", {}, mineHeld ? "Your drawn card" : `${ctx.names[t.turn] || "The player"}'s drawn card`),
      card(t.held.card, { spanish, draggable: mineHeld && Boolean(aim.discardDrop || aim.drops.size) }),
      h("p", { class: "facts" }, mineHeld && (aim.discardDrop || aim.drops.size)
        ? "Drag it onto the discard pile or onto one of your places, or use the buttons below."
        : `from the ${t.held.source}`)));
  }
  return h("div", { class: "middle" }, parts);
}

function notes(view, ctx, spanish) {
  const t = view.table;
  const out = [];
  if (t.window) {
    const w = t.window;
    out.push(h("p", { class: "note window" }, h("strong", {}, w.final ? "Final window " : "Window "),
      `open on `, card(w.card, { spanish, extra: "mini" }), ` ${words.cardText(w.card, ctx)}. `,
      w.won ? `Won by ${ctx.who(w.won_by)}.` : "Nobody has won it yet.",
      w.passed && w.passed.length ? ` Passed: ${w.passed.map(ctx.who).join(", ")}.` : ""));
  }
  if (t.call) out.push(h("p", { class: "note call" }, h("strong", {}, "Call: "), `${ctx.who(t.call.seat)} called ${t.call.kind}.`));
  if (t.power) out.push(h("p", { class: "note power" }, h("strong", {}, "Power: "), `the ${t.power.rank}'s power is in use.`));
  const ext = t.extension || {};
  if (ext.king) out.push(h("p", { class: "note power" }, `You looked at your card ${ext.king.own_slot} and ${ctx.whose(ext.king.rival)} card ${ext.king.rival_slot}.`));
  return out;
}

function orders(view, ctx) {
  const ext = view.table.extension || {};
  if (!Array.isArray(ext.orders)) return null;
  // one CancelOrder entry names every live order: a Cancel button beside each
  const cancels = new Map(view.legal_actions.filter((a) => a.type === "CancelOrder")
    .flatMap((a) => expand(a, 1000) || [command(a)]).map((a) => [a.order_id, a]));
  return h("section", { class: "orders", "aria-label": "Your standing orders" }, h("h2", {}, "Your standing orders"),
    ext.orders.length ? h("ul", {}, ext.orders.map((o) => h("li", {},
      `${o.order_id}: ${o.claim} ${o.slot ? `your card ${o.slot}` : `${ctx.whose(o.rival)} card ${o.rival_slot}`} on a ${o.rank} `,
      cancels.has(o.order_id) ? h("button", { type: "button", class: "act small", "data-action": JSON.stringify(cancels.get(o.order_id)) }, "Cancel") : null)))
      : h("p", {}, "None. Leave one below: it snaps for you when its rank is discarded, even while you are away."));
}

export function headline(view, ctx) {
  const t = view.table;
  if (view.status === "finished" || (t && t.phase === "game_over")) {
    const w = (t && t.winners) || [];
    return w.length ? `Game over: ${w.map(ctx.who).join(" and ")} won.` : "Game over.";
  }
  if (!t) return "Waiting for players.";
  const me = view.seat;
  const mine = me !== null && view.awaiting.includes(me) && view.legal_actions.some((a) => a.type !== "PlaceOrder" && a.type !== "CancelOrder");
  const phase = PHASES[t.phase] || t.phase;
  const step = t.step && STEPS[t.step] ? `, ${STEPS[t.step]}` : "";
  if (mine) return `Your move: round ${t.round}, ${phase}${t.turn === me ? step : ""}.`;
  const waiting = view.awaiting.filter((s) => s !== me).map(ctx.who);
  return `Round ${t.round}, ${phase}${step}: waiting for ${waiting.join(", ") || "nobody"}.`;
}

/** The whole table of one view (null table: nothing dealt yet). */
export function render(view, ctx, spanish) {
  const t = view.table;
  const aim = targets(view.legal_actions, view.seat);
  const me = t.players.find((p) => p.seat === view.seat);
  const rivals = t.players.filter((p) => p.seat !== view.seat);
  const scores = h("section", { class: "scores-box", "aria-label": "Scores" }, h("table", { class: "scores" }, h("caption", {}, "Scores"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Total"),
      h("th", { scope: "col" }, "Last round"))),
    h("tbody", {}, t.players.map((p) => h("tr", {}, h("th", { scope: "row" }, ctx.names[p.seat] || `seat ${p.seat}`),
      h("td", {}, t.scores[p.seat]), h("td", {}, t.last_round_scores ? t.last_round_scores[p.seat] : "–"))))));
  return h("div", { class: "board" },
    h("div", { class: "rivals" }, rivals.map((p) => seatSection(p, view, ctx, aim, spanish, false))),
    middle(view, ctx, aim, spanish),
    notes(view, ctx, spanish),
    me ? seatSection(me, view, ctx, aim, spanish, true) : null,
    view.legal_actions.length
      ? h("section", { class: "actions", "aria-label": "What you may do" }, h("h2", {}, "What you may do"), panel(view.legal_actions, ctx))
      : null,
    orders(view, ctx),
    scores);
}
