// Short explanations of the words a player meets at the table (window, snap, standing order,
// final lap, ...), in the player's language, each one click away and linked to its rules page.
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** A folded explanation of ``key`` (the catalog's term.<key> and term.<key>.text), with a link to the rules of ``page``. */
export function term(key, page = "README") {
  return h("details", { class: "term", id: `term-${key}` },
    h("summary", {}, t(`term.${key}`)),
    h("p", {}, t(`term.${key}.text`), " ", h("a", { href: `#/rules/${page}` }, t("term.more"))));
}

/** The rules page of a ruleset (docs/rules/<name>.md): its name is the page's. */
export const rulesPage = (ruleset) => ruleset || "README";

const TITLES = { pedro: "Pedro", "least-score": "Least Score", "cuatro-cartas": "4 Cartas", corte: "Corte" };
/** A game's own name (the same in every language). */
export const rulesetTitle = (name) => TITLES[name] || name;
