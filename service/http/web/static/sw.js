// facedown's service worker: keeps the web client's shell so the page opens offline, and shows
// the server's Web Push notifications while no page is open.
// The shell is fetched network-first (a new version reaches players at once) and served
// from the cache when the network is away. The API is never cached: a view must be fresh.
const CACHE = "facedown-shell-v7";
const SHELL = [
  "/", "/web/app.css", "/web/manifest.webmanifest", "/web/icon.svg", "/web/icon-waiting.svg",
  "/web/js/main.js", "/web/js/dom.js", "/web/js/api.js", "/web/js/cards.js", "/web/js/words.js",
  "/web/js/actions.js", "/web/js/choices.js", "/web/js/board.js", "/web/js/table.js", "/web/js/history.js", "/web/js/inbox.js",
  "/web/js/lobby.js", "/web/js/signin.js", "/web/js/replay.js", "/web/js/clock.js", "/web/js/i18n.js",
  "/web/js/terms.js", "/web/js/rules.js", "/web/js/waiting.js", "/web/js/reach.js", "/web/js/settings.js",
  "/web/js/links.js", "/web/js/chat.js", "/web/js/ratings.js", "/web/js/options.js", "/web/js/tournaments.js",
  "/web/js/tournament.js",
  "/web/i18n/en.json", "/web/i18n/es.json", "/web/i18n/pt-BR.json", "/web/i18n/pt-PT.json",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname !== "/" && !url.pathname.startsWith("/web/")) return;  // the API: always the network
  event.respondWith(fetch(event.request).then((resp) => {
    if (resp.ok) {
      const copy = resp.clone();
      caches.open(CACHE).then((c) => c.put(url.pathname === "/" ? "/" : event.request, copy));
    }
    return resp;
  }).catch(() => caches.match(url.pathname === "/" ? "/" : event.request)));
});

// A push (the server's payload: {kind, game_id, title, body, url}, already in the player's
// language) becomes a notification. Its tag is the game's, so a newer one about the same game
// replaces the older one instead of piling up (as the push's Topic does while offline). The
// server pushes whether or not a page is open; while the player is looking at a page of the
// client (a focused, visible tab), the push shows nothing: that page shows the news itself (the
// tab's title and icon, the "next game waiting" button, the table), and a browser asks for no
// notification then. A client's URL here has no fragment, so the route is not known.
self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (err) { data = {}; }
  event.waitUntil(showPush(data));
});

/** Show a push's notification (what it opens kept in its data); whether it was shown. */
async function showPush(data) {
  const game = typeof data.game_id === "string" && data.game_id ? data.game_id : null;
  const tabs = await self.clients.matchAll({ type: "window" });
  if (tabs.some((c) => c.focused && c.visibilityState === "visible")) return false;
  await self.registration.showNotification(String(data.title || "facedown"), {
    body: String(data.body || ""), icon: "/web/icon.svg", badge: "/web/icon.svg",
    tag: game ? `game-${game}` : `facedown-${data.kind || "news"}`, renotify: true,
    data: { kind: data.kind || null, game_id: game, url: target(data.url, game) },
  });
  return true;
}

/** Where a notification leads: its url if it is on this site, else the game's page here. */
function target(url, game) {
  try {
    const u = new URL(String(url), self.location.origin);
    if (u.origin === self.location.origin) return u.href;
  } catch (err) { /* not a URL: the game's page below */ }
  return new URL(game ? `/#/game/${encodeURIComponent(game)}` : "/", self.location.origin).href;
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(openTarget(event.notification.data || {}));
});

/**
 * Open what a notification leads to: an open tab of the client is asked to go there (a page
 * message: it changes its route without reloading) and focused; with none, a new window. Answers
 * which it did ("tab" or "window"): the browser tests call it inside the worker, where no click
 * grants the right to focus or open a window, so those steps may fail without undoing the rest.
 */
async function openTarget(data) {
  const url = target(data.url, data.game_id || null);
  const tabs = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const mine = tabs.filter((c) => new URL(c.url).origin === self.location.origin);
  const tab = mine.find((c) => c.focused) || mine.find((c) => c.visibilityState === "visible") || mine[0];
  if (tab) {
    tab.postMessage({ type: "open", url });
    try { await tab.focus(); } catch (err) { /* only a real click may focus a window */ }
    return "tab";
  }
  await self.clients.openWindow(url);
  return "window";
}
