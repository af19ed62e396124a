// A game's options as form fields, built from /v1/rulesets: each option with its description,
// default and bounds (the browser checks them, the server again); shared by the new-game form
// and the new-tournament form, which send the same {ruleset, options}.
import { h, clear, uid } from "./dom.js";
import { t, has } from "./i18n.js";
import { rulesetTitle } from "./terms.js";

/** An option's value in words: yes or no, a named choice (optval.<value>), else the value itself. */
function optionValue(v) {
  if (v === null || v === undefined) return t("optval.none");
  if (typeof v === "boolean") return t(v ? "optval.yes" : "optval.no");
  return has(`optval.${v}`) ? t(`optval.${v}`) : String(v);
}

function optionField(o) {
  const id = uid(`opt-${o.key.replace(/\W+/g, "-")}`);
  const hint = `${id}-hint`;
  const name = has(`opt.${o.key}`) ? t(`opt.${o.key}`) : o.key;
  const describe = h("span", { class: "hint", id: hint }, t("lobby.default", { value: optionValue(o.default) }));
  let input;
  if (o.type === "boolean") {
    input = h("input", { type: "checkbox", id, name: o.key, "aria-describedby": hint, checked: o.default === true });
    return h("div", { class: "field check" }, input, h("label", { for: id }, name), describe);
  }
  if (o.type === "enum") {
    input = h("select", { id, name: o.key, "aria-describedby": hint },
      o.enum.map((v) => h("option", { value: JSON.stringify(v), selected: v === o.default }, optionValue(v))));
  } else if (o.type === "integer") {
    input = h("input", { type: "number", id, name: o.key, "aria-describedby": hint, step: 1,
      min: o.minimum, max: o.maximum, value: Number.isInteger(o.default) ? o.default : "",
      placeholder: Number.isInteger(o.default) ? null : String(o.default) });
  } else {
    input = h("input", { type: "text", id, name: o.key, "aria-describedby": hint, value: o.default === null ? "" : String(o.default) });
  }
  return h("div", { class: "field" }, h("label", { for: id }, name), input, describe);
}

function readOption(o, form) {
  const el = form.elements.namedItem(o.key);
  if (!el) return undefined;
  if (o.type === "boolean") return el.checked;
  if (o.type === "enum") return JSON.parse(el.value);
  if (o.type === "integer") return el.value === "" ? undefined : Number(el.value);
  return el.value;
}

/** The options chosen in ``form`` for ruleset ``r``: only those that differ from their default. */
function chosenOptions(r, form) {
  const chosen = {};
  for (const o of r.options) {
    const v = readOption(o, form);
    if (v !== undefined && JSON.stringify(v) !== JSON.stringify(o.default)) chosen[o.key] = v;
  }
  return chosen;
}

/**
 * The part of a form that says which game is played (ids prefixed ``p``): the ruleset's menu with
 * a link to its rules, a number of seats within its bounds, its options (folded) and the hours a
 * move may wait. ``ruleset()`` is the chosen one; ``options(form)`` and ``timeControl()`` what
 * the form sends.
 */
export function gameChoice(rulesets, p, seatsLabel) {
  const select = h("select", { id: `${p}-ruleset`, name: `${p}-ruleset` },
    rulesets.map((r) => h("option", { value: r.name }, t("lobby.ruleset", { game: rulesetTitle(r.name), min: r.min_players, max: r.max_players }))));
  const seats = h("input", { type: "number", id: `${p}-seats`, name: `${p}-seats`, step: 1, required: true });
  const hours = h("input", { type: "number", id: `${p}-hours`, name: `${p}-hours`, step: 1, min: 1, max: 720,
    "aria-describedby": `${p}-hours-hint` });
  const fieldset = h("fieldset", { class: "options" });
  const link = h("a", { href: "#/rules/README", id: `${p}-rules` });
  const ruleset = () => rulesets.find((x) => x.name === select.value);
  const pick = () => {
    const r = ruleset();
    seats.min = r.min_players; seats.max = r.max_players;
    if (!seats.value || Number(seats.value) < r.min_players || Number(seats.value) > r.max_players) seats.value = r.min_players;
    clear(fieldset).append(h("legend", {}, t("lobby.options_of", { game: rulesetTitle(r.name) })), ...r.options.map(optionField));
    link.setAttribute("href", `#/rules/${r.name}`);
    link.textContent = t("game.rules", { game: rulesetTitle(r.name) });
  };
  select.addEventListener("change", pick);
  pick();
  return {
    ruleset, seats,
    game: h("div", { class: "field" }, h("label", { for: `${p}-ruleset` }, t("lobby.game")), select, h("span", { class: "hint" }, link)),
    seatsField: h("div", { class: "field" }, h("label", { for: `${p}-seats` }, seatsLabel), seats),
    hoursField: h("div", { class: "field" }, h("label", { for: `${p}-hours` }, t("lobby.hours")), hours,
      h("span", { class: "hint", id: `${p}-hours-hint` }, t("lobby.hours_hint"))),
    optionsBox: h("details", { class: "options-box" }, h("summary", {}, t("lobby.options")), fieldset),
    options: (form) => chosenOptions(ruleset(), form),
    // hours per move (empty: the server's default)
    timeControl: () => (hours.value ? { turn_seconds: Number(hours.value) * 3600 } : undefined),
  };
}
