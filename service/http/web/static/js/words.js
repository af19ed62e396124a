// Commands and events in words (the catalogs' act.*, ev.*, explain.*), for buttons, the history
// panel and the replay. Players are named by their names, never by seat numbers; what is not
// known here is still said (the event's type), never a card the API did not send.
import { t, has, list } from "./i18n.js";
import { label } from "./cards.js";

export function context(view, spanish) {
  const names = {};
  for (const s of (view && view.seats) || []) names[s.seat] = s.name || t("seat.nobody", { seat: s.seat });
  const me = view ? view.seat : null;
  const name = (seat) => names[seat] || t("seat.nobody", { seat });
  const who = (seat) => (seat === null || seat === undefined ? t("who.server") : seat === me ? t("who.you") : name(seat));
  return { me, names, name, who, spanish };
}

/** A card in running prose: its words, or "a card" when this seat was not shown it. */
export function cardText(code, ctx) {
  return code ? label(code, ctx && ctx.spanish) : t("card.unknown");
}

/** "your card A" or "Bob's card A" (a [seat, slot] pair). */
export function loc(pair, ctx) {
  return pair[0] === ctx.me ? t("loc.own", { slot: pair[1] }) : t("loc.other", { name: ctx.name(pair[0]), slot: pair[1] });
}

const slots = (list_) => list((list_ || []).map(String));
const cards = (codes, ctx) => list((codes || []).map((c) => cardText(c, ctx)));

/** "a queen", "un rey", "um ás": a rank with its article. */
export function aRank(r) {
  return has(`rank.a.${r}`) ? t(`rank.a.${r}`) : t("rank.a.n", { rank: r });
}

/** A rank's name alone ("queen", "7"). */
export function rankWord(r) { return has(`rank.${r}`) ? t(`rank.${r}`) : String(r); }

function tail(a, text) {
  let out = text;
  if (a.penalty_to && a.penalty_to !== "new") out = t("act.with_penalty", { action: out, slot: a.penalty_to.slice(6) });
  if (a.close) out = t("act.with_close", { action: out });
  return out;
}

/** The words of one legal action (the label of the control that sends it): always a verb. */
export function action(a, ctx) {
  const rival = (seat, slot) => loc([seat, slot], ctx);
  switch (a.type) {
    case "Draw": return t(a.source === "discard" ? "act.Draw.discard" : "act.Draw.stock");
    case "DiscardDrawn": case "Release": return tail(a, t("act.DiscardDrawn"));
    case "Replace": return tail(a, t("act.Replace", { slot: a.slot }));
    case "Keep": return a.also_discard && a.also_discard.length
      ? t("act.Keep.also", { slot: a.replace, others: slots(a.also_discard) }) : t("act.Keep", { slot: a.replace });
    case "ChoosePeek": return t("act.ChoosePeek", { slots: slots(a.slots) });
    case "PeekBottom": return t("act.PeekBottom");
    case "PeekOwn": return t("act.PeekOwn", { slot: a.slot });
    case "PeekRival": return t("act.Look", { cards: rival(a.player, a.slot) });
    case "BlindSwap": return t("act.SwapOwn", { slot: a.own_slot, other: rival(a.rival, a.rival_slot) });
    case "KingLook": return t("act.KingLook", { slot: a.own_slot, other: rival(a.rival, a.rival_slot) });
    case "KingSwap": return t("act.KingSwap");
    case "KingKeep": return t("act.KingKeep");
    case "SkipPower": return tail(a, t("act.SkipPower"));
    case "UsePower6": return t("act.Look", { cards: loc(a.target, ctx) });
    case "UsePower5": return a.own !== undefined
      ? t("act.SwapOwn", { slot: a.own, other: loc(a.other, ctx) })
      : t("act.SwapTwo", { a: loc(a.a, ctx), b: loc(a.b, ctx) });
    case "Look": return tail(a, a.targets.length ? t("act.Look", { cards: list(a.targets.map((x) => loc(x, ctx))) })
      : t("act.LookNothing"));
    case "Swap": return tail(a, t("act.Swap", { a: loc(a.a, ctx), b: loc(a.b, ctx) }));
    case "NoSwap": return tail(a, t("act.NoSwap"));
    case "SnapOwn": return tail(a, t("act.SnapOwn", { slot: a.slot }));
    case "SnapRival": return tail(a, a.give_slot
      ? t("act.SnapRival.give", { card: rival(a.rival, a.rival_slot), give: a.give_slot, name: ctx.name(a.rival) })
      : t("act.SnapRival", { card: rival(a.rival, a.rival_slot) }));
    case "Match": return t("act.Match", { slot: a.slot });
    case "MatchRival": return t("act.MatchRival", { card: rival(a.rival, a.rival_slot), give: a.give_slot, name: ctx.name(a.rival) });
    case "MatchGroup": return t("act.MatchGroup", { slots: slots(a.slots) });
    case "Pass": return t("act.Pass");
    case "CallCorte": return t("act.CallCorte");
    case "CallPedro": return t("act.CallPedro");
    case "Close": return t("act.Close");
    case "Declare": return t("act.Declare");
    case "SkipTurn": return t("act.SkipTurn");
    case "Play": return a.take === "stock" ? t("act.Play.stock", { cards: cards(a.discard, ctx) })
      : t("act.Play.take", { cards: cards(a.discard, ctx), card: cardText(a.take.slice(5), ctx) });
    case "PlaceOrder": {
      const onRival = a.claim === "SnapRival" || a.claim === "MatchRival";
      const key = `act.PlaceOrder.${a.claim.startsWith("Match") ? "match" : "snap"}${onRival && a.give_slot ? ".give" : ""}`;
      return tail(a, t(key, { card: onRival ? rival(a.rival, a.rival_slot) : t("loc.own", { slot: a.slot }), rank: aRank(a.rank),
        give: a.give_slot, name: onRival ? ctx.name(a.rival) : "" }));
    }
    case "CancelOrder": return t("act.CancelOrder", { id: a.order_id });
    default: return t("act.other", { type: a.type });
  }
}

