// The web client's entry: the session, the routes (#/, #/lobby, #/game/ID, #/join/ID/CODE,
// #/replay/ID, #/account), and the service worker that keeps the shell for offline use.
import { h, clear } from "./dom.js";
import * as api from "./api.js";
import { mountSignIn, mountAccount, showToken, hideToken } from "./signin.js";
import * as inbox from "./inbox.js";
import * as lobby from "./lobby.js";
import * as table from "./table.js";
import * as replay from "./replay.js";
import "./clock.js";

const main = document.getElementById("main");
const keep = document.getElementById("keep");
let session = null;
let unmount = () => {};
let routed = 0;  // which route() is the latest: an answer to an older one is dropped

function signedIn(out) {
  session = out;
  api.setCsrf(out.csrf_token);
  document.getElementById("nav").hidden = false;
  const who = document.getElementById("who");
  who.textContent = `${out.player.name} (@${out.player.handle})`;
  route();
  if (out.token) showToken(keep, out.token);  // after the route: the token field keeps the focus
}

function signedOut() {
  session = null;
  api.setCsrf(null);
  hideToken(keep);
  document.getElementById("nav").hidden = true;
  document.getElementById("who").textContent = "";
  route();
}

// Without a session the page asks the server who the cookie signs in (the page cannot read
// the HttpOnly cookie): at load, and whenever it would show the sign-in form, since another
// tab may have signed this browser in since.
function askSession(mine) {
  api.get("/v1/session").then((s) => {
    if (mine !== routed || session) return;
    if (s.signed_in) signedIn(s);
    else unmount = mountSignIn(main, signedIn);
  }).catch((err) => {
    if (mine === routed) clear(main).append(h("p", { class: "error" }, `facedown cannot be reached: ${err.message}`));
  });
}

function route() {
  const hash = location.hash || "#/";
  if (!hash.startsWith("#/")) return;  // an in-page link (the skip link) is not a route
  const mine = ++routed;
  unmount();
  unmount = () => {};
  const parts = hash.slice(2).split("/").map(decodeURIComponent);
  if (!session) { askSession(mine); return; }
  for (const a of document.querySelectorAll("[data-nav]")) {
    a.toggleAttribute("aria-current", a.dataset.nav === (parts[0] || "inbox"));
    if (a.hasAttribute("aria-current")) a.setAttribute("aria-current", "page");
  }
  switch (parts[0]) {
    case "lobby": unmount = lobby.mount(main, session); break;
    case "game": unmount = table.mount(main, parts[1], session); break;
    case "join": unmount = table.mount(main, parts[1], session, parts[2] || null); break;
    case "replay": unmount = replay.mount(main, parts[1]); break;
    case "account": unmount = mountAccount(main, session, signedOut); break;
    default: unmount = inbox.mount(main); break;
  }
  document.title = `facedown · ${parts[0] || "inbox"}`;
}

window.addEventListener("hashchange", route);
document.getElementById("skip").addEventListener("click", (ev) => { ev.preventDefault(); main.focus(); });
const offline = document.getElementById("offline");
const online = () => { offline.hidden = navigator.onLine; };
window.addEventListener("online", online);
window.addEventListener("offline", online);
online();

if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js").catch(() => {});
}

route();
