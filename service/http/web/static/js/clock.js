// Deadlines counting down: every element with data-deadline (an RFC 3339 time) shows the
// time left, refreshed each second, as long as it is in the page.

export function left(at, now = Date.now()) {
  const ms = Date.parse(at) - now;
  if (Number.isNaN(ms)) return "";
  if (ms <= 0) return "due now";
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400), hh = Math.floor((s % 86400) / 3600), mm = Math.floor((s % 3600) / 60);
  const ss = s % 60;
  if (d > 0) return `${d} d ${hh} h left`;
  if (hh > 0) return `${hh} h ${mm} min left`;
  if (mm > 0) return `${mm} min ${ss} s left`;
  return `${ss} s left`;
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
