// Cards as the page shows them: a card the API sent is face up with its rank and suit (words
// for screen readers, a symbol and a letter for the eye: colour is never the only signal); a
// card it did not send (null) is a back labelled "face down", and nothing else.
import { h } from "./dom.js";

const FRENCH = { S: ["♠", "spades", "black"], H: ["♥", "hearts", "red"], D: ["♦", "diamonds", "red"],
  C: ["♣", "clubs", "black"] };
const SPANISH = { O: ["O", "oros", "gold"], C: ["C", "copas", "red"], E: ["E", "espadas", "blue"],
  B: ["B", "bastos", "green"] };
const RANK_NAMES = { A: "ace", J: "jack", Q: "queen", K: "king" };

export function parse(code, spanish = false) {
  if (code === "JK") return { rank: "JK", suit: null, name: "joker", symbol: "★", colour: "black", short: "JK" };
  const rank = code.slice(0, -1), suit = code.slice(-1);
  const table = spanish ? SPANISH : FRENCH;
  const [symbol, suitName, colour] = table[suit] || [suit, suit, "black"];
  const rankName = spanish ? rank : (RANK_NAMES[rank] || rank);
  return { rank, suit, symbol, colour, name: `${rankName} of ${suitName}`, short: `${rank}${symbol}` };
}

/** A card's words: "7 of hearts", "queen of spades", or "face down". */
export function label(code, spanish = false) {
  return code ? parse(code, spanish).name : "face down";
}

/** Short text for running prose: "7♥" (with its words for screen readers around it). */
export function short(code, spanish = false) {
  return code ? parse(code, spanish).short : "a face-down card";
}

/**
 * One card. ``action``: the legal action a click sends (then it is a button carrying it in
 * data-action); ``drop``: the action a card dropped on it sends; ``draggable``: it may be
 * dragged (the card held).
 */
export function card(code, { spanish = false, action = null, actionLabel = null, drop = null, draggable = false,
  caption = null, empty = false, extra = "" } = {}) {
  const face = code ? parse(code, spanish) : null;
  const classes = ["card", empty ? "empty" : (face ? `up ${face.colour}` : "down"), extra].join(" ").trim();
  const text = empty ? "empty place" : label(code, spanish);
  const inner = face
    ? [h("span", { class: "rank", "aria-hidden": "true" }, face.rank === "JK" ? "★" : face.rank),
      h("span", { class: "suit", "aria-hidden": "true" }, face.symbol)]
    : [];
  let el;
  if (action) {
    el = h("button", { type: "button", class: `${classes} act`, "data-action": JSON.stringify(action),
      "aria-label": actionLabel ? `${text}: ${actionLabel}` : text, title: actionLabel || text }, inner);
  } else {
    el = h("span", { class: classes, role: "img", "aria-label": text }, inner);
  }
  if (drop) {
    el.dataset.drop = JSON.stringify(drop);
    el.classList.add("drop");
  }
  if (draggable) {
    el.setAttribute("draggable", "true");
    el.classList.add("held");
  }
  if (caption === null) return el;
  return h("span", { class: "place" }, el, h("span", { class: "slot" }, caption));
}
