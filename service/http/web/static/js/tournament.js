// A tournament's page (#/tournament/<id>, GET /v1/tournaments/{id}): what it is (game, format,
// seats per table, rounds, clock), where it stands, its players, each round's tables (each an
// ordinary game, linked), the standings with points and tie-breaks, and for a duplicate
// tournament each round's board: its deal's commitment, and after the round the seed. Join and
// leave while it is open, and start it, for its creator. Read again after every action, on the
// account's news (a round ready is one) and every 30 seconds while it is not finished.
import { h, append, clear, toast, say } from "./dom.js";
import * as api from "./api.js";
import { t, when, problem } from "./i18n.js";
import { rulesetTitle, rulesPage } from "./terms.js";
import { playerLink } from "./ratings.js";
import { subscribe } from "./waiting.js";

const POLL_MS = 30_000;

/** A player of the tournament by id: {id, name} (one who left is still named by their id). */
const person = (id, x) => x.players.find((p) => p.id === id) || { id, name: String(id) };
const inIt = (x, me) => x.players.some((p) => p.id === me);

function clock(tc) {
  if (tc === null) return t("tourney.no_clock");
  if (!tc || !tc.turn_seconds) return t("tourney.default_clock");
  return t("tourney.hours_per_move", { count: Math.round(tc.turn_seconds / 3600) });
}

function about(x) {
  const items = [
    [t("lobby.game"), h("a", { href: `#/rules/${rulesPage(x.ruleset)}` }, rulesetTitle(x.ruleset))],
    [t("tourney.format"), t(`tourney.format.${x.format}`)],
    [t("tourney.seats"), String(x.seats_per_table)],
    [t("tourney.rounds"), x.round_count ? String(x.round_count) : t("tourney.rounds_at_start")],
    [t("tourney.max"), String(x.max_players)],
    [t("tourney.duplicate_short"), t(x.duplicate ? "optval.yes" : "optval.no")],
    [t("tourney.clock"), clock(x.time_control)],
  ];
  if (x.starts_at) items.push([t("tourney.starts_at"), when(x.starts_at)]);
  return h("dl", { class: "tournament-facts", id: "t-facts" }, items.map(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]));
}

function where(x, me) {
  if (x.status === "open") return t(inIt(x, me) ? "tourney.open_joined" : "tourney.open_text", { count: x.players.length, max: x.max_players, seats: x.seats_per_table });
  if (x.status === "running") return t("tourney.running_text", { n: x.current_round, rounds: x.round_count });
  return t(`tourney.${x.status}_text`);  // finished, cancelled
}

// while a round is played: the way to the player's own table, first thing on the page
function yourTable(x, me) {
  const r = x.status === "running" ? x.rounds[x.rounds.length - 1] : null;
  const i = r && r.status === "playing" ? r.tables.findIndex((tb) => tb.players.includes(me)) : -1;
  if (i < 0) return null;
  return h("p", {}, h("a", { href: `#/game/${r.tables[i].game_id}`, id: "t-your-table", class: "button-link" },
    t("tourney.to_your_table", { n: i + 1, round: r.n })));
}

function playersPart(x, me) {
  const items = x.players.map((p) => h("li", { dataset: { player: p.id } }, playerLink(p),
    p.id === me ? [" ", h("span", { class: "hint" }, t("tourney.you"))] : null,
    p.id === x.creator ? [" ", h("span", { class: "hint" }, t("tourney.creator"))] : null));
  return h("section", { "aria-labelledby": "h-t-players" }, h("h2", { id: "h-t-players" }, t("tourney.players_title", { count: items.length })),
    items.length ? h("ul", { id: "t-players" }, items) : h("p", { class: "none", id: "t-players" }, t("tourney.no_players")));
}

