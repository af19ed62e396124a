// What a seat may do comes from its view's legal_actions only. Each control that sends one
// carries the command it sends as JSON in data-action: the page, our tests and anyone's
// driver click the same things. An entry with choices (choices.js) is a small form, its
// entry in data-legal: a select per field with one_of, a checkbox per item of a subset_of,
// and a button whose data-action is the command the form makes now. Cards that one command
// names alone become buttons for it; the drawn card can be dragged onto the discard pile or
// onto one of your places.
import { h, uid } from "./dom.js";
import * as words from "./words.js";
import { t } from "./i18n.js";
import { command, fits, some } from "./choices.js";

const FIRST = ["peek", "draw", "drawn", "play", "power", "call", "final", "snap", "match", "orders"];
const MANY = 30;  // a larger group is folded (its controls one click away)

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

function button(a, ctx) {
  return h("button", { type: "button", class: "act", "data-action": JSON.stringify(a) }, words.action(a, ctx));
}

const same = (x, y) => JSON.stringify(x) === JSON.stringify(y);

function limits(c) {
  if (c.min && c.max !== undefined) return t("field.limits.range", { min: c.min, max: c.max });
  if (c.min) return t("field.limits.min", { min: c.min });
  return c.max !== undefined ? t("field.limits.max", { max: c.max }) : "";
}

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
    const name = words.field(field, entry.type);
    if (c.one_of) {
      const select = h("select", { id, name: field }, c.one_of.map((v, i) => h("option",
        { value: String(i), selected: same(v, now[field]) }, words.value(field, v, ctx))));
      select.addEventListener("change", () => { now[field] = c.one_of[Number(select.value)]; refresh(); });
      return h("span", { class: "field" }, h("label", { for: id }, name), select);
    }
    const boxes = c.subset_of.map((v) => h("input", { type: "checkbox", name: field, value: JSON.stringify(v),
      checked: now[field].some((x) => same(x, v)) }));
    for (const box of boxes) {
      box.addEventListener("change", () => { now[field] = c.subset_of.filter((_, j) => boxes[j].checked); refresh(); });
    }
    const bounds = limits(c);
    return h("fieldset", { class: "field" }, h("legend", {}, bounds ? t("field.with_limits", { field: name, limits: bounds }) : name),
      c.subset_of.map((v, j) => h("label", {}, boxes[j], " ", words.value(field, v, ctx))));
  });
  refresh();
  return h("form", { class: "choose", "data-legal": JSON.stringify(entry), onsubmit: (ev) => ev.preventDefault() },
    fields, send);
}

/** The panel of every legal action, grouped: a button carrying each plain one (its words a verb), a form for each with choices. */
export function panel(actions, ctx, explainTerm = () => null) {
  const groups = new Map();
  for (const a of actions) {
    const g = words.group(a);
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g).push(a);
  }
  const names = [...groups.keys()].sort((x, y) => FIRST.indexOf(x) - FIRST.indexOf(y));
  return names.map((name) => {
    const list = groups.get(name);
    const plain = list.filter((x) => !x.choices);
    const body = [explainTerm(name),
      plain.length ? h("div", { class: "buttons" }, plain.map((a) => button(a, ctx))) : null,
      ...list.filter((x) => x.choices).map((a) => chooser(a, ctx))];
    const id = `group-${name}`;
    if (list.length > MANY) {
      return h("details", { class: "group", id }, h("summary", {}, t("group.folded", { group: t(`group.${name}`), count: list.length })), body);
    }
    return h("section", { class: "group", id, "aria-label": t(`group.${name}`) }, h("h3", {}, t(`group.${name}`)), body);
  });
}