/** What a field of a command is, as a form's label says it (a command's own words for it first). */
export function field(name, type = "") {
  if (has(`field.${type}.${name}`)) return t(`field.${type}.${name}`);
  return has(`field.${name}`) ? t(`field.${name}`) : name;
}

/** One value a field may take, in words (a choice in a form). */
export function value(name, v, ctx) {
  if (Array.isArray(v)) return loc(v, ctx);
  switch (name) {
    case "penalty_to": return v === "new" ? t("value.penalty_new") : t("value.penalty_empty", { slot: v.slice(6) });
    case "rank": return rankWord(v);
    case "close": return t(v ? "value.close" : "value.no_close");
    case "order_id": return t("value.order", { id: v });
    case "rival": return ctx.name(v);
    default: return t("value.slot", { slot: v });
  }
}

const GROUPS = {
  ChoosePeek: "peek", PeekBottom: "peek", Draw: "draw", SkipTurn: "draw", DiscardDrawn: "drawn", Replace: "drawn",
  Keep: "drawn", Release: "drawn", Play: "play", Pass: "final", CallCorte: "call", CallPedro: "call", Close: "call",
  Declare: "call", SnapOwn: "snap", SnapRival: "snap", Match: "match", MatchRival: "match", MatchGroup: "match",
  PlaceOrder: "orders", CancelOrder: "orders",
};

/** The group of the actions panel an action belongs to (peek, draw, power, snap, ...). */
export function group(a) { return GROUPS[a.type] || "power"; }

/** A sentence whose subject is a seat: the catalog's ".you" form when it is this seat. */
function said(key, seat, ctx, args = {}) {
  const mine = seat === ctx.me && seat !== null && seat !== undefined && has(`${key}.you`);
  return t(mine ? `${key}.you` : key, { who: ctx.who(seat), ...args });
}

// cards seen: codes, [slot, code] or [seat, slot, code]
const seen = (list_, ctx) => list((list_ || []).map((x) => (!Array.isArray(x) ? cardText(x, ctx)
  : t("loc.seen", { card: x.length > 2 ? loc([x[0], x[1]], ctx) : t("value.slot", { slot: x[0] }), face: cardText(x[x.length - 1], ctx) }))));