// the standings' tie-breaks, in the order the server lists them (docs/tournaments.md); a list of
// another length is not that rule's, and its columns are only numbered
const TIES = ["buchholz", "wins", "head_to_head", "rating"];
const tieNames = (n) => Array.from({ length: n }, (_, i) => (n === TIES.length ? t(`tourney.tie.${TIES[i]}`) : t("tourney.tie.other", { n: i + 1 })));
/** Points in the player's language: a half (a shared place, a tie on a board) shown as such. */
const points = (v) => new Intl.NumberFormat(document.documentElement.lang || "en", { maximumFractionDigits: 2 }).format(v);

function standingsPart(x) {
  const rows = x.status === "open" ? [] : x.standings;
  const ties = rows.length ? rows[0].tiebreaks.length : 0;
  const head = h("tr", {}, h("th", { scope: "col" }, t("ratings.col.rank")), h("th", { scope: "col" }, t("ratings.col.player")),
    h("th", { scope: "col" }, t("tourney.points")), tieNames(ties).map((name) => h("th", { scope: "col" }, name)),
    h("th", { scope: "col" }, t("tourney.games")));
  const body = rows.map((r) => h("tr", { dataset: { player: r.player } }, h("td", {}, String(r.rank)),
    h("td", {}, playerLink({ id: r.player, name: r.name || person(r.player, x).name })),
    h("td", { class: "num points" }, points(r.points)), r.tiebreaks.map((v) => h("td", { class: "num" }, points(v))),
    h("td", { class: "num" }, String(r.games), r.byes ? [" ", h("span", { class: "hint" }, t("tourney.byes", { count: r.byes }))] : null)));
  return h("section", { "aria-labelledby": "h-t-standings" }, h("h2", { id: "h-t-standings" }, t("tourney.standings")),
    h("p", { class: "hint" }, t(x.duplicate ? "tourney.points_duplicate" : "tourney.points_plain"), " ", t("tourney.tie_rule")),
    // tabindex: on a phone the standings scroll sideways (app.css), by the keyboard too
    rows.length ? h("table", { id: "t-standings", tabindex: "0" }, h("thead", {}, head), h("tbody", {}, body))
      : h("p", { class: "none", id: "t-standings" }, t("tourney.no_standings")));
}

// a duplicate round's tables share one deal: while it is played, a player may open their own
// table only (the server refuses the others: board-in-play), so the others are not links then
function tableItem(x, r, tb, i, me) {
  const names = tb.players.map((id) => person(id, x));
  const mine = tb.players.includes(me);
  const sealed = x.duplicate && r.status === "playing" && !mine;
  const seated = r.tables.some((other) => other.players.includes(me));
  const label = t("tourney.table", { n: i + 1 });
  return h("li", { class: `game-item${mine ? " yours" : ""}`, dataset: { game: tb.game_id } },
    sealed ? h("span", { class: "game-link" }, label) : h("a", { href: `#/game/${tb.game_id}`, class: "game-link" }, label),
    h("span", { class: "meta" }, names.map((p, k) => [k ? ", " : "", h("span", { translate: "no" }, p.name)])),
    mine ? h("span", { class: "badge" }, t("tourney.your_table")) : null,
    sealed ? h("span", { class: "hint" }, t(seated ? "tourney.sealed" : "tourney.sealed_all")) : null);
}

function roundsPart(x, me) {
  const parts = [...x.rounds].reverse().map((r) => h("section", { class: "round", dataset: { round: r.n, status: r.status } },
    h("h3", {}, t("tourney.round", { n: r.n }), " ", h("span", { class: "hint" }, t(`tourney.round.${r.status}`))),
    h("ul", { class: "games" }, r.tables.map((tb, i) => tableItem(x, r, tb, i, me))),
    r.byes.map((id) => h("p", { class: "bye" }, t("tourney.bye", { name: person(id, x).name })))));
  return h("section", { "aria-labelledby": "h-t-rounds" }, h("h2", { id: "h-t-rounds" }, t("tourney.rounds_title")),
    parts.length ? h("div", { id: "t-rounds" }, parts) : h("p", { class: "none", id: "t-rounds" }, t("tourney.no_rounds")));
}

