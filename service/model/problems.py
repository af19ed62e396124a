"""RFC 9457 problem details: one table of problem types, and :class:`Problem`, the error a
use case raises to refuse a request (no web framework here: ``service.http.problems``
renders it).

Every error the API returns is ``application/problem+json`` with a ``type`` that is a
relative URI, ``/problems/<slug>`` (RFC 9457 §3.1.1 allows a relative reference; it resolves
against the server that answered, so a fork, a proxy or a test server documents its own
problems), and ``title``, ``status``, ``detail``. ``GET /problems/<slug>`` is the page of that
type, rendered from :data:`PROBLEMS`; ``docs/problems.md`` is rendered from the same table.
"""
from __future__ import annotations

from typing import Any, NamedTuple

BASE = "/problems/"


class ProblemType(NamedTuple):
    status: int
    title: str
    when: str  # when the server answers with it
    todo: str  # what the client should do


#: slug -> its status, title, when it happens and what the client should do
PROBLEMS: dict[str, ProblemType] = {
    "bad-request": ProblemType(400, "Malformed request", "A header is malformed: `If-Match` or `If-None-Match` "
                               "that is not an entity tag, an `Idempotency-Key` outside 1-200 printable characters.",
                               "Fix the header named in `detail`; do not retry unchanged."),
    "invalid-json": ProblemType(400, "The body is not valid JSON", "The body is missing or is not JSON.",
                                "Send one JSON document with `Content-Type: application/json`."),
    "unauthorized": ProblemType(401, "Authentication required", "No `Authorization: Bearer <token>` header, or "
                                "a token the server does not know.",
                                "Send the token `POST /v1/players` returned; register again if it was lost."),
    "forbidden": ProblemType(403, "Not allowed", "The caller has no seat in the game (spectators read, never "
                             "send), or asks for another seat's view before that round is over.",
                             "Act only in games where you hold a seat (`your_seat` in the game)."),
    "csrf": ProblemType(403, "The request's CSRF token is missing or wrong", "A request that changes something, "
                        "authenticated by the web client's session cookie, without the session's token in "
                        "`X-CSRF-Token`; or a sign-in posted from another site (its `Origin`).",
                        "Echo the `csrf_token` of `GET /v1/session` (also the `facedown_csrf` cookie) in "
                        "`X-CSRF-Token`; clients with a bearer token need none."),
    "invalid-code": ProblemType(401, "The sign-in code is not valid", "A one-time sign-in code that is "
                                "mistyped, already used or expired (codes live ten minutes).",
                                "Ask a signed-in device for a new code (`POST /v1/session/codes`)."),
    "invalid-token": ProblemType(400, "The verification link is not valid", "`POST /v1/me/email/verify` with "
                                 "a token that is unknown, already used, expired (links last 24 hours), or made "
                                 "for an address that has since been replaced or withdrawn (`detail` says which; "
                                 "it never names an account or an address).",
                                 "Give the address again (`PUT /v1/me/email`) for a new link, or use the newest "
                                 "link."),
    "not-found": ProblemType(404, "Not found", "No game with this id; a part of the path that is not what it "
                             "names (a game id that is not a UUID: `detail` says which part); or no such path.",
                             "Check the id (from `POST /v1/games` or `GET /v1/me/games`) and the path."),
    "method-not-allowed": ProblemType(405, "Method not allowed", "The path exists but not with this method.",
                                      "Use a method listed in the `Allow` header."),
    "not-acceptable": ProblemType(406, "Not acceptable", "The `Accept` header excludes every type this path "
                                  "can answer with.", "Accept `application/json` (and `application/problem+json`)."),
    "request-timeout": ProblemType(408, "The request took too long to arrive", "The headers or the body did not "
                                   "arrive within the server's time limits (10 s each by default).",
                                   "Send the whole request at once; reconnect and retry."),
    "illegal-command": ProblemType(409, "The command is not legal now", "A well-formed command that the rules do "
                                   "not allow at this moment.", "Pick one of the `legal_actions` in the body "
                                   "(your current legal actions), or read the view again."),
    "no-window": ProblemType(409, "There is no open reaction window", "A claim or a pass while no reaction window "
                             "is open.", "Claim only while the view shows a `window`; see `legal_actions`."),
    "stale-window": ProblemType(409, "The reaction window is no longer current", "A claim or a pass names a "
                                "`window_id` that has been replaced or closed.",
                                "Read the view and use the current `window.id`, if a window is still open."),
    "locked": ProblemType(409, "The layout is locked", "The command touches a layout that is locked (the "
                          "caller's, after a call, in some rules).", "Choose cards of a seat whose `locked` is false."),
    "not-your-turn": ProblemType(409, "It is not your turn", "A turn command from a seat that is not awaited.",
                                 "Wait for news (long-poll `/events` or the stream); act when your seat is in "
                                 "`awaiting`."),
    "wrong-phase": ProblemType(409, "Not possible in this phase", "The command belongs to another phase or step "
                               "(say, a draw while holding a card, or any command once the game is over).",
                               "Send one of the `legal_actions` in the body."),
    "conflict": ProblemType(409, "Conflict", "Too many concurrent changes to the game; nothing was appended.",
                            "Retry the same request with the same `Idempotency-Key`."),
    "already-seated": ProblemType(409, "You already have a seat in this game", "A join by a player already "
                                  "seated (`seat` says which).", "Nothing to do: play from that seat."),
    "game-not-open": ProblemType(409, "The game is not open for joining", "A join to a game whose seats are all "
                                 "taken.", "Join another game or create one."),
    "game-not-active": ProblemType(409, "The game is not in play", "A command to a game that is still open or "
                                   "already finished.", "Wait until every seat is taken; a finished game takes "
                                   "no commands (read its `scores`)."),
    "audit-unavailable": ProblemType(409, "Not available for audit yet", "The audit shows finished rounds only, "
                                     "and none has finished.", "Ask again after the first round is scored."),
    "already-resigned": ProblemType(409, "You have resigned from this game", "A resignation from a seat that "
                                    "has resigned already.", "Nothing to do: the server plays that seat now."),
    "creator-cannot-leave": ProblemType(409, "The creator cancels an open game instead of leaving it",
                                        "`POST /leave` by the game's creator.",
                                        "Cancel the game (`DELETE /v1/games/{id}`) if nobody should play it."),
    "already-invited": ProblemType(409, "That player is already invited", "An invitation for a player a seat "
                                   "is already kept for.", "Nothing to do: the seat waits for them."),
    "vote-not-open": ProblemType(409, "No seat may be voted on", "A vote while no other seat has timed out "
                                 "`timeouts_before_vote` turns in a row (each seat's `timeouts_in_row`).",
                                 "Vote once a seat has timed out that often; its player's move clears it."),
    "already-voted": ProblemType(409, "You have cast this vote", "The same vote on the same seat again.",
                                 "Wait for the others' votes (`votes` in the game)."),
    "seat-not-replaced": ProblemType(409, "Your seat is not played by a bot", "`POST /reclaim` from a seat its "
                                     "player still plays (or has resigned).", "Nothing to do: play from it."),
    "seat-not-playing": ProblemType(409, "The server plays this seat", "A command from a seat that resigned or "
                                    "that a bot plays after a vote.", "Take a bot's seat back with `POST "
                                    "/v1/games/{id}/reclaim`; a resigned seat sends nothing more."),
    "game-not-over": ProblemType(409, "The game is not over", "A rematch of a game still open or in play; the "
                                 "proof of a game's place in the log of finished games before it has finished "
                                 "(an aborted or cancelled game never enters that log).",
                                 "Ask for the rematch, or the proof, once the game has finished."),
    "not-a-witness": ProblemType(403, "Not a witness of this server", "A cosignature of the log's checkpoint "
                                 "from a key that is not among the server's witnesses (`FACEDOWN_WITNESS_KEYS`).",
                                 "Ask the server's operator to add your witness key (the `.vkey` file of "
                                 "`facedown witness keygen`)."),
    "checkpoint-mismatch": ProblemType(409, "Not this log's checkpoint", "A cosignature of a checkpoint that is "
                                       "not the one this log signed at that size (another origin, root or size).",
                                       "Cosign the checkpoint of `GET /v1/log/checkpoint`; if the log showed "
                                       "another one of that size before, keep both: the log forked."),
    "tournament-not-open": ProblemType(409, "The tournament is not open", "A join, leave or start of a "
                                       "tournament that has started (or finished, or was cancelled).",
                                       "Read the tournament (`status`); join another one."),
    "tournament-full": ProblemType(409, "The tournament is full", "A join to a tournament with `max_players` "
                                   "players.", "Join another tournament or create one."),
    "not-in-tournament": ProblemType(409, "You are not in this tournament", "A leave by a player who has not "
                                     "joined it.", "Nothing to do."),
    "already-joined": ProblemType(409, "You are in this tournament already", "A join by a player who has "
                                  "joined it.", "Nothing to do: wait for its start."),
    "too-few-players": ProblemType(409, "Too few players to start", "A start of a tournament with fewer "
                                   "players than `seats_per_table`.", "Wait for more players to join."),
    "board-in-play": ProblemType(403, "This board is still in play", "A read of a duplicate tournament's table "
                                 "by anyone but its own seats (its audit by anyone), while other tables of the "
                                 "same board play on: they are dealt the same cards.",
                                 "Ask again when the round is over (`boards[n].seed` in the tournament)."),
    "handle-taken": ProblemType(409, "The handle is taken", "Another player has this handle (in any case).",
                                "Choose another handle."),
    "too-many-tokens": ProblemType(409, "Too many tokens", "A player holds 20 live tokens already.",
                                   "Revoke one (`DELETE /v1/me/tokens/{id}`) first."),
    "already-on-vacation": ProblemType(409, "You are on vacation", "A vacation started while one goes on.",
                                       "End it (`DELETE /v1/me/vacation`) before starting another."),
    "not-on-vacation": ProblemType(409, "You are not on vacation", "`DELETE /v1/me/vacation` with none going on.",
                                   "Nothing to do."),
    "vacation-exhausted": ProblemType(409, "Not enough vacation days are left", "More days than are left of this "
                                      "year's allowance (`remaining_days` in the body).",
                                      "Ask for at most `remaining_days` days."),
    "email-unavailable": ProblemType(409, "This server sends no e-mail", "`PUT /v1/me/email` or `POST "
                                     "/v1/session/email` on a server with no SMTP server configured "
                                     "(`email_sending` false in `GET /v1/me`), whatever the address.",
                                     "Use push notifications, or sign in on another device with a code "
                                     "(`POST /v1/session/codes`); the operator may set `FACEDOWN_SMTP_URL`."),
    "too-many-subscriptions": ProblemType(409, "Too many push subscriptions", "A player has 10 push "
                                          "subscriptions already (one per browser).",
                                          "Remove one (`DELETE /v1/me/push-subscriptions/{id}`) first."),
    "precondition-failed": ProblemType(412, "The game has moved on", "`If-Match` named a version other than the "
                                       "game's (`version` in the body); nothing was appended.",
                                       "Read the view at the new version and decide again."),
    "payload-too-large": ProblemType(413, "The request body is too large", "The body is over 64 KiB.",
                                     "Send a smaller body: no command or request needs more."),
    "unsupported-media-type": ProblemType(415, "Send application/json", "The body is not `application/json`.",
                                          "Send `Content-Type: application/json`."),
    "validation": ProblemType(422, "The request does not validate", "A field is missing, unknown, of the wrong "
                              "type or out of range; `errors` names each field, and a value not among the "
                              "allowed ones gets them listed.", "Fix the fields named in `errors`."),
    "invalid-command": ProblemType(422, "The command is invalid", "The command is malformed or impossible on "
                                   "its face: an unknown type or field, a slot you do not have, an illegal set, a "
                                   "system command (`TurnTimedOut`, `FinalWindowExpired`) sent by a player.",
                                   "Send a command exactly as `legal_actions` lists it (`detail` says what is "
                                   "wrong; the schemas are `<Ruleset>Command` in openapi.yaml)."),
    "invalid-options": ProblemType(422, "The house-rule options are not valid for this game", "An option key is "
                                   "unknown, or a value is not allowed (`errors` says why, with the allowed "
                                   "values).", "Use the keys and values of `GET /v1/rulesets` (each option's "
                                   "`schema`)."),
    "idempotency-key-reused": ProblemType(422, "The Idempotency-Key was used with another request", "The same "
                                          "`Idempotency-Key` came with another body or path.",
                                          "Use a new key for each new request; reuse one only to retry."),
    "rate-limited": ProblemType(429, "Too many requests", "More requests than the server allows this caller.",
                                "Wait the `Retry-After` seconds, then retry (with the same `Idempotency-Key`)."),
    "internal": ProblemType(500, "Internal error", "An unexpected server error (it is logged); never caused by "
                            "bad input.", "Retry later with the same `Idempotency-Key`; report it if it persists."),
    "log-unreadable": ProblemType(500, "This game's log cannot be read", "A stored event of the game does not "
                                  "load: its type or data was changed behind the service, which never writes "
                                  "such an event. The game takes nothing more.", "Report it to the organiser: "
                                  "`GET /v1/games/{id}/audit` names the first event that fails its checks."),
    "unavailable": ProblemType(503, "Service unavailable", "The database does not answer or is not migrated.",
                               "Wait `Retry-After` seconds (or a few), then retry with the same `Idempotency-Key`."),
}


def type_uri(slug: str) -> str:
    return BASE + slug


class Problem(Exception):
    """A refusal, raised by any layer: answered as problem+json ``slug`` with ``detail``, a
    status (the type's, unless given), headers and extra members (``errors``, ``version``...)."""

    def __init__(self, slug: str, detail: str, *, status: int | None = None,
                 headers: dict[str, str] | None = None, **extra: Any) -> None:
        super().__init__(detail)
        self.slug = slug
        self.detail = detail
        self.status = status or PROBLEMS[slug].status
        self.headers = headers or {}
        self.extra = extra