function word(prefix, v) { return has(`${prefix}.${v}`) ? t(`${prefix}.${v}`) : String(v); }

/** A call's name ("¡Corte!", "Pedro", "fechei", "declare"). */
export function callName(kind) { return word("call", kind); }

/** The explanation of a round's end or a call, from the event's fields, with names. */
export function explain(e, ctx) {
  const d = e.data || {};
  const out = [];
  if (e.type === "CallJudged") out.push(t(`explain.call.${d.outcome === "won" ? "won" : "failed"}`, { who: ctx.name(d.caller), total: d.totals ? d.totals[d.caller] : "?" }));
  if (e.type === "ClaimResolved") return null;
  if (d.caller !== undefined && d.caller !== null && d.call_outcome) out.push(t(`explain.call.${d.call_outcome === "won" ? "won" : "failed"}`, { who: ctx.name(d.caller), total: d.totals ? d.totals[d.caller] : "?" }));
  if (d.closer !== undefined && d.closer !== null && d.close_outcome) out.push(t(`explain.close.${d.close_outcome}`, { who: ctx.name(d.closer) }));
  if (d.declarer !== undefined && d.declarer !== null) out.push(t(`explain.declare.${d.outcome === "success" ? "success" : "false"}`, { who: ctx.name(d.declarer), total: d.declarer_total, lowest: d.lowest_other }));
  if (d.reason && has(`explain.reason.${d.reason}`)) out.push(t(`explain.reason.${d.reason}`));
  if (e.type === "GameEnded" || e.type === "TiebreakRound") {
    const w = (d.winners || d.seats || []).map(ctx.name);
    out.push(e.type === "TiebreakRound" ? t("explain.tiebreak", { names: list(w) })
      : w.length ? t("explain.winners", { names: list(w), count: w.length }) : t("explain.no_winner"));
  }
  return out.join(" ");
}

