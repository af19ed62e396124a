// Building the page: elements from plain data. Text always goes in as text nodes, so whatever
// a player typed (a name, a handle, a game's name) is shown, never interpreted as HTML.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const child of [children].flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

/** Announce a sentence to screen readers (the polite live region). */
export function say(text) {
  const region = document.getElementById("status");
  region.textContent = "";
  setTimeout(() => { region.textContent = text; }, 30);
}

let toastTimer = null;
/** Show an error or a notice for a few seconds (role=alert: read at once). */
export function toast(text) {
  const el = document.getElementById("toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 6000);
}

let serial = 0;
export function uid(prefix) {
  serial += 1;
  return `${prefix}-${serial}`;
}
