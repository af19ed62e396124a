// The Account page's notification settings (GET/PUT /v1/me/notification-settings): the player's
// time zone (their browser's until they save another), quiet hours, and for e-mail and push what
// is sent: their turn, reminders before a deadline, the end of a game, an invitation, a message in
// a game's chat.
import { h, clear, uid } from "./dom.js";
import * as api from "./api.js";
import { t, problem } from "./i18n.js";

// the leads a player may tick, in seconds before a deadline (a lead set otherwise, through the
// API, is shown too and kept)
const LEADS = [86400, 28800, 14400, 7200, 3600];
const TURNS = ["immediate", "digest", "off"];

function browserZone() {
  try { return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC"; } catch (err) { return "UTC"; }
}

function zones(also) {
  let all = [];
  try { all = Intl.supportedValuesOf("timeZone"); } catch (err) { all = []; }
  return [...new Set([...all, "UTC", ...also])].sort();
}

function leadWords(seconds) {
  return seconds % 3600 === 0 ? t("settings.lead.hours", { count: seconds / 3600 })
    : t("settings.lead.minutes", { count: Math.round(seconds / 60) });
}

function check(name, text, checked, value = null) {
  const id = uid(name);
  return h("div", { class: "field check" },
    h("input", { type: "checkbox", id, name, value: value === null ? "on" : String(value), checked }),
    h("label", { for: id }, text));
}

function group(legend, ...children) {
  return h("fieldset", { class: "group" }, h("legend", {}, legend), ...children);
}

function reminders(channel, chosen) {
  const leads = [...new Set([...LEADS, ...chosen])].sort((a, b) => b - a);
  return group(t("settings.reminders"), h("div", { class: "checks" },
    ...leads.map((s) => check(`${channel}-reminders`, leadWords(s), chosen.includes(s), s))));
}

/** The form, filled in from the settings as the server has them. */
function fields(s, zone) {
  const quiet = s.quiet_hours;
  const time = (id, value) => h("input", { type: "time", id, name: id, step: 60, value, required: true });
  return [
    h("div", { class: "field" }, h("label", { for: "time-zone" }, t("settings.time_zone")),
      h("select", { id: "time-zone", name: "time_zone", "aria-describedby": "time-zone-hint" },
        ...zones([s.time_zone, zone]).map((z) => h("option", { value: z, selected: z === zone, translate: "no" }, z.replace(/_/g, " ")))),
      h("span", { class: "hint", id: "time-zone-hint" },
        t(zone === s.time_zone ? "settings.time_zone_hint" : "settings.time_zone_browser"))),
    group(t("settings.quiet"),
      h("p", { class: "hint" }, t("settings.quiet_hint")),
      check("quiet", t("settings.quiet_on"), quiet !== null),
      h("div", { class: "field times" }, h("label", { for: "quiet-from" }, t("settings.quiet_from")), time("quiet-from", quiet ? quiet.from : "22:00"),
        h("label", { for: "quiet-to" }, t("settings.quiet_to")), time("quiet-to", quiet ? quiet.to : "08:00"))),
    group(t("settings.email"),
      group(t("settings.turn"), ...TURNS.map((mode) => {
        const id = uid("email-turn");
        return h("div", { class: "field check" }, h("input", { type: "radio", id, name: "email-turn", value: mode, checked: s.email.turn === mode }),
          h("label", { for: id }, t(`settings.turn.${mode}`)));
      })),
      reminders("email", s.email.reminders),
      check("email-game-over", t("settings.game_over"), s.email.game_over),
      check("email-invited", t("settings.invited"), s.email.invited),
      check("email-chat", t("settings.chat"), s.email.chat)),
    group(t("settings.push"),
      check("push-turn", t("settings.turn"), s.push.turn),
      reminders("push", s.push.reminders),
      check("push-game-over", t("settings.game_over"), s.push.game_over),
      check("push-invited", t("settings.invited"), s.push.invited),
      check("push-chat", t("settings.chat"), s.push.chat)),
  ];
}

/** What the form says, as PUT /v1/me/notification-settings takes it (the whole of it). */
function read(form) {
  const on = (name) => form.querySelector(`input[name='${name}']`).checked;
  const leads = (channel) => [...form.querySelectorAll(`input[name='${channel}-reminders']:checked`)].map((i) => Number(i.value));
  return {
    time_zone: form.elements.namedItem("time_zone").value,
    quiet_hours: on("quiet") ? { from: form.elements.namedItem("quiet-from").value, to: form.elements.namedItem("quiet-to").value } : null,
    email: { turn: form.querySelector("input[name='email-turn']:checked").value, reminders: leads("email"),
      game_over: on("email-game-over"), invited: on("email-invited"), chat: on("email-chat") },
    push: { turn: on("push-turn"), reminders: leads("push"), game_over: on("push-game-over"), invited: on("push-invited"),
      chat: on("push-chat") },
  };
}

/** The settings section. */
export function settingsSection() {
  const said = h("p", { id: "settings-said", role: "status" });
  const body = h("div", { class: "settings-fields" });
  const save = h("button", { type: "submit", class: "primary", id: "settings-save", disabled: true }, t("settings.save"));
  const form = h("form", { id: "settings-form", "aria-busy": "true" }, body, save, said);

  function fill(s, zone) {
    clear(body).append(...fields(s, zone));
    const quiet = form.querySelector("input[name='quiet']");
    const times = () => { for (const id of ["quiet-from", "quiet-to"]) form.elements.namedItem(id).disabled = !quiet.checked; };
    quiet.addEventListener("change", times);
    times();
    save.disabled = false;
    form.setAttribute("aria-busy", "false");
  }

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    save.disabled = true;
    said.classList.remove("error");
    said.textContent = "";
    try {
      const s = await api.call("PUT", "/v1/me/notification-settings", read(form));
      fill(s, s.time_zone);
      said.textContent = t("settings.saved");
      form.dataset.saved = String(Date.now());
    } catch (err) {
      said.classList.add("error");
      said.textContent = problem(err);
    } finally { save.disabled = false; }
  });
  api.get("/v1/me/notification-settings").then((s) => {
    // never chosen (the service's default, UTC): this browser's clock is the likely one
    const zone = s.time_zone === "UTC" ? browserZone() : s.time_zone;
    fill(s, zone);
  }).catch((err) => { said.classList.add("error"); said.textContent = problem(err); });
  return h("section", { "aria-labelledby": "h-settings", id: "settings-section" },
    h("h2", { id: "h-settings" }, t("settings.title")), h("p", {}, t("settings.text")), form);
}
