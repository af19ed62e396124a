// The lobby: open games to join, and a new-game form built from /v1/rulesets, with every
// option, its description, default and bounds (the browser checks them, the server again).
import { h, clear, toast, uid } from "./dom.js";
import * as api from "./api.js";
import { t, has, problem } from "./i18n.js";
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

export function mount(main, session) {
  const open = h("ul", { class: "games", id: "open-games" });
  const formBox = h("div", {});
  const root = h("div", { class: "lobby", "aria-busy": "true" }, h("h1", {}, t("lobby.title")),
    h("section", { "aria-labelledby": "h-new" }, h("h2", { id: "h-new" }, t("lobby.new")), formBox),
    h("section", { "aria-labelledby": "h-open" }, h("h2", { id: "h-open" }, t("lobby.open")), open));
  clear(main).append(root);

  async function loadOpen() {
    const page = await api.get("/v1/games?status=open&limit=50");
    const rows = page.games.filter((g) => g.your_seat === null).map((g) => h("li", { class: "game-item" },
      h("span", {}, h("span", { translate: "no" }, g.name || rulesetTitle(g.ruleset)),
        ` · ${rulesetTitle(g.ruleset)} · ${t("lobby.free_seats", { count: g.free_seats })} · `,
        h("span", { translate: "no" }, g.seats.filter((s) => s.name).map((s) => s.name).join(", "))),
      h("button", { type: "button", "data-join": g.id, onclick: async () => {
        try { await api.post(`/v1/games/${g.id}/join`, {}); location.hash = `#/game/${g.id}`; } catch (err) { toast(problem(err)); }
      } }, t("lobby.join"))));
    clear(open).append(...(rows.length ? rows : [h("li", { class: "none" }, t("lobby.none_open"))]));
  }

  async function build() {
    const { rulesets } = await api.get("/v1/rulesets");
    const rulesetSel = h("select", { id: "new-ruleset", name: "ruleset" },
      rulesets.map((r) => h("option", { value: r.name }, t("lobby.ruleset", { game: rulesetTitle(r.name), min: r.min_players, max: r.max_players }))));
    const seats = h("input", { type: "number", id: "new-seats", name: "seats", step: 1, required: true });
    const name = h("input", { type: "text", id: "new-name", name: "name", maxlength: 100, autocomplete: "off" });
    const visibility = h("select", { id: "new-visibility", name: "visibility" },
      h("option", { value: "public" }, t("lobby.public")),
      h("option", { value: "unlisted" }, t("lobby.unlisted")));
    const invite = h("input", { type: "text", id: "new-invite", name: "invite", autocomplete: "off",
      "aria-describedby": "new-invite-hint", pattern: "[A-Za-z0-9_\\-, ]*" });
    const hours = h("input", { type: "number", id: "new-hours", name: "hours", step: 1, min: 1, max: 720,
      "aria-describedby": "new-hours-hint" });
    const options = h("fieldset", { class: "options" });
    const rulesLink = h("a", { href: "#/rules/README", id: "lobby-rules" });
    const form = h("form", { id: "new-game", novalidate: false },
      h("div", { class: "field" }, h("label", { for: "new-ruleset" }, t("lobby.game")), rulesetSel, h("span", { class: "hint" }, rulesLink)),
      h("div", { class: "field" }, h("label", { for: "new-seats" }, t("lobby.players")), seats),
      h("div", { class: "field" }, h("label", { for: "new-name" }, t("lobby.name")), name),
      h("div", { class: "field" }, h("label", { for: "new-visibility" }, t("lobby.visibility")), visibility),
      h("div", { class: "field" }, h("label", { for: "new-invite" }, t("lobby.invite")), invite,
        h("span", { class: "hint", id: "new-invite-hint" }, t("lobby.invite_hint"))),
      h("div", { class: "field" }, h("label", { for: "new-hours" }, t("lobby.hours")), hours,
        h("span", { class: "hint", id: "new-hours-hint" }, t("lobby.hours_hint"))),
      h("details", { class: "options-box" }, h("summary", {}, t("lobby.options")), options),
      h("button", { type: "submit", class: "primary", id: "create" }, t("lobby.create")));
    const pick = () => {
      const r = rulesets.find((x) => x.name === rulesetSel.value);
      seats.min = r.min_players; seats.max = r.max_players;
      if (!seats.value || Number(seats.value) < r.min_players || Number(seats.value) > r.max_players) seats.value = r.min_players;
      clear(options).append(h("legend", {}, t("lobby.options_of", { game: rulesetTitle(r.name) })), ...r.options.map(optionField));
      rulesLink.setAttribute("href", `#/rules/${r.name}`);
      rulesLink.textContent = t("game.rules", { game: rulesetTitle(r.name) });
    };
    rulesetSel.addEventListener("change", pick);
    pick();
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      if (!form.reportValidity()) return;
      const r = rulesets.find((x) => x.name === rulesetSel.value);
      const chosen = {};
      for (const o of r.options) {
        const v = readOption(o, form);
        if (v !== undefined && JSON.stringify(v) !== JSON.stringify(o.default)) chosen[o.key] = v;
      }
      const body = { ruleset: r.name, seats: Number(seats.value), options: chosen, visibility: visibility.value };
      if (name.value.trim()) body.name = name.value.trim();
      if (hours.value) body.time_control = { turn_seconds: Number(hours.value) * 3600 };
      try {
        const game = await api.post("/v1/games", body);
        for (const handle of invite.value.split(",").map((x) => x.trim()).filter(Boolean)) {
          try { await api.post(`/v1/games/${game.id}/invitations`, { handle }); } catch (err) { toast(t("lobby.invite_failed", { handle, problem: problem(err) })); }
        }
        location.hash = `#/game/${game.id}`;
      } catch (err) {
        const fields = err.body && err.body.errors ? Object.keys(err.body.errors).join(", ") : "";
        toast(fields ? t("lobby.refused_fields", { problem: problem(err), fields }) : problem(err));
      }
    });
    clear(formBox).append(form);
  }

  Promise.all([build(), loadOpen()]).then(() => root.setAttribute("aria-busy", "false"))
    .catch((err) => toast(problem(err)));
  return () => {};
}