function boardsPart(x) {
  if (!x.duplicate) return null;
  const boards = x.boards || [];
  const items = boards.map((b) => h("li", { dataset: { board: b.n } }, h("strong", {}, t("tourney.board", { n: b.n })),
    h("div", {}, t("tourney.commitment"), " ", h("code", { class: "hash", translate: "no" }, b.commitment)),
    h("div", {}, b.seed ? [t("tourney.seed"), " ", h("code", { class: "hash", translate: "no" }, b.seed)]
      : h("span", { class: "hint" }, t("tourney.seed_later", { n: b.n })))));
  return h("section", { "aria-labelledby": "h-t-boards" }, h("h2", { id: "h-t-boards" }, t("tourney.boards")),
    h("p", { class: "hint" }, t("tourney.boards_hint")),
    items.length ? h("ul", { id: "t-boards", class: "boards" }, items) : h("p", { class: "none", id: "t-boards" }, t("tourney.no_boards")));
}

export function mount(main, id, session) {
  const me = session.player.id;
  const root = h("div", { class: "tournament", id: "tournament", "aria-busy": "true", dataset: { tournament: id } });
  clear(main).append(root);
  let closed = false;
  let timer = null;

  async function act(path, said) {
    root.setAttribute("aria-busy", "true");
    try {
      await api.post(`/v1/tournaments/${id}/${path}`, {});
      say(t(said));
    } catch (err) { toast(problem(err)); }
    await load();
  }

  function buttons(x) {
    if (x.status !== "open") return null;
    const joined = inIt(x, me);
    return h("p", { class: "actions-row" },
      joined ? h("button", { type: "button", id: "t-leave", onclick: () => act("leave", "tourney.left") }, t("tourney.leave"))
        : h("button", { type: "button", class: "primary", id: "t-join", onclick: () => act("join", "tourney.joined") }, t("tourney.join")),
      x.creator === me ? [" ", h("button", { type: "button", class: "primary", id: "t-start", "aria-describedby": "t-start-hint",
        onclick: () => act("start", "tourney.started") }, t("tourney.start")),
      " ", h("span", { class: "hint", id: "t-start-hint" }, t("tourney.start_hint", { seats: x.seats_per_table }))] : null);
  }

  function draw(x) {
    append(clear(root), [  // dom.js's append: a part with nothing to show (null) is left out
      h("h1", {}, h("span", { translate: "no" }, x.name), h("span", { class: `badge status-${x.status}`, id: "t-status" }, t(`tourney.status.${x.status}`))),
      h("p", { id: "t-where" }, where(x, me)), yourTable(x, me),
      buttons(x),
      about(x),
      playersPart(x, me), roundsPart(x, me), standingsPart(x), boardsPart(x),
      h("p", {}, h("a", { href: "#/lobby" }, t("tourney.to_lobby")))]);
    root.dataset.status = x.status;
    root.dataset.rounds = String(x.rounds.length);
  }

  async function load() {
    clearTimeout(timer);
    try {
      const x = await api.get(`/v1/tournaments/${encodeURIComponent(id)}`);
      if (closed) return;
      draw(x);
      if (x.status !== "finished") timer = setTimeout(load, POLL_MS);
    } catch (err) {
      if (closed) return;
      clear(root).append(h("h1", {}, t("tourney.title")), h("p", { class: "error" }, t("tourney.cannot_show", { problem: problem(err) })),
        h("p", {}, h("a", { href: "#/lobby" }, t("tourney.to_lobby"))));
    }
    root.setAttribute("aria-busy", "false");
    root.dataset.loaded = String(Date.now());
  }

  let first = true;
  const unsubscribe = subscribe(() => { if (!first) load(); });  // the account's news: a round ready, a table ended
  first = false;
  load();
  return () => { closed = true; clearTimeout(timer); unsubscribe(); };
}
