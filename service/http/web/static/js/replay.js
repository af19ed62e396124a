// After the game: its audit (every event, every card, the server's secret, the checks), and a
// replay that steps through it, showing each seat's table as it was at each version.
import { h, clear, toast } from "./dom.js";
import * as api from "./api.js";
import * as words from "./words.js";
import { t, problem } from "./i18n.js";
import { render } from "./board.js";

export function mount(main, gameId) {
  const root = h("div", { class: "replay", "aria-busy": "true" });
  clear(main).append(root);
  let stop = false;
  (async () => {
    const [audit, summary] = await Promise.all([api.get(`/v1/games/${gameId}/audit`), api.get(`/v1/games/${gameId}`)]);
    const spanish = summary.options && summary.options.deck_profile === "spanish50";
    const view = { seats: summary.seats, seat: null };
    const ctx = words.context(view, spanish);
    const events = audit.events;
    const seatSel = h("select", { id: "replay-seat" }, summary.seats.map((s) => h("option", { value: s.seat }, ctx.name(s.seat))));
    const range = h("input", { type: "range", id: "replay-step", min: 0, max: events.length - 1, value: events.length - 1 });
    const said = h("p", { class: "replay-event", "aria-live": "polite", id: "replay-said" });
    const board = h("div", { class: "replay-board" });
    const verdict = audit.verification && audit.verification.ok ? "replay.ok" : "replay.failed";
    const failed = audit.verification ? Object.entries(audit.verification.checks).filter(([, v]) => v !== true && v !== "ok" && v !== "passed").map(([k]) => k) : [];
    async function show() {
      const e = events[Number(range.value)];
      said.textContent = t("replay.event", { n: e.version, of: events[events.length - 1].version, text: words.event(e, ctx) });
      try {
        const seat = Number(seatSel.value);
        const v = await api.get(`/v1/games/${gameId}/audit/view?seat=${seat}&version=${e.version}`);
        if (stop) return;
        const fake = { seat, seats: summary.seats, awaiting: [], legal_actions: [], status: "finished", table: v.view };
        clear(board).append(v.view ? render(fake, words.context(fake, spanish), spanish) : h("p", {}, t("replay.nothing")));
      } catch (err) {
        clear(board).append(h("p", {}, problem(err)));
      }
    }
    const stepBy = (n) => { range.value = String(Math.min(Math.max(0, Number(range.value) + n), events.length - 1)); show(); };
    range.addEventListener("input", show);
    seatSel.addEventListener("change", show);
    root.append(h("h1", {}, t("replay.title", { name: summary.name })),
      h("p", {}, t(verdict, { count: events.length, checks: failed.join(", ") })),
      h("div", { class: "replay-controls" },
        h("label", { for: "replay-seat" }, t("replay.seen_by")), seatSel,
        h("button", { type: "button", id: "replay-prev", onclick: () => stepBy(-1) }, t("replay.prev")),
        h("label", { for: "replay-step", class: "sr-only" }, t("replay.step")), range,
        h("button", { type: "button", id: "replay-next", onclick: () => stepBy(1) }, t("replay.next"))),
      said, board,
      h("details", {}, h("summary", {}, t("replay.all")),
        h("ol", {}, events.map((e) => h("li", {}, words.event(e, ctx))))),
      h("p", {}, h("a", { href: `#/game/${gameId}` }, t("replay.back"))));
    root.setAttribute("aria-busy", "false");
    await show();
  })().catch((err) => { toast(problem(err)); root.append(h("p", { class: "error" }, problem(err))); });
  return () => { stop = true; };
}