/** One event in words (the history panel, the replay). */
export function event(e, ctx) {
  const d = e.data || {};
  const seat = d.seat !== undefined ? d.seat : e.actor;
  const s = (key, args) => said(`ev.${key}`, seat, ctx, args);
  switch (e.type) {
    case "GameOpened": return t("ev.GameOpened", { name: d.name || "", count: d.seats });
    case "SeatTaken": return t("ev.SeatTaken", { name: d.name });
    case "SeatReserved": return t("ev.SeatReserved", { name: d.name });
    case "InvitationDeclined": return t("ev.InvitationDeclined", { name: ctx.name(d.seat) });
    case "SeatLeft": return t("ev.SeatLeft", { name: ctx.name(d.seat) });
    case "PlayerResigned": return s("PlayerResigned");
    case "GameStarted": return t("ev.GameStarted");
    case "GameCancelled": return t("ev.GameCancelled");
    case "GameAborted": return t("ev.GameAborted");
    case "GameConcluded": return t("ev.GameConcluded");
    case "RematchOpened": return t("ev.RematchOpened");
    case "RoundDealt": return d.upcard ? t("ev.RoundDealt.up", { round: d.round, card: cardText(d.upcard, ctx) })
      : t("ev.RoundDealt", { round: d.round });
    case "CardsShown": return s("CardsShown", { cards: list((d.cards || []).map((c) => t("loc.seen", { card: t("value.slot", { slot: c[1] }), face: cardText(c[2], ctx) }))) });
    case "PeekChosen": return d.cards ? s("PeekChosen.cards", { slots: slots(d.slots), cards: cards(d.cards, ctx) })
      : s("PeekChosen", { slots: slots(d.slots) });
    case "TurnStarted": return s("TurnStarted");
    case "TurnEnded": return s("TurnEnded");
    case "TurnSkipped": return s("TurnSkipped");
    case "CardDrawn": return s(d.source === "discard" ? "CardDrawn.discard" : "CardDrawn.stock", { card: cardText(d.card, ctx) });
    case "CardDiscarded": return d.power ? s("CardDiscarded.power", { card: cardText(d.card, ctx), rank: rankWord(d.power) })
      : s("CardDiscarded", { card: cardText(d.card, ctx) });
    case "CardReleased": return s("CardDiscarded", { card: cardText(d.card, ctx) });
    case "CardReplaced": return d.card ? s("CardReplaced.card", { slot: d.slot, card: cardText(d.card, ctx) }) : s("CardReplaced", { slot: d.slot });
    case "CardKept": return d.discarded ? s("CardReplaced.card", { slot: d.slot, card: cardText(d.discarded, ctx) }) : s("CardReplaced", { slot: d.slot });
    case "CardsLooked": return s("CardsLooked", { cards: d.cards ? seen((d.targets || []).map((x, i) => [x[0], x[1], d.cards[i]]), ctx)
      : list((d.targets || []).map((x) => loc(x, ctx))) || t("value.nothing") });
    case "CardPeeked": case "CardsPeeked": return d.card || d.cards ? s("CardsPeeked.cards", { cards: d.card ? cardText(d.card, ctx) : seen(d.cards, ctx) })
      : s("CardsPeeked");
    case "CardsSwapped": return s("CardsSwapped", { a: d.a ? loc(d.a, ctx) : t("card.unknown"), b: d.b ? loc(d.b, ctx) : t("card.unknown") });
    case "SwapDeclined": case "KingKept": return s("SwapDeclined");
    case "WindowOpened": return t("ev.WindowOpened", { card: cardText(d.card, ctx) });
    case "WindowClosed": return t("ev.WindowClosed");
    case "WindowWon": return s("WindowWon");
    case "FinalWindowOpened": case "FinalWindowStarted": return t("ev.FinalWindowOpened");
    case "FinalWindowEnded": return t("ev.FinalWindowEnded");
    case "Passed": return s("Passed");
    case "ClaimResolved": return said("ev.ClaimResolved", d.actor, ctx, { outcome: word("outcome", d.outcome) })
      + (d.revealed && d.revealed.some(Boolean) ? ` ${t("ev.shown", { cards: seen(d.revealed.filter(Boolean), ctx) })}` : "");
    case "PenaltyCardDealt": return s("PenaltyCardDealt", { slot: d.slot });
    case "PenaltySkipped": case "DrawSkipped": return s("PenaltySkipped");
    case "CardGiven": return t("ev.CardGiven", { who: ctx.who(d.snapper), to: ctx.who(d.rival) });
    case "CallMade": return s("CallMade", { call: word("call", d.kind) });
    case "CallJudged": case "RoundScored": case "GameEnded": case "TiebreakRound":
      return explain(e, ctx) || t("ev.RoundScored", { round: d.round || "" });
    case "RoundRevealed": return t("ev.RoundRevealed", { round: d.round });
    case "SetPlayed": return d.take === "stock" ? s("SetPlayed.stock", { cards: cards(d.discard, ctx), card: cardText(d.card, ctx) })
      : s("SetPlayed.take", { cards: cards(d.discard, ctx), card: cardText((d.take || "").slice(5), ctx) });
    case "PlayerEliminated": return s("PlayerEliminated", { score: d.score });
    case "OrderPlaced": return s("OrderPlaced", { id: d.order_id });
    case "OrderFired": return t("ev.OrderFired", { id: d.order_id });
    case "OrderCancelled": return t("ev.OrderCancelled", { id: d.order_id });
    case "OrdersRevealed": return t("ev.OrdersRevealed");
    case "PowerStarted": return s("PowerStarted", { rank: rankWord(d.rank) });
    case "PowerSkipped": case "PowerFizzled": return t("ev.PowerSkipped");
    case "StockReshuffled": return t("ev.StockReshuffled");
    case "SecretRevealed": return t("ev.SecretRevealed");
    case "TimeoutApplied": return s("TimeoutApplied");
    case "ClockPaused": return t("ev.ClockPaused", { name: ctx.name(d.seat) });
    case "ClockResumed": return t("ev.ClockResumed", { name: ctx.name(d.seat) });
    default: return t("ev.other", { type: e.type });
  }
}
