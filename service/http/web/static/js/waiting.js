// What waits for the player, on every page: the account's stream (GET /v1/me/stream) brings
// each notification, and on each the player's games are read again (GET /v1/me/games). While
// a game waits (a move, or an invitation), the tab's title and icon are marked and the
// header's "next game waiting" button leads to the first one not on screen.
import * as api from "./api.js";
import { say } from "./dom.js";
import { t } from "./i18n.js";
import { change } from "./ratings.js";

const ENDED = new Set(["finished", "aborted", "cancelled"]);
let stop = null;
let games = null;
let timer = null;
let base = "facedown";
const subs = new Set();

/** An invitation still to answer: a seat kept for you in a game not started. */
export const invitation = (g) => g.status === "open" && g.your_seat === null && g.invited_seat !== null && g.invited_seat !== undefined;
/** A game that waits for you: your move, or an invitation. */
export const waits = (g) => (g.may_act && !ENDED.has(g.status)) || invitation(g);

async function read() {
  const page = await api.get("/v1/me/games?limit=200");
  games = page.games;
  for (const fn of subs) fn(games);
  mark();
}

let reading = null;  // the read in flight
let next = null;     // the one read asked for while it was in flight

/** Read the player's games: one read at a time. Whatever asks while one is in flight (the
 * stream's news, the inbox, the page starting: four at once when a page opened) shares one
 * more read after it, which sees what changed meanwhile. */
function load() {
  if (!reading) {
    reading = read().finally(() => { reading = null; });
    return reading;
  }
  if (!next) next = reading.catch(() => {}).then(() => { next = null; return load(); });
  return next;
}

// a rated game's game_over carries the player's own rating change (docs/ratings.md)
function ratingNews(data) {
  // api.follow hands over the message's JSON already parsed
  const rating = data && data.data ? data.data.rating : null;
  return rating ? t("news.game_over", { change: change(rating) }) : null;
}

function news(event, data) {
  clearTimeout(timer);
  timer = setTimeout(() => load().catch(() => {}), 80);
  const rated = event === "game_over" ? ratingNews(data) : null;
  // a tournament's round formed: the player's table in it is dealt (docs/tournaments.md)
  const round = event === "tournament_round" && data && data.data ? data.data.round : null;
  if (event !== "your_turn" && event !== "can_react" && event !== "invited" && !rated && !round) return;
  const text = rated || (round ? t("news.tournament_round", { round }) : t(event === "invited" ? "news.invited" : "news.your_move"));
  say(text);
  if ("Notification" in window && Notification.permission === "granted" && document.hidden) {
    new Notification("facedown", { body: text, tag: "facedown" });
  }
}

/** Follow the account while signed in. */
export function start() {
  if (stop) return;
  stop = api.follow("/v1/me/stream", ({ event, data }) => news(event, data));
  load().catch(() => {});
}

export function end() {
  if (stop) stop();
  stop = null;
  games = null;
  mark();
}

/** Call ``fn`` with the player's games now (when read) and at every change; returns the unsubscribe. */
export function subscribe(fn) {
  subs.add(fn);
  if (games) fn(games);
  else if (stop) load().catch(() => {});
  return () => subs.delete(fn);
}

export function reload() { return load(); }

/** The page's own title; marked while something waits. */
export function title(text) {
  base = text;
  mark();
}

/** The title, the icon and the "next game waiting" button, as the games now say. */
export function mark() {
  const here = /^#\/game\/([^/]+)/.exec(location.hash);
  const waiting = (games || []).filter(waits);
  const next = waiting.find((g) => !here || g.id !== here[1]);
  document.title = waiting.length ? t("title.marked", { count: waiting.length, title: base }) : base;
  const icon = document.querySelector("link[rel=icon]");
  const href = waiting.length ? "/web/icon-waiting.svg" : "/web/icon.svg";
  if (icon && icon.getAttribute("href") !== href) icon.setAttribute("href", href);
  const button = document.getElementById("next-game");
  if (button) {
    button.hidden = !next;
    if (next) button.setAttribute("href", `#/game/${next.id}`);
    button.textContent = t("next.button", { count: waiting.length });
  }
}

window.addEventListener("hashchange", mark);
