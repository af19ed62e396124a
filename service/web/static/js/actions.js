// What a seat may do comes from its view's legal_actions only. Each control that sends one
// carries it, exactly as listed, as JSON in data-action: the page, our tests and anyone's
// driver click the same things. Cards that one action names alone become buttons for it;
// the drawn card can be dragged onto the discard pile or onto one of your places.
import { h } from "./dom.js";
import * as words from "./words.js";

const FIRST = ["Initial peek", "Draw", "The drawn card", "Play a set", "Power", "Call", "Final window", "Snap",
  "Match", "Standing orders"];
const MANY = 30;  // a larger group is folded (its controls one click away), and standing orders always

const key = (seat, slot) => `${seat}:${slot}`;
const plain = (a) => !a.close && (a.penalty_to === undefined || a.penalty_to === "new");

/**
 * Which legal action a click on a card or a pile sends, and what a card dropped there does:
 * {cards: Map "seat:slot" -> action, drops: Map "seat:slot" -> action, stock, discard, discardDrop}.
 */
export function targets(actions, me) {
  const cards = new Map(), drops = new Map();
  const out = { cards, drops, stock: null, discard: null, discardDrop: null };
  const take = (map, k, a) => { if (!map.has(k)) map.set(k, a); };
  // turn actions first: a card names at most one action, and the turn's comes before a snap
  for (const a of actions) {
    switch (a.type) {
      case "Replace": if (plain(a)) { take(cards, key(me, a.slot), a); take(drops, key(me, a.slot), a); } break;
      case "Keep": if (!a.also_discard.length) { take(cards, key(me, a.replace), a); take(drops, key(me, a.replace), a); } break;
      case "PeekOwn": take(cards, key(me, a.slot), a); break;
      case "PeekRival": take(cards, key(a.player, a.slot), a); break;
      case "UsePower6": take(cards, key(a.target[0], a.target[1]), a); break;
      case "Look": if (plain(a) && a.targets.length === 1) take(cards, key(a.targets[0][0], a.targets[0][1]), a); break;
      case "Draw": if (a.source === "stock") out.stock = a; else out.discard = a; break;
      case "DiscardDrawn": case "Release": if (plain(a)) { out.discardDrop = a; } break;
      default: break;
    }
  }
  for (const a of actions) {
    if (a.type === "SnapOwn" && plain(a)) take(cards, key(me, a.slot), a);
    if (a.type === "Match") take(cards, key(me, a.slot), a);
  }
  return out;
}

function button(a, ctx, text = null) {
  return h("button", { type: "button", class: "act", "data-action": JSON.stringify(a) }, text || words.action(a, ctx));
}

function subgroup(a) {
  if (a.type === "Play") return `Discard ${a.discard.join(" ")}`;
  if (a.type === "PlaceOrder") return a.slot ? `On your card ${a.slot}` : "On a rival's card";
  if (a.type === "SnapRival" || a.type === "MatchRival") return `${a.rival}:${a.rival_slot}`;
  if (a.type === "BlindSwap" || a.type === "KingLook") return `Your card ${a.own_slot}`;
  return null;
}

/** The panel of every legal action, grouped, each a button carrying its action. */
export function panel(actions, ctx) {
  const groups = new Map();
  for (const a of actions) {
    const g = words.group(a);
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g).push(a);
  }
  const names = [...groups.keys()].sort((x, y) => {
    const i = FIRST.indexOf(x), j = FIRST.indexOf(y);
    return (i < 0 ? 99 : i) - (j < 0 ? 99 : j);
  });
  const sections = names.map((name) => {
    const list = groups.get(name);
    const subs = new Map();
    for (const a of list) {
      const s = subgroup(a);
      if (!subs.has(s)) subs.set(s, []);
      subs.get(s).push(a);
    }
    const body = [...subs.entries()].map(([s, items]) => (s === null
      ? h("div", { class: "buttons" }, items.map((a) => button(a, ctx)))
      : h("div", { class: "sub" }, h("span", { class: "subname" }, subLabel(s, items[0], ctx)),
        h("div", { class: "buttons" }, items.map((a) => button(a, ctx, shortLabel(a, ctx)))))));
    const id = `group-${name.replace(/\W+/g, "-").toLowerCase()}`;
    if (list.length > MANY || name === "Standing orders") {
      return h("details", { class: "group", id },
        h("summary", {}, `${name} (${list.length} choices)`), body);
    }
    return h("section", { class: "group", id, "aria-label": name }, h("h3", {}, name), body);
  });
  return sections;
}

function subLabel(s, a, ctx) {
  if (a.type === "SnapRival" || a.type === "MatchRival") return `${ctx.whose(a.rival)} card ${a.rival_slot}`;
  return s;
}

function shortLabel(a, ctx) {
  switch (a.type) {
    case "Play": return a.take === "stock" ? "and draw from the stock" : `and take ${a.take.slice(5)}`;
    case "PlaceOrder": return `on a ${a.rank}${a.penalty_to && a.penalty_to !== "new" ? ` (penalty to ${a.penalty_to.slice(6)})` : ""}`;
    case "SnapRival": return `give ${a.give_slot || "nothing"}${a.penalty_to && a.penalty_to !== "new" ? `, penalty to ${a.penalty_to.slice(6)}` : ""}`;
    case "MatchRival": return `give ${a.give_slot}`;
    case "BlindSwap": case "KingLook": return `with ${ctx.whose(a.rival)} ${a.rival_slot}`;
    default: return words.action(a, ctx);
  }
}
