// The lobby: open games to join, and a new-game form built from /v1/rulesets, with every
// option, its description, default and bounds (options.js); then the open and running
// tournaments and the form that starts one (tournaments.js).
import { h, clear, toast } from "./dom.js";
import * as api from "./api.js";
import { t, problem, refusal } from "./i18n.js";
import { rulesetTitle } from "./terms.js";
import { gameChoice } from "./options.js";
import * as tournaments from "./tournaments.js";

export function mount(main, session) {
  const open = h("ul", { class: "games", id: "open-games" });
  const formBox = h("div", {});
  const listed = tournaments.listSection();
  const tournamentBox = h("div", {});
  const root = h("div", { class: "lobby", "aria-busy": "true" }, h("h1", {}, t("lobby.title")),
    h("section", { "aria-labelledby": "h-new" }, h("h2", { id: "h-new" }, t("lobby.new")), formBox),
    h("section", { "aria-labelledby": "h-open" }, h("h2", { id: "h-open" }, t("lobby.open")), open),
    listed.el, tournamentBox);
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
    const choice = gameChoice(rulesets, "new", t("lobby.players"));
    const name = h("input", { type: "text", id: "new-name", name: "name", maxlength: 100, autocomplete: "off" });
    const visibility = h("select", { id: "new-visibility", name: "visibility" },
      h("option", { value: "public" }, t("lobby.public")),
      h("option", { value: "unlisted" }, t("lobby.unlisted")));
    const invite = h("input", { type: "text", id: "new-invite", name: "invite", autocomplete: "off",
      "aria-describedby": "new-invite-hint", pattern: "[A-Za-z0-9_\\-, ]*" });
    const form = h("form", { id: "new-game", novalidate: false },
      choice.game, choice.seatsField,
      h("div", { class: "field" }, h("label", { for: "new-name" }, t("lobby.name")), name),
      h("div", { class: "field" }, h("label", { for: "new-visibility" }, t("lobby.visibility")), visibility),
      h("div", { class: "field" }, h("label", { for: "new-invite" }, t("lobby.invite")), invite,
        h("span", { class: "hint", id: "new-invite-hint" }, t("lobby.invite_hint"))),
      choice.hoursField, choice.optionsBox,
      h("button", { type: "submit", class: "primary", id: "create" }, t("lobby.create")));
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      if (!form.reportValidity()) return;
      const body = { ruleset: choice.ruleset().name, seats: Number(choice.seats.value), options: choice.options(form),
        visibility: visibility.value, time_control: choice.timeControl() };
      if (name.value.trim()) body.name = name.value.trim();
      try {
        const game = await api.post("/v1/games", body);
        for (const handle of invite.value.split(",").map((x) => x.trim()).filter(Boolean)) {
          try { await api.post(`/v1/games/${game.id}/invitations`, { handle }); } catch (err) { toast(t("lobby.invite_failed", { handle, problem: problem(err) })); }
        }
        location.hash = `#/game/${game.id}`;
      } catch (err) { toast(refusal(err)); }
    });
    clear(formBox).append(form);
    tournamentBox.replaceWith(tournaments.newSection(rulesets));
  }

  Promise.all([build(), loadOpen(), listed.load()]).then(() => root.setAttribute("aria-busy", "false"))
    .catch((err) => toast(problem(err)));
  return () => {};
}
