// The game chat beside the table (docs/chat.md): the messages so far, then each new one as the
// game's event stream brings it (`event: chat`); a box to write in for the seated players, with
// the server's limits; mute and report on another player's message. A message's words only
// ever go into the page as text (dom.js h()), never as HTML.
import { h, clear, say, toast } from "./dom.js";
import * as api from "./api.js";
import { t, problem } from "./i18n.js";

export const MAX = 500;

/** Trimmed, 1-500 characters (as the server counts them), no control characters; or null. */
export function cleaned(text) {
  const words = text.trim();
  const length = [...words].length;
  // eslint-disable-next-line no-control-regex
  if (length < 1 || length > MAX || /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(words)) return null;
  return words;
}

export function chatPanel(gameId, session, query) {
  const st = { last: 0, seen: new Set(), seated: false };
  const list = h("ol", { class: "chat-list", id: "chat-list", "aria-live": "polite" });
  const empty = h("p", { class: "chat-empty", id: "chat-empty" }, t("chat.empty"));
  const input = h("input", { id: "chat-text", name: "text", maxlength: String(MAX), autocomplete: "off",
    "aria-describedby": "chat-hint" });
  const hint = h("p", { class: "chat-hint", id: "chat-hint" }, t("chat.hint", { max: MAX }));
  const form = h("form", { class: "chat-form", id: "chat-form", onsubmit: (ev) => { ev.preventDefault(); send(); } },
    h("label", { for: "chat-text" }, t("chat.label")), input, h("button", { type: "submit", id: "chat-send" }, t("chat.send")));
  const watching = h("p", { class: "chat-watching", id: "chat-watching" }, t("chat.seated_only"));
  const el = h("aside", { class: "chat", id: "chat", "aria-label": t("chat.title") },
    h("h2", {}, t("chat.title")), empty, list, form, hint, watching);

  function author(m) {
    return m.player.handle ? t("who", { name: m.player.name || "?", handle: m.player.handle }) : (m.player.name || "?");
  }

  function add(m) {
    if (st.seen.has(m.n)) return;  // a stream that reconnects repeats what it had sent
    st.seen.add(m.n);
    st.last = Math.max(st.last, m.n);
    const mine = m.player.id === session.player.id;
    const item = h("li", { class: `chat-message${mine ? " mine" : ""}`, "data-n": m.n, "data-player": m.player.id },
      h("span", { class: "chat-author" }, author(m)), " ",
      h("span", { class: "chat-text" }, m.text));
    if (!mine) {
      item.append(" ", h("button", { type: "button", class: "chat-mute", onclick: () => mute(m) }, t("chat.mute")),
        " ", h("button", { type: "button", class: "chat-report", onclick: () => report(m) }, t("chat.report")));
    }
    list.append(item);
    empty.hidden = true;
    list.scrollTop = list.scrollHeight;
  }

  async function load() {
    for (;;) {
      const page = await api.get(`/v1/games/${gameId}/chat?after=${st.last}${query}`);
      page.messages.forEach(add);
      if (page.messages.length < 100) return;
    }
  }

  async function send() {
    const words = cleaned(input.value);
    if (words === null) { toast(t("chat.invalid", { max: MAX })); input.focus(); return; }
    try {
      add(await api.post(`/v1/games/${gameId}/chat`, { text: words }));
      input.value = "";
    } catch (err) { toast(problem(err)); }
    input.focus();
  }

  async function mute(m) {
    try {
      await api.post("/v1/me/mutes", { player_id: m.player.id });
      for (const li of [...list.querySelectorAll(".chat-message")]) if (li.dataset.player === m.player.id) li.remove();
      say(t("chat.muted", { name: author(m) }));
    } catch (err) { toast(problem(err)); }
  }

  async function report(m) {
    const reason = window.prompt(t("chat.report_reason"));
    if (reason === null) return;
    const why = cleaned(reason);
    if (why === null) { toast(t("chat.invalid", { max: MAX })); return; }
    try {
      await api.post(`/v1/games/${gameId}/chat/${m.n}/report`, { reason: why });
      say(t("chat.reported"));
      toast(t("chat.reported"));
    } catch (err) { toast(problem(err)); }
  }

  return {
    el,
    load,
    add,
    /** The last message number shown: where the game's stream picks the chat up. */
    get last() { return st.last; },
    /** Only the seated players write; the others read. */
    /** An operator hid message n: it leaves the page. */
    hide(n) {
      const li = list.querySelector(`.chat-message[data-n='${Number(n)}']`);
      if (li) li.remove();
      empty.hidden = list.childElementCount > 0;
    },
    seated(yes) { st.seated = yes; form.hidden = !yes; hint.hidden = !yes; watching.hidden = yes; },
    clear() { clear(list); st.seen.clear(); st.last = 0; },
  };
}
