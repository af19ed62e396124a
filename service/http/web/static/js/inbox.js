// The inbox: the games that wait for you first (your move, with its deadline counting down, and
// invitations, with accept and decline), then the rest (a finished game says who won); kept live
// by the account's stream (waiting.js). Browser notifications only after you ask.
import { h, clear, toast } from "./dom.js";
import * as api from "./api.js";
import { t, list, problem } from "./i18n.js";
import { countdown } from "./clock.js";
import { rulesetTitle } from "./terms.js";
import { subscribe, reload, invitation, waits } from "./waiting.js";

const nameOf = (g, seat) => {
  const s = g.seats.find((x) => x.seat === seat);
  return (s && s.name) || t("seat.nobody", { seat });
};

function seatNames(g) {
  return list(g.seats.map((s) => (s.name ? (s.bot ? `${s.name} (${t("bot.badge")})` : s.name)
    : (s.reserved_for ? t("inbox.invited_name", { name: s.reserved_for.name }) : t("inbox.free_seat")))));
}

function facts(g) {
  const out = [rulesetTitle(g.ruleset), t(`status.${g.status}`)];
  if (g.round) out.push(t("inbox.round", { round: g.round }));
  out.push(seatNames(g));
  return out.join(" · ");
}

function answer(g, accept) {
  return async () => {
    try {
      if (accept) { await api.post(`/v1/games/${g.id}/join`, {}); location.hash = `#/game/${g.id}`; return; }
      await api.post(`/v1/games/${g.id}/leave`);
      await reload();
    } catch (err) { toast(problem(err)); }
  };
}

function item(g) {
  const deadline = g.deadline && g.deadline.at;
  const invited = invitation(g);
  const winners = g.status === "finished" && g.winners && g.winners.length ? g.winners.map((s) => nameOf(g, s)) : null;
  return h("li", { class: `game-item${waits(g) ? " yours" : ""}`, "data-game": g.id },
    h("a", { href: `#/game/${g.id}`, class: "game-link", translate: "no" }, g.name || rulesetTitle(g.ruleset)),
    h("span", { class: "meta" }, ` ${facts(g)}`),
    g.may_act && !invited ? h("span", { class: "badge turn-badge" }, t("inbox.your_move")) : null,
    invited ? h("span", { class: "badge" }, t("inbox.invited")) : null,
    winners ? h("span", { class: "winner" }, t("inbox.won_by", { names: list(winners), count: winners.length })) : null,
    invited ? h("span", { class: "answer" },
      h("button", { type: "button", class: "primary small accept", onclick: answer(g, true) }, t("invite.accept")),
      h("button", { type: "button", class: "small decline", onclick: answer(g, false) }, t("invite.decline"))) : null,
    deadline ? countdown(deadline, { class: "countdown" }) : null);
}

export function mount(main) {
  const yours = h("ul", { class: "games", id: "games-yours" });
  const rest = h("ul", { class: "games", id: "games-rest" });
  const notify = h("button", { type: "button", id: "notify" }, t("notify.ask"));
  const root = h("div", { class: "inbox", "aria-busy": "true" },
    h("h1", {}, t("inbox.title")),
    h("section", { "aria-labelledby": "h-yours" }, h("h2", { id: "h-yours" }, t("inbox.yours")), yours),
    h("section", { "aria-labelledby": "h-rest" }, h("h2", { id: "h-rest" }, t("inbox.rest")), rest),
    h("p", {}, h("a", { href: "#/lobby" }, t("inbox.to_lobby")), " · ", h("a", { href: "#/rules/README" }, t("inbox.to_rules"))),
    "Notification" in window ? h("p", {}, notify) : null);
  clear(main).append(root);

  const show = (games) => {
    const first = games.filter(waits);
    const others = games.filter((g) => !first.includes(g));
    clear(yours).append(...(first.length ? first.map(item) : [h("li", { class: "none" }, t("inbox.nothing"))]));
    clear(rest).append(...(others.length ? others.map(item) : [h("li", { class: "none" }, t("inbox.no_others"))]));
    root.setAttribute("aria-busy", "false");
    root.dataset.loaded = String(Date.now());
  };

  if ("Notification" in window) {
    const sync = () => {
      notify.disabled = Notification.permission !== "default";
      notify.textContent = t(Notification.permission === "granted" ? "notify.on"
        : Notification.permission === "denied" ? "notify.blocked" : "notify.ask");
    };
    sync();
    notify.addEventListener("click", () => Notification.requestPermission().then(sync));
  }
  const unsubscribe = subscribe(show);
  reload().catch((err) => { clear(yours).append(h("li", { class: "error" }, problem(err))); });
  return unsubscribe;
}
