// The web client's entry: the language (i18n.js), the session, the routes (#/, #/lobby,
// #/game/ID, #/join/ID/CODE, #/replay/ID, #/rules/PAGE/HEADING, #/account, #/verify-email,
// #/ratings/RULESET, #/player/HANDLE, #/tournament/ID), the links of our e-mails (links.js), what waits for the
// player (waiting.js), and the service worker that keeps the shell for offline use and shows pushes.
import { h, clear, toast } from "./dom.js";
import * as api from "./api.js";
import * as i18n from "./i18n.js";
import { mountSignIn, mountAccount, showToken, hideToken } from "./signin.js";
import * as inbox from "./inbox.js";
import * as lobby from "./lobby.js";
import * as table from "./table.js";
import * as replay from "./replay.js";
import * as rules from "./rules.js";
import * as ratings from "./ratings.js";
import * as tournament from "./tournament.js";
import * as waiting from "./waiting.js";
import * as links from "./links.js";
import "./clock.js";

links.take();  // first of all: a link's token or code leaves the address bar at once

const t = i18n.t;
const main = document.getElementById("main");
const keep = document.getElementById("keep");
const menu = document.getElementById("lang");
let session = null;
let unmount = () => {};
let routed = 0;  // which route() is the latest: an answer to an older one is dropped

function showWho() {
  document.getElementById("who").textContent = session ? t("who", { name: session.player.name, handle: session.player.handle }) : "";
}

// The player's own choice of language wins over this browser's: read it once signed in; a
// choice made in the menu before signing in becomes theirs.
async function accountLocale() {
  const me = await api.get("/v1/me");
  const chosen = i18n.stored();
  if (me.locale && me.locale !== i18n.current() && i18n.current() !== i18n.PSEUDO) await i18n.use(me.locale, { remember: true });
  else if (!me.locale && chosen) await api.call("PUT", "/v1/me/locale", { locale: chosen });
}

function signedIn(out) {
  session = out;
  api.setCsrf(out.csrf_token);
  document.getElementById("nav").hidden = false;
  showWho();
  waiting.start();
  route();
  if (out.token) showToken(keep, out.token);  // after the route: the token field keeps the focus
  accountLocale().catch(() => {});
}

function signedOut() {
  session = null;
  api.setCsrf(null);
  hideToken(keep);
  waiting.end();
  document.getElementById("nav").hidden = true;
  showWho();
  route();
}

// Without a session the page asks the server who the cookie signs in (the page cannot read
// the HttpOnly cookie): at load, and whenever it would show the sign-in form, since another
// tab may have signed this browser in since.
function askSession(mine, parts) {
  (links.signIn(toast) || api.get("/v1/session")).then((s) => {
    if (mine !== routed || session) return;
    if (s.signed_in) signedIn(s);
    else if (parts[0] === "rules") unmount = rules.mount(main, parts[1], parts[2]);
    else if (parts[0] === "verify-email") unmount = links.mountVerify(main);
    else unmount = mountSignIn(main, signedIn);
  }).catch((err) => {
    if (mine === routed) clear(main).append(h("p", { class: "error" }, t("error.unreachable", { problem: i18n.problem(err) })));
  });
}

const TITLES = { lobby: "nav.lobby", game: "title.game", join: "title.game", replay: "title.replay", rules: "nav.rules",
  account: "nav.account", "verify-email": "verify.title", ratings: "nav.ratings", player: "title.player", tournament: "tourney.title" };

function route() {
  const hash = location.hash || "#/";
  if (!hash.startsWith("#/")) return;  // an in-page link (the skip link) is not a route
  const mine = ++routed;
  unmount();
  unmount = () => {};
  const parts = hash.slice(2).split("/").map(decodeURIComponent);
  waiting.title(t("title.page", { page: t(TITLES[parts[0]] || "nav.inbox") }));
  if (!session) { askSession(mine, parts); return; }
  for (const a of document.querySelectorAll("[data-nav]")) {
    a.toggleAttribute("aria-current", a.dataset.nav === ({ tournament: "lobby" }[parts[0]] || parts[0] || "inbox"));
    if (a.hasAttribute("aria-current")) a.setAttribute("aria-current", "page");
  }
  switch (parts[0]) {
    case "lobby": unmount = lobby.mount(main, session); break;
    case "game": unmount = table.mount(main, parts[1], session); break;
    case "join": unmount = table.mount(main, parts[1], session, parts[2] || null); break;
    case "replay": unmount = replay.mount(main, parts[1]); break;
    case "rules": unmount = rules.mount(main, parts[1], parts[2]); break;
    case "account": unmount = mountAccount(main, session, signedOut); break;
    case "verify-email": unmount = links.mountVerify(main); break;
    case "ratings": unmount = ratings.mountBoard(main, parts[1]); break;
    case "player": unmount = ratings.mountProfile(main, parts[1]); break;
    case "tournament": unmount = tournament.mount(main, parts[1], session); break;
    default: unmount = inbox.mount(main); break;
  }
}

function buildMenu() {
  clear(menu).append(...i18n.LOCALES.map((l) => h("option", { value: l, lang: l, selected: l === i18n.current() }, i18n.NAMES[l])));
  if (i18n.current() === i18n.PSEUDO) menu.append(h("option", { value: i18n.PSEUDO, selected: true }, i18n.PSEUDO));
}

menu.addEventListener("change", async () => {
  const chosen = menu.value;
  await i18n.use(chosen, { remember: true });
  if (session) api.call("PUT", "/v1/me/locale", { locale: chosen }).catch(() => {});
});

// a new language: every word again (the page routed anew keeps nothing of the old catalog)
i18n.onChange(() => { buildMenu(); showWho(); waiting.mark(); route(); });

window.addEventListener("hashchange", route);
document.getElementById("skip").addEventListener("click", (ev) => { ev.preventDefault(); main.focus(); });
const offline = document.getElementById("offline");
const online = () => { offline.hidden = navigator.onLine; };
window.addEventListener("online", online);
window.addEventListener("offline", online);
online();

if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js").catch(() => {});
  // a notification clicked while this tab is open: the worker asks the tab to go to its game
  navigator.serviceWorker.addEventListener("message", (ev) => {
    if (!ev.data || ev.data.type !== "open") return;
    const url = new URL(String(ev.data.url), location.origin);
    if (url.origin !== location.origin) return;
    if (url.pathname === location.pathname) location.hash = url.hash || "#/";
    else location.assign(url.href);
  });
  navigator.serviceWorker.startMessages();
}

i18n.use(i18n.initial()).catch(() => i18n.use("en")).catch(route);
