// The Account page's ways to reach a player whose page is closed: their e-mail address
// (PUT/DELETE /v1/me/email; a link verifies it) and this browser's Web Push subscription
// (GET /v1/push/vapid-key, PushManager.subscribe, POST /v1/me/push-subscriptions), with every
// browser that gets pushes listed and removable. The settings of what is sent are settings.js's.
import { h, clear } from "./dom.js";
import * as api from "./api.js";
import { t, tn, when, problem } from "./i18n.js";

/** A problem in the words of this page: a malformed address says so. */
function refusal(err) {
  const errors = err && err.body && err.body.errors;
  return errors && errors.email ? t("email.malformed") : problem(err);
}

/** Write a result next to the controls (a polite live region: read when the reader is free). */
function tell(el, text, bad = false) {
  el.classList.toggle("error", bad);
  el.textContent = text;
}

/** The e-mail section, drawn from GET /v1/me (``me``: its promise). */
export function emailSection(me) {
  const state = h("p", { id: "email-state" });
  const said = h("p", { id: "email-said", "aria-live": "polite" });
  const off = h("p", { id: "email-off", class: "note", hidden: true }, t("email.off"));
  const input = h("input", { id: "email", name: "email", type: "email", required: true, maxlength: 254,
    autocomplete: "email", "aria-describedby": "email-hint" });
  const save = h("button", { type: "submit", class: "primary", id: "email-save" }, t("email.save"));
  const resend = h("button", { type: "button", id: "email-resend", hidden: true }, t("email.resend"));
  const remove = h("button", { type: "button", class: "danger", id: "email-remove", hidden: true }, t("email.remove"));
  let sending = true;
  let current = { email: null, email_verified: false };

  function draw(out) {
    current = { email: out.email || null, email_verified: Boolean(out.email_verified) };
    const address = current.email ? h("strong", { translate: "no" }, current.email) : null;
    clear(state).append(...(!address ? [t("email.none")]
      : tn(current.email_verified ? "email.verified" : "email.unverified", { email: address })));
    resend.hidden = !current.email || current.email_verified || !sending;
    remove.hidden = !current.email;
    off.hidden = sending;
    input.disabled = save.disabled = !sending;
  }

  async function give(address) {
    try {
      draw(await api.call("PUT", "/v1/me/email", { email: address }));
      input.value = "";
      tell(said, t("email.sent", { email: current.email }));
    } catch (err) { tell(said, refusal(err), true); }
  }

  const form = h("form", { id: "email-form", onsubmit: (ev) => { ev.preventDefault(); give(input.value.trim()); } },
    h("div", { class: "field" }, h("label", { for: "email" }, t("email.label")), input,
      h("span", { class: "hint", id: "email-hint" }, t("email.hint"))),
    save);
  resend.addEventListener("click", () => give(current.email));
  remove.addEventListener("click", async () => {
    try {
      await api.del("/v1/me/email");
      draw({ email: null, email_verified: false });
      tell(said, t("email.removed"));
    } catch (err) { tell(said, problem(err), true); }
  });
  const section = h("section", { "aria-labelledby": "h-email", id: "email-section", "aria-busy": "true" },
    h("h2", { id: "h-email" }, t("email.title")), h("p", {}, t("email.text")), off, state,
    h("div", { class: "address-buttons" }, resend, remove), form, said);
  me.then((m) => { sending = m.email_sending !== false; draw(m); }).catch((err) => tell(said, problem(err), true))
    .finally(() => section.setAttribute("aria-busy", "false"));
  return section;
}

// --------------------------------------------------------------------------- Web Push

const supported = () => "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

/** The key as PushManager wants it: bytes from base64url. */
function bytes(base64url) {
  const raw = atob(base64url.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(base64url.length / 4) * 4, "="));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

function sameKey(buffer, key) {
  if (!buffer) return false;
  const a = new Uint8Array(buffer);
  return a.length === key.length && a.every((b, i) => b === key[i]);
}

// the push services of the common browsers, by name (a player knows their browser, not its host)
const SERVICES = [[/(^|\.)googleapis\.com$/, "Chrome"], [/(^|\.)mozilla\.com$/, "Firefox"],
  [/(^|\.)notify\.windows\.com$/, "Edge"], [/(^|\.)push\.apple\.com$/, "Safari"]];

function service(endpoint) {
  let host = "";
  try { host = new URL(endpoint).hostname; } catch (err) { return "?"; }
  const known = SERVICES.find(([re]) => re.test(host));
  return known ? known[1] : host;
}

