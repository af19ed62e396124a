// One game's page: the table (board.js) kept live by the game's event stream, the actions
// the view lists, the history, the round's result; before the deal, the seats and the
// invitations; after the game, the result, a rematch and the replay.
import { h, clear, say, toast } from "./dom.js";
import * as api from "./api.js";
import * as words from "./words.js";
import { t, tn, list, problem } from "./i18n.js";
import { render, headline, yourMove } from "./board.js";
import { historyPanel, peeksPanel, roundPanel, lastReveal } from "./history.js";
import { countdown } from "./clock.js";
import { rulesPage, rulesetTitle } from "./terms.js";
import { chatPanel } from "./chat.js";
import { botBadge, change } from "./ratings.js";

// events after which the game's summary (its seats, its status, its result) is read again too
const LIFECYCLE = ["SeatTaken", "GameStarted", "GameEnded", "GameCancelled", "GameAborted", "SeatLeft",
  "SeatInvited", "PlayerResigned", "RematchOpened", "SecretRevealed", "GameConcluded"];

async function allEvents(gameId, after, query) {
  const out = [];
  let position = after;
  for (;;) {
    const page = await api.get(`/v1/games/${gameId}/events?after=${position}&limit=500${query}`);
    out.push(...page.events);
    position = page.next_after;
    if (!page.more) return out;
  }
}

