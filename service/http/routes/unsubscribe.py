"""The List-Unsubscribe link of every e-mail of news (RFC 8058): ``/v1/unsubscribe/{token}``,
the token being the e-mail's own (its outbox row's ``unsubscribe``), no sign-in needed.

``POST`` (a mail client's one click sends ``List-Unsubscribe=One-Click`` form-encoded; the
page's button the same) turns that kind of e-mail off for the player. ``GET`` is a small page
in the player's language saying what the button will turn off, a form and no script (a link
opened from a mail must not turn anything off by itself: mail scanners open links). Neither
names the player or their address: whoever holds the link learns nothing from it.
"""
from __future__ import annotations

import html

from flask import Blueprint, Response, request
from flask.typing import ResponseReturnValue

from service.http.rate_limits import per_address
from service.http.requests import deps, reply
from service.http.schemas import reach as rs
from service.http.web import HEADERS
from service.model.account import LOCALES
from service.model.problems import Problem
from service.usecases import notification_settings
from service.usecases.notification_settings import Unsubscribing

bp = Blueprint("unsubscribe", __name__)
_out = rs.UnsubscribedOut()
_PRIVATE = {"Cache-Control": "private, no-store"}

#: the page's words in each language the service speaks (service/model/account.py LOCALES)
WORDS: dict[str, dict[str, str]] = {
    "en": {"title": "Unsubscribe", "ask": "Stop these e-mails from facedown?", "button": "Turn them off",
           "done": "Done: facedown will not send you these e-mails any more.", "missing": "This link is not valid.",
           "missing_more": "It may be mistyped, or older than the e-mails facedown keeps.",
           "change": "You can change what you receive on your account page, under notifications.",
           "turn": "E-mails that it is your turn (and the daily digest)",
           "reminder": "Reminders before your deadlines", "game_over": "E-mails when a game ends",
           "invited": "E-mails when you are invited to a game",
           "chat": "E-mails when someone writes in a game's table talk"},
    "es": {"title": "Darse de baja", "ask": "¿Dejar de recibir estos correos de facedown?", "button": "Desactivarlos",
           "done": "Hecho: facedown ya no te enviará estos correos.", "missing": "Este enlace no es válido.",
           "missing_more": "Puede estar mal escrito o ser más antiguo que los correos que facedown conserva.",
           "change": "Puedes cambiar lo que recibes en la página de tu cuenta, en notificaciones.",
           "turn": "Correos de que es tu turno (y el resumen diario)",
           "reminder": "Recordatorios antes de tus plazos", "game_over": "Correos cuando termina una partida",
           "invited": "Correos cuando te invitan a una partida",
           "chat": "Correos cuando alguien escribe en la charla de mesa de una partida"},
    "pt-BR": {"title": "Cancelar inscrição", "ask": "Parar de receber estes e-mails do facedown?",
              "button": "Desativar", "done": "Pronto: o facedown não vai mais enviar estes e-mails para você.",
              "missing": "Este link não é válido.",
              "missing_more": "Ele pode estar digitado errado ou ser mais antigo que os e-mails que o facedown guarda.",
              "change": "Você pode mudar o que recebe na página da sua conta, em notificações.",
              "turn": "E-mails avisando que é a sua vez (e o resumo diário)",
              "reminder": "Lembretes antes dos seus prazos", "game_over": "E-mails quando uma partida termina",
              "invited": "E-mails quando você é convidado para uma partida",
              "chat": "E-mails quando alguém escreve na conversa da mesa de uma partida"},
    "pt-PT": {"title": "Cancelar subscrição", "ask": "Deixar de receber estes e-mails do facedown?",
              "button": "Desativar", "done": "Feito: o facedown deixará de lhe enviar estes e-mails.",
              "missing": "Esta ligação não é válida.",
              "missing_more": "Pode estar mal escrita ou ser mais antiga do que os e-mails que o facedown guarda.",
              "change": "Pode mudar o que recebe na página da sua conta, em notificações.",
              "turn": "E-mails a avisar que é a sua vez (e o resumo diário)",
              "reminder": "Lembretes antes dos seus prazos", "game_over": "E-mails quando um jogo termina",
              "invited": "E-mails quando é convidado para um jogo",
              "chat": "E-mails quando alguém escreve na conversa da mesa de um jogo"},
}
#: which line of the page names each kind of e-mail (a digest is about turns)
_KIND_WORD = {"your_turn": "turn", "digest": "turn", "reminder": "reminder", "game_over": "game_over",
              "invited": "invited", "chat": "chat"}


def _language(locale: str | None) -> str:
    """The player's language, else the browser's first one the page speaks, else English."""
    if locale in WORDS:
        return locale
    best = request.accept_languages.best_match(LOCALES)
    return best if best in WORDS else "en"


def _page(locale: str | None, status: int, lead: str, last: str, kind: str | None = None,
          form: bool = False) -> Response:
    """The page in the player's language (:func:`_language`): the words of ``lead``, then the kind
    of e-mail in bold, the button's form (each if asked), then the words of ``last``."""
    lang = _language(locale)
    words = WORDS[lang]

    def say(key: str) -> str:
        return html.escape(words[key])

    body = f"<p>{say(lead)}</p>"
    if kind is not None:
        body += f"<p><strong>{say(_KIND_WORD[kind])}</strong></p>"
    if form:
        body += ('<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click">'
                 f'<button type="submit">{say("button")}</button></form>')
    body += f"<p>{say(last)}</p>"
    doc = (f'<!doctype html><html lang="{lang}"><meta charset="utf-8">'
           '<meta name="viewport" content="width=device-width, initial-scale=1">'
           '<meta name="robots" content="noindex"><link rel="stylesheet" href="/web/app.css">'
           f"<title>{say('title')} - facedown</title><main><h1>{say('title')}</h1>{body}</main></html>")
    resp = Response(doc, status=status, mimetype="text/html")
    for k, v in {**HEADERS, **_PRIVATE}.items():
        resp.headers[k] = v
    return resp


def _missing() -> Response:
    return _page(None, 404, "missing", "missing_more")


def _wants_page() -> bool:
    return request.accept_mimetypes.best_match(["application/json", "text/html"]) == "text/html"


@bp.get("/v1/unsubscribe/<token>")
@per_address
def page(token: str) -> ResponseReturnValue:
    try:
        found = notification_settings.unsubscribing(deps(), token)
    except Problem as exc:
        if exc.slug != "not-found":
            raise
        return _missing()
    return _page(found.locale, 200, "ask", "change", kind=found.kind, form=True)


def _done(found: Unsubscribing) -> Response:
    if _wants_page():
        return _page(found.locale, 200, "done", "change", kind=found.kind)
    return reply(_out, {"kind": found.kind, "turned_off": found.change}, 200, _PRIVATE)


@bp.post("/v1/unsubscribe/<token>")
@per_address
def unsubscribe(token: str) -> ResponseReturnValue:
    """One click (RFC 8058): the body, ``List-Unsubscribe=One-Click`` or nothing, is not read."""
    try:
        found = notification_settings.unsubscribe(deps(), token)
    except Problem as exc:
        if exc.slug != "not-found" or not _wants_page():
            raise
        return _missing()
    return _done(found)
