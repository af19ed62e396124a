// Commands and events in words, for buttons, the history panel and the replay. What is
// not known here is still said: the type and its fields, never a card the API did not send.

export function context(view, spanish) {
  const names = {};
  for (const s of (view && view.seats) || []) names[s.seat] = s.name || `seat ${s.seat}`;
  const me = view ? view.seat : null;
  const who = (seat) => (seat === null || seat === undefined ? "the server"
    : seat === me ? "you" : (names[seat] || `seat ${seat}`));
  const whose = (seat) => (seat === me ? "your" : `${names[seat] || `seat ${seat}`}'s`);
  return { me, names, who, whose, spanish };
}

const RANKS = { A: "ace", J: "jack", Q: "queen", K: "king", JK: "joker" };
const rankWord = (r) => RANKS[r] || r;
const aRank = (r) => `${/^(ace|8)/.test(rankWord(r)) ? "an" : "a"} ${rankWord(r)}`;

export function cardText(code, ctx) {
  if (!code) return "a face-down card";
  if (code === "JK") return "a joker";
  const rank = code.slice(0, -1), suit = code.slice(-1);
  const suits = ctx && ctx.spanish ? { O: "oros", C: "copas", E: "espadas", B: "bastos" }
    : { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
  return `the ${ctx && ctx.spanish ? rank : rankWord(rank)} of ${suits[suit] || suit}`;
}

const loc = (pair, ctx) => `${ctx.whose(pair[0])} card ${pair[1]}`;
const closing = (a) => (a.close ? ", then close" : "");
const penalty = (p) => (!p || p === "new" ? "" : `, a penalty card into your empty place ${p.slice(6)}`);

/** The words of one legal action (the label of the control that sends it). */
export function action(a, ctx) {
  switch (a.type) {
    case "Draw": return a.source === "discard" ? "Take the top card of the discard pile" : "Draw from the stock";
    case "DiscardDrawn": return `Discard the drawn card${closing(a)}`;
    case "Replace": return `Put the drawn card in place of your card ${a.slot}${closing(a)}`;
    case "Keep": return `Keep the drawn card in place of your card ${a.replace}` +
      (a.also_discard && a.also_discard.length ? `, and throw out ${a.also_discard.join(", ")} too` : "");
    case "Release": return "Discard the drawn card";
    case "ChoosePeek": return `Look at your cards ${a.slots.join(" and ")}`;
    case "PeekBottom": return "Look at your bottom cards";
    case "PeekOwn": return `Look at your card ${a.slot}`;
    case "PeekRival": return `Look at ${ctx.whose(a.player)} card ${a.slot}`;
    case "BlindSwap": return `Swap your card ${a.own_slot} with ${ctx.whose(a.rival)} card ${a.rival_slot}, unseen`;
    case "KingLook": return `Look at your card ${a.own_slot} and ${ctx.whose(a.rival)} card ${a.rival_slot}`;
    case "KingSwap": return "Swap the two cards you looked at";
    case "KingKeep": return "Leave the two cards where they are";
    case "SkipPower": return `Skip the power${closing(a)}`;
    case "UsePower6": return `Look at ${loc(a.target, ctx)}`;
    case "UsePower5": return a.own !== undefined
      ? `Swap your card ${a.own} with ${loc(a.other, ctx)}, unseen`
      : `Swap ${loc(a.a, ctx)} with ${loc(a.b, ctx)}, unseen`;
    case "Look": return a.targets.length ? `Look at ${a.targets.map((t) => loc(t, ctx)).join(" and ")}${closing(a)}`
      : `Look at nothing${closing(a)}`;
    case "Swap": return `Swap ${loc(a.a, ctx)} with ${loc(a.b, ctx)}${closing(a)}`;
    case "NoSwap": return `Do not swap${closing(a)}`;
    case "SnapOwn": return `Snap your card ${a.slot}${penalty(a.penalty_to)}`;
    case "SnapRival": return `Snap ${ctx.whose(a.rival)} card ${a.rival_slot}` +
      (a.give_slot ? `, giving your card ${a.give_slot}` : "") + penalty(a.penalty_to);
    case "Match": return `Match with your card ${a.slot}`;
    case "MatchRival": return `Match with ${ctx.whose(a.rival)} card ${a.rival_slot}, giving your card ${a.give_slot}`;
    case "MatchGroup": return `Match with your cards ${a.slots.join(", ")}`;
    case "Pass": return "Pass on the final window";
    case "CallCorte": return "Call ¡Corte!";
    case "CallPedro": return "Call Pedro";
    case "Close": return "Close (fechei)";
    case "Declare": return "Declare (end the round)";
    case "SkipTurn": return "Skip this turn (no card to draw)";
    case "Play": return `Discard ${a.discard.join(" ")} and ` +
      (a.take === "stock" ? "draw from the stock" : `take ${a.take.slice(5)}`);
    case "PlaceOrder": {
      const what = a.claim === "SnapRival" || a.claim === "MatchRival"
        ? `${ctx.whose(a.rival)} card ${a.rival_slot}` : `your card ${a.slot}`;
      const verb = a.claim.startsWith("Match") ? "match" : "snap";
      return `Standing order: ${verb} ${what} when ${aRank(a.rank)} is discarded${penalty(a.penalty_to)}`;
    }
    case "CancelOrder": return `Cancel standing order ${a.order_id}`;
    default: return generic(a);
  }
}

const FIELDS = {
  slot: "Your card", replace: "In place of your card", also_discard: "Also throw out your cards",
  own: "Your card", own_slot: "Your card", rival_slot: "Their card", give_slot: "Giving your card",
  penalty_to: "A penalty card to", rank: "When this rank is discarded", target: "The card", other: "Their card",
  a: "One card", b: "The other card", targets: "Look at", slots: "Your cards", close: "Then", order_id: "Order",
};

/** What a field of a command is, as a form's label says it. */
export function field(name) { return FIELDS[name] || name.replaceAll("_", " "); }

/** One value a field may take, in words (a choice in a form). */
export function value(name, v, ctx) {
  if (Array.isArray(v)) return loc(v, ctx);
  switch (name) {
    case "penalty_to": return v === "new" ? "a new place" : `your empty place ${v.slice(6)}`;
    case "rank": return aRank(v);
    case "close": return v ? "close (fechei)" : "do not close";
    case "order_id": return `order ${v}`;
    case "rival_slot": case "slot": case "replace": case "own": case "own_slot": case "give_slot": case "also_discard":
    case "slots": return `card ${v}`;
    default: return String(v);
  }
}

function generic(obj) {
  const fields = Object.entries(obj).filter(([k]) => k !== "type")
    .map(([k, v]) => `${k.replaceAll("_", " ")} ${typeof v === "object" ? JSON.stringify(v) : v}`);
  return `${obj.type}${fields.length ? ` (${fields.join(", ")})` : ""}`;
}

const TYPE_GROUPS = {
  ChoosePeek: "Initial peek", Draw: "Draw", DiscardDrawn: "The drawn card", Replace: "The drawn card",
  Keep: "The drawn card", Release: "The drawn card", PeekOwn: "Power", PeekRival: "Power", BlindSwap: "Power",
  KingLook: "Power", KingSwap: "Power", KingKeep: "Power", SkipPower: "Power", UsePower5: "Power",
  UsePower6: "Power", Look: "Power", Swap: "Power", NoSwap: "Power", SnapOwn: "Snap", SnapRival: "Snap",
  Match: "Match", MatchRival: "Match", MatchGroup: "Match", Pass: "Final window", CallCorte: "Call",
  CallPedro: "Call", Close: "Call", Declare: "Call", SkipTurn: "Draw", Play: "Play a set",
  PlaceOrder: "Standing orders", CancelOrder: "Standing orders", PeekBottom: "Initial peek",
};

export function group(a) { return TYPE_GROUPS[a.type] || a.type; }

function seatCards(list, ctx) {
  return (list || []).map((pair) => (Array.isArray(pair) ? `${pair[0]} ${cardText(pair[1], ctx)}` : cardText(pair, ctx)))
    .join(", ");
}

/** One event in words (the history panel, the replay). */
export function event(e, ctx) {
  const d = e.data || {};
  const who = ctx.who(d.seat !== undefined ? d.seat : e.actor);
  const Who = who.charAt(0).toUpperCase() + who.slice(1);
  switch (e.type) {
    case "GameOpened": return `The game "${d.name}" was opened for ${d.seats} players.`;
    case "SeatTaken": return `${d.name} took seat ${d.seat}.`;
    case "GameStarted": return "The game started.";
    case "RoundDealt": return `Round ${d.round} was dealt` + (d.upcard ? `; ${cardText(d.upcard, ctx)} is turned up.` : ".");
    case "CardsShown": return `${Who} saw ${(d.cards || []).map((c) => `card ${c[1]}: ${cardText(c[2], ctx)}`).join(", ")}.`;
    case "PeekChosen": return `${Who} looked at cards ${(d.slots || []).join(" and ")}` +
      (d.cards ? `: ${d.cards.map((c) => cardText(c, ctx)).join(", ")}.` : ".");
    case "TurnStarted": return `${Who} ${who === "you" ? "have" : "has"} the turn.`;
    case "TurnEnded": return `${Who} ended the turn.`;
    case "CardDrawn": return `${Who} drew ${d.card ? cardText(d.card, ctx) : "a card"} from the ${d.source}.`;
    case "CardDiscarded": return `${Who} discarded ${cardText(d.card, ctx)}` +
      (d.power ? `: the power of the ${rankWord(d.power)} fires.` : ".");
    case "CardReplaced": return `${Who} put the drawn card at ${d.slot}` + (d.card ? ` and discarded ${cardText(d.card, ctx)}.` : ".");
    case "CardKept": return `${Who} kept the drawn card at ${d.slot}` + (d.discarded ? `, discarding ${cardText(d.discarded, ctx)}.` : ".");
    case "CardsLooked": return `${Who} looked at ${(d.targets || []).map((t) => loc(t, ctx)).join(" and ") || "nothing"}` +
      (d.cards ? `: ${d.cards.map((c) => cardText(c, ctx)).join(", ")}.` : ".");
    case "CardPeeked": case "CardsPeeked": return `${Who} looked at a card` +
      (d.card ? `: ${cardText(d.card, ctx)}.` : d.cards ? `: ${seatCards(d.cards, ctx)}.` : ".");
    case "CardsSwapped": return `${Who} swapped ${d.a ? loc(d.a, ctx) : ""} with ${d.b ? loc(d.b, ctx) : "another card"}.`;
    case "WindowOpened": return `A window opened on ${cardText(d.card, ctx)}.`;
    case "WindowClosed": return "The window closed.";
    case "WindowWon": return `${Who} won the window.`;
    case "FinalWindowOpened": return "The final window opened: a last chance to snap or match.";
    case "Passed": return `${Who} passed.`;
    case "ClaimResolved": return `${ctx.who(d.actor).replace(/^./, (c) => c.toUpperCase())} claimed (${d.kind}): ${d.outcome}` +
      (d.revealed && d.revealed.length ? `; shown: ${seatCards(d.revealed, ctx)}.` : ".");
    case "PenaltyCardDealt": return `${Who} got a penalty card at ${d.slot}.`;
    case "CardGiven": return `${ctx.who(d.snapper)} gave a card to ${ctx.who(d.rival)}.`;
    case "CallMade": return `${Who} called (${d.kind}).`;
    case "CallJudged": case "RoundScored": case "GameEnded":
      return d.explanation ? d.explanation : `${e.type}: ${d.cumulative ? `scores ${d.cumulative.join(", ")}` : ""}`;
    case "RoundRevealed": return `Round ${d.round}: every card is revealed.`;
    case "SetPlayed": return `${Who} discarded ${(d.discard || []).map((c) => cardText(c, ctx)).join(", ")} and took ` +
      (d.take === "stock" ? (d.card ? cardText(d.card, ctx) : "a card") + " from the stock." : `${d.take.slice(5)}.`);
    case "PlayerEliminated": return `${Who} ${who === "you" ? "are" : "is"} out, with ${d.score} points.`;
    case "OrderPlaced": return `${Who} placed standing order ${d.order_id}` + (d.rank ? ` (on ${aRank(d.rank)}).` : ".");
    case "OrderFired": return `Standing order ${d.order_id} fired.`;
    case "OrderCancelled": return `Standing order ${d.order_id} was cancelled (${d.reason}).`;
    case "OrdersRevealed": return "The round's standing orders are revealed.";
    case "PowerStarted": return `${Who} ${who === "you" ? "use" : "uses"} the power of the ${rankWord(d.rank)}.`;
    case "PowerSkipped": return `The power was skipped (${d.reason}).`;
    case "StockReshuffled": return "The discards were shuffled into a new stock.";
    case "SecretRevealed": return "The server's secret is revealed: the deals can now be verified.";
    case "TimeoutApplied": return `${Who} ran out of time; the rules' automatic move was played.`;
    default: return `${generic({ type: e.type, ...d })}.`;
  }
}