/** This browser's push subscription now, or null (never waits for a worker that may not come). */
async function ours() {
  if (!supported()) return null;
  const reg = await navigator.serviceWorker.getRegistration();
  return reg ? reg.pushManager.getSubscription() : null;
}

// a worker not active within this long will not be (it failed to install): said, not waited for
const READY_MS = 15000;

function ready() {
  return Promise.race([navigator.serviceWorker.ready, new Promise((resolve, reject) => {
    setTimeout(() => reject(new Error("no active service worker")), READY_MS);
  })]);
}

/** The push section: this browser's state, a button that subscribes it, and every subscription. */
export function pushSection() {
  const state = h("p", { id: "push-state" });
  const said = h("p", { id: "push-said", "aria-live": "polite" });
  const button = h("button", { type: "button", class: "primary", id: "push-subscribe", hidden: true }, t("push.subscribe"));
  const list = h("ul", { id: "push-list", class: "plain", "aria-busy": "true" });
  let mine = null;  // this browser's endpoint, when subscribed

  function show(key) {
    state.dataset.state = key;
    state.textContent = t(`push.state.${key}`);
    button.hidden = key === "unsupported" || key === "on";
  }

  async function refresh() {
    const sub = await ours().catch(() => null);
    mine = sub ? sub.endpoint : null;
    const out = await api.get("/v1/me/push-subscriptions");
    const listed = out.items.some((s) => s.endpoint === mine);
    if (!supported()) show("unsupported");
    else if (Notification.permission === "denied") show("denied");
    else show(listed ? "on" : "off");
    clear(list).append(...(out.items.length ? out.items.map(item)
      : [h("li", {}, t("push.none"))]));
    list.setAttribute("aria-busy", "false");
  }

  function item(s) {
    const where = service(s.endpoint);
    const since = when(s.created_at, { dateStyle: "medium" });
    const here = s.endpoint === mine;
    return h("li", { class: "subscription", dataset: { id: s.id } },
      h("span", {}, ...tn(here ? "push.item.here" : "push.item", { browser: h("strong", { translate: "no" }, where), since })), " ",
      h("button", { type: "button", class: "small danger remove", "aria-label": t("push.remove_label", { browser: where, since }),
        onclick: () => remove(s, here) }, t("push.remove")));
  }

  async function remove(s, here) {
    try {
      await api.del(`/v1/me/push-subscriptions/${encodeURIComponent(s.id)}`);
      if (here) {
        const sub = await ours().catch(() => null);
        if (sub) await sub.unsubscribe().catch(() => false);
      }
      tell(said, t("push.removed"));
    } catch (err) { tell(said, problem(err), true); }
    await refresh().catch((err) => tell(said, problem(err), true));
  }

  async function subscribe() {
    if (!supported()) { show("unsupported"); return; }
    const permission = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
    if (permission !== "granted") {
      show(permission === "denied" ? "denied" : "off");
      tell(said, t(permission === "denied" ? "push.refused" : "push.dismissed"), true);
      return;
    }
    let sub = null;
    try {
      const key = bytes((await api.get("/v1/push/vapid-key")).public_key);
      const reg = await ready();
      sub = await reg.pushManager.getSubscription();
      if (sub && !sameKey(sub.options.applicationServerKey, key)) {
        await sub.unsubscribe();  // made for another server key: its pushes would be refused
        sub = null;
      }
      if (!sub) sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
    } catch (err) {
      tell(said, err instanceof api.Problem ? problem(err) : t("push.failed"), true);
      return;
    }
    const json = sub.toJSON();
    try {
      await api.post("/v1/me/push-subscriptions", { endpoint: json.endpoint, keys: { p256dh: json.keys.p256dh, auth: json.keys.auth } });
      tell(said, t("push.subscribed"));
    } catch (err) { tell(said, problem(err), true); }
    await refresh().catch((err) => tell(said, problem(err), true));
  }

  button.addEventListener("click", () => { button.disabled = true; subscribe().finally(() => { button.disabled = false; }); });
  if (!supported()) show("unsupported");
  refresh().catch((err) => tell(said, problem(err), true));
  return h("section", { "aria-labelledby": "h-push", id: "push-section" },
    h("h2", { id: "h-push" }, t("push.title")), h("p", {}, t("push.text")), state, button, said,
    h("h3", { id: "h-push-list" }, t("push.list")), list);
}
