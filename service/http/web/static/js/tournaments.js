// Tournaments in the lobby: the open and running ones (GET /v1/tournaments), each leading to its
// page (#/tournament/<id>), and the form that starts one (POST /v1/tournaments): a game and its
// options as the new-game form has them, a format (Swiss or round robin), seats per table,
// rounds, duplicate boards, how many may join, a clock and, if wished, a start time.
import { h, clear, toast } from "./dom.js";
import * as api from "./api.js";
import { t, problem, refusal } from "./i18n.js";
import { rulesetTitle } from "./terms.js";
import { gameChoice } from "./options.js";

export const FORMATS = ["swiss", "round_robin"];
const LISTED = new Set(["open", "running"]);

/** A tournament's facts in one line (from a list's item or the whole): game, format, players, its round. */
function facts(x) {
  const out = [rulesetTitle(x.ruleset), t(`tourney.format.${x.format}`),
    t("tourney.players_of", { count: x.player_count, max: x.max_players })];
  if (x.status === "running" && x.current_round) out.push(t("tourney.round_of", { n: x.current_round, rounds: x.round_count }));
  return out.join(" · ");
}

function item(x) {
  return h("li", { class: "game-item", dataset: { tournament: x.id, status: x.status } },
    h("a", { href: `#/tournament/${x.id}`, class: "game-link", translate: "no" }, x.name),
    h("span", { class: `badge status-${x.status}` }, t(`tourney.status.${x.status}`)),
    h("span", { class: "meta" }, facts(x)));
}

/** The lobby's list of tournaments; load() reads it (again). */
export function listSection() {
  const list = h("ul", { class: "games", id: "tournaments" });
  const el = h("section", { "aria-labelledby": "h-tournaments" },
    h("h2", { id: "h-tournaments" }, t("tourney.listed")), list);
  // a list that cannot be read says why in its place; the rest of the lobby stands
  async function load() {
    try {
      const page = await api.get("/v1/tournaments");
      const rows = (page.tournaments || []).filter((x) => LISTED.has(x.status)).map(item);
      clear(list).append(...(rows.length ? rows : [h("li", { class: "none" }, t("tourney.none_listed"))]));
    } catch (err) { clear(list).append(h("li", { class: "error" }, problem(err))); }
  }
  return { el, load };
}

function field(id, label, input, hint = null) {
  if (hint) input.setAttribute("aria-describedby", `${id}-hint`);
  return h("div", { class: "field" }, h("label", { for: id }, label), input,
    hint ? h("span", { class: "hint", id: `${id}-hint` }, hint) : null);
}

const number = (id, attrs = {}) => h("input", { type: "number", id, name: id, step: 1, ...attrs });

/** The new-tournament form for these rulesets (GET /v1/rulesets). The tournament's own fields
 * are named tn-*, apart from the game's options, which are named by their keys (one is "rounds"). */
export function newSection(rulesets) {
  const choice = gameChoice(rulesets, "tn", t("tourney.seats"));
  const name = h("input", { type: "text", id: "tn-name", name: "tn-name", maxlength: 100, required: true, autocomplete: "off" });
  const format = h("select", { id: "tn-format", name: "tn-format" }, FORMATS.map((f) => h("option", { value: f }, t(`tourney.format.${f}`))));
  const rounds = number("tn-rounds", { required: true, min: 1, max: 50, value: 3 });
  const most = number("tn-max", { required: true, min: 2, max: 256, value: 8 });
  const duplicate = h("input", { type: "checkbox", id: "tn-duplicate", name: "tn-duplicate", "aria-describedby": "tn-duplicate-hint" });
  const starts = h("input", { type: "datetime-local", id: "tn-starts", name: "tn-starts" });
  const play = h("input", { type: "checkbox", id: "tn-play", name: "tn-play", checked: true });
  const form = h("form", { id: "new-tournament" },
    field("tn-name", t("tourney.name"), name),
    choice.game,
    field("tn-format", t("tourney.format"), format, t("tourney.format_hint")),
    choice.seatsField,
    field("tn-rounds", t("tourney.rounds"), rounds, t("tourney.rounds_hint")),
    field("tn-max", t("tourney.max"), most),
    h("div", { class: "field check" }, duplicate, h("label", { for: "tn-duplicate" }, t("tourney.duplicate")),
      h("span", { class: "hint", id: "tn-duplicate-hint" }, t("tourney.duplicate_hint"))),
    choice.hoursField,
    field("tn-starts", t("tourney.starts"), starts, t("tourney.starts_hint")),
    h("div", { class: "field check" }, play, h("label", { for: "tn-play" }, t("tourney.play"))),
    choice.optionsBox,
    h("button", { type: "submit", class: "primary", id: "create-tournament" }, t("tourney.create")));
  // a round robin's rounds may be left empty: as many as it takes for everyone to meet
  format.addEventListener("change", () => {
    const swiss = format.value === "swiss";
    rounds.required = swiss;
    if (swiss && !rounds.value) rounds.value = 3;
    if (!swiss) rounds.value = "";
  });
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (!form.reportValidity()) return;
    const body = { name: name.value.trim(), ruleset: choice.ruleset().name, options: choice.options(form), format: format.value,
      seats_per_table: Number(choice.seats.value), rounds: rounds.value ? Number(rounds.value) : undefined, duplicate: duplicate.checked,
      max_players: Number(most.value), time_control: choice.timeControl(),
      starts_at: starts.value ? new Date(starts.value).toISOString() : undefined, join: play.checked };
    try {
      const made = await api.post("/v1/tournaments", body);
      location.hash = `#/tournament/${made.id}`;
    } catch (err) { toast(refusal(err)); }
  });
  return h("section", { "aria-labelledby": "h-new-tournament" },
    h("h2", { id: "h-new-tournament" }, t("tourney.new")), h("p", { class: "hint" }, t("tourney.new_hint")), form);
}
