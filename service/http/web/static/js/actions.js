// What a seat may do comes from its view's legal_actions only. Each control that sends one
// carries the command it sends as JSON in data-action: the page, our tests and anyone's
// driver click the same things. An entry with choices (choices.js) is a small form, its
// entry in data-legal: a select per field with one_of, a checkbox per item of a subset_of,
// and a button whose data-action is the command the form makes now. Cards that one command
// names alone become buttons for it; the drawn card can be dragged onto the discard pile or
// onto one of your places.
import { h, uid } from "./dom.js";
import * as words from "./words.js";
import { command, fits, some } from "./choices.js";

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
  const each = actions.flatMap((a) => some(a));
  // turn actions first: a card names at most one action, and the turn's comes before a snap
  for (const a of each) {
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
  for (const a of each) {
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

const same = (x, y) => JSON.stringify(x) === JSON.stringify(y);

/** A form for an entry with choices: each field's values, and the button that sends the command they make. */
function chooser(entry, ctx) {
  const now = command(entry);
  const send = h("button", { type: "button", class: "act" });
  const refresh = () => {
    send.dataset.action = JSON.stringify(now);
    send.textContent = words.action(now, ctx);
    send.disabled = !Object.entries(entry.choices).every(([f, c]) => c.one_of || fits(c, now[f]));
  };
  const fields = Object.entries(entry.choices).map(([field, c]) => {
    const id = uid("choose");
    if (c.one_of) {
      const select = h("select", { id, name: field }, c.one_of.map((v, i) => h("option",
        { value: String(i), selected: same(v, now[field]) }, words.value(field, v, ctx))));
      select.addEventListener("change", () => { now[field] = c.one_of[Number(select.value)]; refresh(); });
      return h("span", { class: "field" }, h("label", { for: id }, words.field(field)), select);
    }
    const boxes = c.subset_of.map((v) => h("input", { type: "checkbox", name: field, value: JSON.stringify(v),
      checked: now[field].some((x) => same(x, v)) }));
    for (const box of boxes) {
      box.addEventListener("change", () => { now[field] = c.subset_of.filter((_, j) => boxes[j].checked); refresh(); });
    }
    const limits = c.min && c.max !== undefined ? ` (${c.min} to ${c.max})`
      : c.min ? ` (at least ${c.min})` : c.max !== undefined ? ` (up to ${c.max})` : "";
    return h("fieldset", { class: "field" }, h("legend", {}, words.field(field) + limits),
      c.subset_of.map((v, j) => h("label", {}, boxes[j], ` ${words.value(field, v, ctx)}`)));
  });
  refresh();
  return h("form", { class: "choose", "data-legal": JSON.stringify(entry), onsubmit: (ev) => ev.preventDefault() },
    fields, send);
}

/** The panel of every legal action, grouped: a button carrying each plain one, a form for each with choices. */
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
    for (const a of list.filter((x) => !x.choices)) {
      const s = subgroup(a);
      if (!subs.has(s)) subs.set(s, []);
      subs.get(s).push(a);
    }
    const body = [...subs.entries()].map(([s, items]) => (s === null
      ? h("div", { class: "buttons" }, items.map((a) => button(a, ctx)))
      : h("div", { class: "sub" }, h("span", { class: "subname" }, subLabel(s, items[0], ctx)),
        h("div", { class: "buttons" }, items.map((a) => button(a, ctx, shortLabel(a, ctx)))))));
    body.push(...list.filter((x) => x.choices).map((a) => chooser(a, ctx)));
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