export function mount(main, gameId, session, inviteCode = null) {
  const root = h("div", { class: "game", "data-game": gameId, "aria-busy": "true" });
  clear(main).append(root);
  const query = inviteCode ? `&invite_code=${encodeURIComponent(inviteCode)}` : "";
  // timer, withSummary, force: the update due (its view and summary read again, or the page only
  // drawn again); loading: reads in flight. The page is aria-busy while either is pending
  const st = { summary: null, view: null, events: [], last: 0, stop: null, streamSeat: null, timer: null,
    withSummary: false, force: false, loading: 0, sending: false, closed: false, tournament: undefined };
  // kept across draws (the words being typed stay); the game's stream brings its messages
  const chat = chatPanel(gameId, session, query);

  const ctx = () => words.context(st.view || { seats: st.summary ? st.summary.seats : [], seat: null },
    st.summary && st.summary.options && st.summary.options.deck_profile === "spanish50");

  /** aria-busy: true while the page is about to change (an update due, a read or a command in flight). */
  function busy() {
    root.setAttribute("aria-busy", st.timer || st.loading || st.sending ? "true" : "false");
  }

  async function refresh(withSummary = false) {
    st.loading += 1;
    try { await reread(withSummary); } finally { st.loading -= 1; busy(); }
  }

  async function reread(withSummary) {
    const q = inviteCode ? `?invite_code=${encodeURIComponent(inviteCode)}` : "";
    const [view, summary] = await Promise.all([api.get(`/v1/games/${gameId}/view${q}`),
      withSummary || !st.summary ? api.get(`/v1/games/${gameId}${q}`) : Promise.resolve(st.summary)]);
    // a refresh asked for before a command's answer can arrive after it: an older view never
    // replaces a newer one (it would show, say, a standing order already cancelled)
    if (st.view && view.version < st.view.version) return;
    st.view = view;
    st.summary = summary;
    if (st.stop && view.seat !== st.streamSeat) {  // seated now: the events as this seat sees them
      st.events = await allEvents(gameId, 0, query);
      st.last = st.events.length ? st.events[st.events.length - 1].version : 0;
      listen();
    }
    draw();
  }

  function listen() {
    if (st.stop) st.stop();
    st.streamSeat = st.view ? st.view.seat : null;
    const path = `/v1/games/${gameId}/events/stream?chat_after=${chat.last}${query}`;
    st.stop = api.follow(path, ({ event, data }) => {
      if (event === "chat") { chat.add(data); return; }
      if (event === "chat_hidden") { chat.hide(data.n); return; }
      if (data.version <= st.last) return;
      st.last = data.version;
      st.events.push(data);
      const lifecycle = LIFECYCLE.includes(data.type);
      schedule(lifecycle || !st.view || st.view.status !== "active");
    }, { after: st.last });
  }

  /** The view held has every event the history shows (the seat's own command brought them,
   * or a read made after them): the page can be drawn again without reading it. */
  function viewHolds() {
    return Boolean(st.view) && st.view.status === "active" && st.view.version >= st.last;
  }

  /** The page's next update, 60 ms after the last news (a burst of events is one update):
   * the view read again (and with ``withSummary`` the game's summary), or only drawn again
   * when the view held has every event already. What one call asks is kept when a later one
   * asks less. Whether the view is read is decided when the update is made, not when the news
   * came: the stream may bring a command's events before the command's answer, which holds
   * them. ``force``: read the view whatever the page holds (after a refused command, say). */
  function schedule(withSummary, force = false) {
    clearTimeout(st.timer);
    st.withSummary ||= withSummary;
    st.force ||= force;
    st.timer = setTimeout(update, 60);
    busy();
  }

  function update() {
    if (st.sending) {  // the answer to the page's own command is due: it may hold the news
      st.timer = setTimeout(update, 60);
      return;
    }
    const summary = st.withSummary, again = summary || st.force || !viewHolds();
    st.timer = null;
    st.withSummary = st.force = false;
    if (again) refresh(summary).catch((err) => toast(problem(err)));
    else draw();
  }

  function focusKey() {
    const el = document.activeElement;
    if (!el || !root.contains(el)) return null;
    return el.dataset.action ? `[data-action='${el.dataset.action.replaceAll("'", "\\'")}']` : (el.id ? `#${el.id}` : null);
  }

  function draw() {
    if (st.closed) return;
    const refocus = focusKey();
    const openDetails = [...root.querySelectorAll("details[open]")].map((d) => d.id).filter(Boolean);
    const c = ctx();
    const { view, summary } = st;
    const spanish = c.spanish;
    clear(root);
    root.dataset.version = view.version;
    root.dataset.status = view.status;
    root.dataset.ruleset = view.ruleset;
    root.dataset.seat = view.seat === null ? "" : view.seat;
    root.dataset.events = st.last;  // the last event the history below shows
    busy();
    const line = headline(view, c);
    const deadline = view.deadline;
    const over = view.status === "finished" || summary.status === "finished";
    root.append(h("header", { class: "game-head" },
      // a tournament's table is named by the server in English ("… · round 1 · table 2"): the page says it in the player's words
      h("h1", {}, summary.tournament ? t("game.table_of", { n: summary.tournament.table + 1 }) : summary.name || t("game.untitled"), h("span", { class: "ruleset", translate: "no" }, ` · ${rulesetTitle(view.ruleset)}`)),
      tournamentLine(summary),
      h("p", { class: `headline${yourMove(view) ? " yours" : ""}`, id: "headline", tabindex: "-1" }, line),
      deadline ? h("p", { class: "deadline" }, ...tn("deadline.text", {
        left: countdown(deadline.at),
        whom: deadline.kind === "final_window" ? t("deadline.final_window") : list(deadline.seats.map(c.who)) })) : null,
      h("p", { class: "rules-link" }, h("a", { href: `#/rules/${rulesPage(view.ruleset)}`, id: "rules-link" },
        t("game.rules", { game: rulesetTitle(view.ruleset) })))));
    chat.seated(view.seat !== null && view.seat !== undefined);
    root.append(chat.el);  // beside the table on a wide screen (app.css), after the headline on a narrow one
    if (view.status === "open" || !view.table) root.append(waitingRoom(view, summary, c));
    else {
      root.append(render(view, c, spanish, over ? lastReveal(st.events) : null));
      const peeks = peeksPanel(st.events, c);
      if (peeks) root.append(peeks);
    }
    const result = roundPanel(st.events, c, spanish);
    if (result) root.append(result);
    if (view.status === "finished" || summary.status === "finished" || summary.status === "aborted") root.append(finished(summary, c));
    else if (view.status === "active" && view.seat !== null) root.append(resignBox());
    root.append(historyPanel(st.events, c));
    for (const id of openDetails) { const d = root.querySelector(`#${id}`); if (d) d.open = true; }
    if (refocus) {  // keep the keyboard where it was, or at the next thing to do
      const el = root.querySelector(refocus) || root.querySelector(".actions [data-action]") || root.querySelector("#headline");
      if (el) el.focus();
    }
  }

  // a table of a tournament says which (its name read once), and leads back to it
  function tournamentLine(summary) {
    const x = summary.tournament;
    if (!x) return null;
    if (st.tournament === undefined) {
      st.tournament = null;
      api.get(`/v1/tournaments/${x.id}`).then((full) => { st.tournament = full.name; draw(); }).catch(() => {});
    }
    return h("p", { class: "tournament-line" }, h("a", { href: `#/tournament/${x.id}`, id: "tournament-link" },
      t("game.tournament", { name: st.tournament || "…", n: x.round })));
  }

  function waitingRoom(view, summary, c) {
    const seated = view.seat !== null && view.seat !== undefined;
    const box = h("section", { class: "waiting", "aria-label": t("seats.title") }, h("h2", {}, t("seats.title")),
      h("ul", {}, summary.seats.map((s) => h("li", {}, s.name ? [t("seats.taken", { seat: s.seat + 1, name: s.name }),
        botBadge(s)]
        : s.reserved_for ? t("seats.kept", { seat: s.seat + 1, name: s.reserved_for.name }) : t("seats.free", { seat: s.seat + 1 })))));
    const invited = summary.seats.some((s) => s.reserved_for && s.reserved_for.player_id === session.player.id);
    if (!seated) {
      box.append(h("button", { type: "button", class: "primary", id: "join",
        onclick: () => act(() => api.post(`/v1/games/${gameId}/join`, inviteCode ? { invite_code: inviteCode } : {}), true) },
      t(invited ? "invite.accept" : "seats.join")));
      if (invited) {
        box.append(" ", h("button", { type: "button", id: "decline", onclick: async () => {
          try { await api.post(`/v1/games/${gameId}/leave`); location.hash = "#/"; } catch (err) { toast(problem(err)); }
        } }, t("invite.decline")));
      }
      return box;
    }
    const handle = h("input", { id: "invite-handle", name: "handle", autocomplete: "off", required: true,
      pattern: "[A-Za-z0-9_\\-]{3,24}" });
    box.append(h("form", { class: "inline", onsubmit: (ev) => { ev.preventDefault();
      act(() => api.post(`/v1/games/${gameId}/invitations`, { handle: handle.value.trim() }), true); } },
    h("label", { for: "invite-handle" }, t("seats.invite_label")), handle,
    h("button", { type: "submit" }, t("seats.invite"))));
    if (summary.visibility === "unlisted") {
      const out = h("p", { class: "share" }, t("seats.share_loading"));
      box.append(out);
      api.get(`/v1/games/${gameId}/invite_code`).then((r) => {
        const link = `${location.origin}/#/join/${gameId}/${r.invite_code}`;
        clear(out).append(t("seats.share"), " ", h("input", { readonly: true, value: link, "aria-label": t("seats.share_label"),
          class: "link", id: "share-link" }));
      }).catch((err) => { out.textContent = problem(err); });
    }
    const creator = summary.creator === session.player.id;
    box.append(h("button", { type: "button", id: "leave", onclick: () => act(() => (creator
      ? api.del(`/v1/games/${gameId}`) : api.post(`/v1/games/${gameId}/leave`)), true) },
    t(creator ? "seats.cancel" : "seats.leave")));
    return box;
  }

  function resignBox() {
    let armed = false;
    const b = h("button", { type: "button", class: "danger", id: "resign" }, t("resign"));
    b.addEventListener("click", () => {
      if (!armed) { armed = true; b.textContent = t("resign.confirm"); return; }
      act(() => api.post(`/v1/games/${gameId}/resign`), true);
    });
    return h("section", { class: "resign" }, b);
  }

  function finished(summary, c) {
    const w = summary.winners || [];
    return h("section", { class: "finished", "aria-label": t("result.title") }, h("h2", {}, t("result.title")),
      h("p", {}, w.length ? t("result.won", { names: list(w.map(c.who)), count: w.length }) : t(`result.${summary.status === "aborted" ? "aborted" : "over"}`)),
      summary.scores ? h("p", {}, t("result.scores", { scores: summary.scores.map((s, i) => t("scores.of", { name: c.name(i), score: s })).join(", ") })) : null,
      ratingsOf(summary, c),
      h("p", {}, h("a", { href: `#/replay/${gameId}`, id: "replay-link" }, t("result.replay"))),
      summary.next_game
        ? h("p", {}, h("a", { href: `#/game/${summary.next_game}` }, t("result.to_rematch")))
        : h("button", { type: "button", id: "rematch", onclick: async () => {
          try { const g = await api.post(`/v1/games/${gameId}/rematch`); location.hash = `#/game/${g.id}`; } catch (err) { toast(problem(err)); }
        } }, t("result.rematch")));
  }

  // each seat's rating change (docs/ratings.md), or that the game did not count
  function ratingsOf(summary, c) {
    if (summary.status !== "finished") return null;
    if (!summary.rated) return h("p", { id: "rating-changes" }, t("result.unrated"));
    if (!summary.rating_changes) return null;
    return h("section", { id: "rating-changes", class: "rating-changes" }, h("h3", {}, t("result.ratings")),
      h("ul", {}, summary.rating_changes.map((x) => h("li", { dataset: { seat: x.seat } },
        t("result.rating_of", { name: c.name(x.seat), change: change(x) })))));
  }

  async function act(fn, withSummary = false) {
    try { await fn(); await refresh(withSummary); } catch (err) { toast(problem(err)); }
  }

  /** The events a command's answer brings, into the history when they follow the last one
   * it holds: the stream's copies of them then change nothing, and the page is drawn once
   * per command, not twice. Events that change the summary have it read again. */
  function ownEvents(events) {
    if (!events || !events.length || events[0].version !== st.last + 1) return;  // the stream has them, or a gap
    st.events.push(...events);
    st.last = events[events.length - 1].version;
    if (events.some((e) => LIFECYCLE.includes(e.type)) || st.view.status !== "active") schedule(true);
  }

  async function send(action) {
    if (st.sending) return;
    st.sending = true;
    busy();
    try {
      const out = await api.command(gameId, action);
      say(words.action(action, ctx()));
      if (!st.view || out.view.version >= st.view.version) st.view = out.view;
      ownEvents(out.events);
      draw();
    } catch (err) {
      toast(problem(err));
      schedule(false, true);
    } finally {
      st.sending = false;
      busy();
    }
  }

  root.addEventListener("click", (ev) => {
    const el = ev.target.closest("[data-action]");
    if (!el || !root.contains(el)) return;
    ev.preventDefault();
    send(JSON.parse(el.dataset.action));
  });
  root.addEventListener("dragstart", (ev) => {
    if (!ev.target.closest || !ev.target.closest(".held")) return;
    ev.dataTransfer.setData("text/plain", "held");
    ev.dataTransfer.effectAllowed = "move";
    root.classList.add("dragging");
  });
  root.addEventListener("dragend", () => root.classList.remove("dragging"));
  root.addEventListener("dragover", (ev) => { if (ev.target.closest && ev.target.closest("[data-drop]")) ev.preventDefault(); });
  root.addEventListener("drop", (ev) => {
    const el = ev.target.closest && ev.target.closest("[data-drop]");
    if (!el) return;
    ev.preventDefault();
    root.classList.remove("dragging");
    send(JSON.parse(el.dataset.drop));
  });

  (async () => {
    st.loading += 1;  // busy until the history is in too
    try {
      await refresh(true);
      await chat.load().catch(() => {});  // a game without a chat for this reader: none shown
      st.events = await allEvents(gameId, 0, query);
      st.last = st.events.length ? st.events[st.events.length - 1].version : 0;
      st.loading -= 1;
      draw();
      listen();
    } catch (err) {
      st.loading = 0;
      clear(root).append(h("p", { class: "error" }, t("game.cannot_show", { problem: problem(err) })));
      busy();
    }
  })();

  return () => { st.closed = true; clearTimeout(st.timer); if (st.stop) st.stop(); };
}
