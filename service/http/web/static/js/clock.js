// Deadlines counting down: every element with data-deadline (an RFC 3339 time) shows the
// time left in the player's words (Intl.RelativeTimeFormat) and, in its title, the moment in
// their locale and time zone (Intl.DateTimeFormat); refreshed each second while in the page.
import { h } from "./dom.js";
import { t, relative, when } from "./i18n.js";

/** The words for a deadline now: "in 3 hours" (or "due now"). */
export function left(at, now = Date.now()) {
  const ms = Date.parse(at) - now;
  if (Number.isNaN(ms)) return "";
  return ms <= 0 ? t("clock.due") : t("clock.left", { when: relative(at, now), at: when(at, { weekday: "short", hour: "numeric", minute: "2-digit" }) });
}

/** A <time> that counts down to ``at``. */
export function countdown(at, extra = {}) {
  return h("time", { datetime: at, "data-deadline": at, title: when(at, { dateStyle: "full", timeStyle: "short" }), ...extra }, left(at));
}

function tick() {
  for (const el of document.querySelectorAll("[data-deadline]")) {
    const text = left(el.dataset.deadline);
    if (el.textContent !== text) el.textContent = text;
    el.classList.toggle("urgent", Date.parse(el.dataset.deadline) - Date.now() < 3600 * 1000);
  }
}

setInterval(tick, 1000);
export { tick };
