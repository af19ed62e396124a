// Cards as the page shows them: a card the API sent is face up with its rank and suit (words
// for screen readers, a symbol and a letter for the eye: colour is never the only signal); a
// card it did not send (null) is a back labelled "face down", and nothing else.
import { h } from "./dom.js";
import { t } from "./i18n.js";

// a suit's symbol and colour; its words are the catalog's suit.<S> (suit.spanish.<S>: the Spanish pack)
const FRENCH = { S: ["♠", "black"], H: ["♥", "red"], D: ["♦", "red"], C: ["♣", "black"] };
const SPANISH = { O: ["O", "gold"], C: ["C", "red"], E: ["E", "blue"], B: ["B", "green"] };
const NAMED = new Set(["A", "J", "Q", "K"]);

export function parse(code, spanish = false) {
  if (code === "JK") return { rank: "JK", suit: null, name: t("card.joker"), symbol: "★", colour: "black", short: "JK" };
  const rank = code.slice(0, -1), suit = code.slice(-1);
  const [symbol, colour] = (spanish ? SPANISH : FRENCH)[suit] || [suit, "black"];
  const rankName = !spanish && NAMED.has(rank) ? t(`rank.${rank}`) : rank;
  const suitName = t(spanish ? `suit.spanish.${suit}` : `suit.${suit}`);
  return { rank, suit, symbol, colour, name: t("card.name", { rank: rankName, suit: suitName }), short: `${rank}${symbol}` };
}

/** A card's words: "7 of hearts", "rey de corazones", "rei de copas", or "face down". */
export function label(code, spanish = false) {
  return code ? parse(code, spanish).name : t("card.down");
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
  const text = empty ? t("card.empty") : label(code, spanish);
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
