// The inbox: the games where you may act first, their deadlines counting down, then the
// rest; kept live by the account's stream. Browser notifications only after you ask.
import { h, clear, say } from "./dom.js";
import * as api from "./api.js";
import { left } from "./clock.js";

function item(g) {
  const names = g.seats.map((s) => s.name || (s.reserved_for ? `${s.reserved_for.name} (invited)` : "free seat")).join(", ");
  const deadline = g.deadline && g.deadline.at;
  return h("li", { class: `game-item${g.may_act ? " yours" : ""}`, "data-game": g.id },
    h("a", { href: `#/game/${g.id}`, class: "game-link" }, g.name || g.ruleset),
    h("span", { class: "meta" }, ` ${g.ruleset} · ${g.status}${g.round ? ` · round ${g.round}` : ""} · ${names}`),
    g.may_act ? h("span", { class: "badge turn-badge" }, "your move") : null,
    g.invited_seat !== null && g.invited_seat !== undefined && g.your_seat === null ? h("span", { class: "badge" }, "invited") : null,
    deadline ? h("time", { class: "countdown", datetime: deadline, "data-deadline": deadline }, left(deadline)) : null);
}

export function mount(main) {
  const yours = h("ul", { class: "games", id: "games-yours" });
  const rest = h("ul", { class: "games", id: "games-rest" });
  const notify = h("button", { type: "button", id: "notify" }, "Notify me when it is my move");
  const root = h("div", { class: "inbox", "aria-busy": "true" },
    h("h1", {}, "Inbox"),
    h("section", { "aria-labelledby": "h-yours" }, h("h2", { id: "h-yours" }, "Your move"), yours),
    h("section", { "aria-labelledby": "h-rest" }, h("h2", { id: "h-rest" }, "Your other games"), rest),
    h("p", {}, h("a", { href: "#/lobby" }, "Find or start a game in the lobby")),
    "Notification" in window ? h("p", {}, notify) : null);
  clear(main).append(root);
  let timer = null;

  async function load() {
    const page = await api.get("/v1/me/games?limit=200");
    const active = page.games.filter((g) => !["finished", "aborted", "cancelled"].includes(g.status));
    const first = active.filter((g) => g.may_act);
    const others = page.games.filter((g) => !first.includes(g));
    clear(yours).append(...(first.length ? first.map(item) : [h("li", { class: "none" }, "Nothing waits for you.")]));
    clear(rest).append(...(others.length ? others.map(item) : [h("li", { class: "none" }, "No other games.")]));
    root.setAttribute("aria-busy", "false");
    root.dataset.loaded = String(Date.now());
  }

  if ("Notification" in window) {
    const sync = () => {
      notify.disabled = Notification.permission !== "default";
      notify.textContent = Notification.permission === "granted" ? "Notifications are on"
        : Notification.permission === "denied" ? "Notifications are blocked in this browser" : "Notify me when it is my move";
    };
    sync();
    notify.addEventListener("click", () => Notification.requestPermission().then(sync));
  }

  const stop = api.follow("/v1/me/stream", ({ event, data }) => {
    clearTimeout(timer);
    timer = setTimeout(() => load().catch(() => {}), 80);
    if (event === "your_turn" || event === "can_react" || event === "invited") {
      say(event === "invited" ? "You are invited to a game." : "A game waits for your move.");
      if ("Notification" in window && Notification.permission === "granted" && document.hidden) {
        new Notification("facedown", { body: event === "invited" ? "You are invited to a game." : "Your move.", tag: data.game_id || "facedown" });
      }
    }
  });
  load().catch((err) => { clear(yours).append(h("li", { class: "error" }, err.message)); });
  return () => { stop(); clearTimeout(timer); };
}
