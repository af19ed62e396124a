// facedown's service worker: keeps the web client's shell so the page opens offline.
// The shell is fetched network-first (a new version reaches players at once) and served
// from the cache when the network is away. The API is never cached: a view must be fresh.
const CACHE = "facedown-shell-v4";
const SHELL = [
  "/", "/web/app.css", "/web/manifest.webmanifest", "/web/icon.svg", "/web/icon-waiting.svg",
  "/web/js/main.js", "/web/js/dom.js", "/web/js/api.js", "/web/js/cards.js", "/web/js/words.js",
  "/web/js/actions.js", "/web/js/choices.js", "/web/js/board.js", "/web/js/table.js", "/web/js/history.js", "/web/js/inbox.js",
  "/web/js/lobby.js", "/web/js/signin.js", "/web/js/replay.js", "/web/js/clock.js", "/web/js/i18n.js",
  "/web/js/terms.js", "/web/js/rules.js", "/web/js/waiting.js", "/web/js/ratings.js",
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
