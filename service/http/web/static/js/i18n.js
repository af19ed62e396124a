// The page's words. Every text the page shows comes from one catalog per locale,
// /web/i18n/<locale>.json: a flat JSON object of keys to messages with {name} placeholders, or
// to plural forms by Intl.PluralRules category ({"one": ..., "other": ...}). Dates, times and
// time left go through Intl in the player's locale and the browser's time zone.
//
// Which language: the player's own choice (PUT /v1/me/locale, remembered in this browser
// too), else the browser's languages, else English. "xx-pseudo" (?locale=xx-pseudo) is the
// English catalog with every message wrapped in ⟦ ⟧: a test finds any text not from a catalog.

export const LOCALES = ["en", "es", "pt-BR", "pt-PT"];
export const PSEUDO = "xx-pseudo";
// each language's own name, the same in every catalog (a menu lists them so)
export const NAMES = { en: "English", es: "Español", "pt-BR": "Português (Brasil)", "pt-PT": "Português (Portugal)" };
const STORED = "facedown-locale";

let locale = "en";
let catalog = {};
let plurals = new Intl.PluralRules("en");
const listeners = [];

/** The best of our locales for a list of language tags (navigator.languages), or null. */
export function best(tags) {
  for (const raw of tags || []) {
    const tag = String(raw).toLowerCase();
    const exact = LOCALES.find((l) => l.toLowerCase() === tag);
    if (exact) return exact;
    const [lang, region] = tag.split("-");
    if (lang === "pt") return region === "pt" ? "pt-PT" : "pt-BR";
    if (lang === "es" || lang === "en") return lang;
  }
  return null;
}

/** This browser's last choice of language (null: none, or no storage allowed). */
export function stored() {
  try { return localStorage.getItem(STORED); } catch (err) { return null; }
}

/** The locale to start with: ?locale=, this browser's last choice, its languages, English. */
export function initial() {
  const asked = new URLSearchParams(location.search).get("locale");
  if (asked === PSEUDO) return PSEUDO;
  return best([asked, stored()].filter(Boolean)) || best(navigator.languages) || "en";
}

export const current = () => locale;
const intlTag = () => (locale === PSEUDO ? "en" : locale);

/** Load a locale's catalog and speak it from now on (<html lang> too); listeners redraw. */
export async function use(tag, { remember = false } = {}) {
  const file = tag === PSEUDO ? "en" : tag;
  const resp = await fetch(`/web/i18n/${file}.json`, { credentials: "same-origin" });
  if (!resp.ok) throw new Error(`no catalog for ${tag}`);
  catalog = await resp.json();
  locale = tag;
  plurals = new Intl.PluralRules(intlTag());
  document.documentElement.lang = intlTag();
  if (remember && tag !== PSEUDO) {
    try { localStorage.setItem(STORED, tag); } catch (err) { /* the account keeps it all the same */ }
  }
  apply(document);
  for (const fn of listeners) fn(tag);
}

export function onChange(fn) { listeners.push(fn); }

export function has(key) { return Object.prototype.hasOwnProperty.call(catalog, key); }

function fill(message, args) {
  return message.replace(/\{(\w+)\}/g, (whole, name) => {
    const v = args[name];
    if (v === undefined || v === null) return whole;
    return typeof v === "number" ? new Intl.NumberFormat(intlTag()).format(v) : String(v);
  });
}

function message(key, args) {
  let m = catalog[key];
  if (m === undefined) return `⟪${key}⟫`;  // a missing key shows itself: a test finds it
  if (typeof m === "object") m = m[plurals.select(Number(args.count))] || m.other;
  return m;
}

/** A message with its placeholders filled in. */
export function t(key, args = {}) {
  const out = fill(message(key, args), args);
  return locale === PSEUDO ? `⟦${out}⟧` : out;
}

/** A message as a list of texts and nodes: a placeholder whose value is a Node (a card, a link) stays one. */
export function tn(key, args = {}) {
  const parts = message(key, args).split(/(\{\w+\})/).filter((p) => p !== "").map((p) => {
    const name = /^\{(\w+)\}$/.exec(p);
    if (!name || args[name[1]] === undefined) return p;
    return args[name[1]] instanceof Node ? args[name[1]] : fill(p, args);
  });
  return locale === PSEUDO ? ["⟦", ...parts, "⟧"] : parts;
}

/** Fill in every element of the static page that names its words: data-i18n (text), data-i18n-label (aria-label). */
export function apply(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
}

// what Intl writes is in the locale's words too: the pseudo-locale wraps it like a message
const wrap = (text) => (locale === PSEUDO ? `⟦${text}⟧` : text);

/** A date and time in the player's locale and time zone. */
export function when(iso, options = { dateStyle: "medium", timeStyle: "short" }) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : wrap(new Intl.DateTimeFormat(intlTag(), options).format(d));
}

const UNITS = [["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];

/** How far a time is from now, in words ("in 3 hours", "dentro de 3 horas"). */
export function relative(iso, now = Date.now()) {
  const s = (Date.parse(iso) - now) / 1000;
  const [unit, size] = UNITS.find(([, n]) => Math.abs(s) >= n) || UNITS[UNITS.length - 1];
  return wrap(new Intl.RelativeTimeFormat(intlTag(), { numeric: "auto" }).format(Math.round(s / size), unit));
}

/** A list in words ("Ann, Bob and Cat"). */
export function list(items) {
  return items.length > 1 ? wrap(new Intl.ListFormat(intlTag(), { type: "conjunction" }).format(items.map(String)))
    : items.map(String).join("");
}

/** The words for a problem the API answered: its type in the player's language (the API's detail stays English). */
export function problem(err) {
  if (!err || err.status === 0) return t("problem.offline");
  const slug = String((err.body && err.body.type) || "").split("/").pop();
  return has(`problem.${slug}`) ? t(`problem.${slug}`) : t("problem.other", { status: err.status || "?" });
}

/** A refused form: its problem in words, and the fields the server named (a 422's errors). */
export function refusal(err) {
  const fields = err && err.body && err.body.errors ? Object.keys(err.body.errors).join(", ") : "";
  return fields ? t("lobby.refused_fields", { problem: problem(err), fields }) : problem(err);
}
