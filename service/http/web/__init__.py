"""The web client: a page at ``/`` and its static assets, shipped inside this package.

Plain ES modules under ``static/`` (no build step, nothing fetched from elsewhere), a service
worker at ``/sw.js`` (its scope is the whole site, so it must be served from the root) that
keeps the shell for offline use and shows Web Push notifications; the same page at the paths
our e-mails link to (``/verify-email``, ``/signin``); the catalogs of its words (``static/i18n/``) and the rules
pages in each language (``rules.py``). Every answer carries a Content-Security-Policy that allows
scripts, styles and connections from this origin only: no inline script, no inline style.
"""
from __future__ import annotations

import mimetypes
from pathlib import Path

from flask import Blueprint, Flask, Response, send_from_directory
from flask.typing import ResponseReturnValue

from service.model.problems import Problem
from service.http.web import rules

STATIC = Path(__file__).resolve().parent / "static"
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
       "connect-src 'self'; worker-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")
HEADERS = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin",
           "X-Frame-Options": "DENY"}

bp = Blueprint("web", __name__)
mimetypes.add_type("application/manifest+json", ".webmanifest")
mimetypes.add_type("text/javascript", ".js")  # some systems' tables still say application/javascript


def _secured(resp: Response, cache: str) -> Response:
    for k, v in HEADERS.items():
        resp.headers[k] = v
    resp.headers["Cache-Control"] = cache
    return resp


@bp.get("/")
def index() -> ResponseReturnValue:
    # revalidated at every load: a new version of the client reaches players at once
    return _secured(send_from_directory(STATIC, "index.html", mimetype="text/html"), "no-cache")


@bp.get("/verify-email")
@bp.get("/signin")
def from_an_email() -> ResponseReturnValue:
    """The page, at the paths our e-mails link to (``/verify-email?token=``, ``/signin?code=``):
    the client sends the token or code once and takes it out of the address at once (the
    page's same-origin referrer policy keeps it from other sites meanwhile)."""
    return _secured(send_from_directory(STATIC, "index.html", mimetype="text/html"), "no-store")


@bp.get("/sw.js")
def service_worker() -> ResponseReturnValue:
    return _secured(send_from_directory(STATIC, "sw.js", mimetype="text/javascript"), "no-cache")


@bp.get("/web/<name>")
def asset(name: str) -> ResponseReturnValue:
    """A file of the client (404 problem for anything else)."""
    return _secured(send_from_directory(STATIC, name), "no-cache")


@bp.get("/web/js/<name>")
def module(name: str) -> ResponseReturnValue:
    """One of the client's ES modules."""
    return _secured(send_from_directory(STATIC / "js", name), "no-cache")


@bp.get("/web/i18n/<name>")
def catalog(name: str) -> ResponseReturnValue:
    """A locale's catalog of the client's words (``en.json``, ``es.json``, ``pt-BR.json``, ``pt-PT.json``)."""
    return _secured(send_from_directory(STATIC / "i18n", name, mimetype="application/json"), "no-cache")


@bp.get("/web/rules/<locale>/<page>.html")
def rules_page(locale: str, page: str) -> ResponseReturnValue:
    """A rules page in a locale, as HTML the client puts in its page (service/http/web/rules.py)."""
    try:
        html = rules.render(page, locale)
    except KeyError:
        raise Problem("not-found", f"no rules page {page!r} in {locale!r}") from None
    return _secured(Response(html, mimetype="text/html"), "no-cache")


def register(app: Flask) -> None:
    app.register_blueprint(bp)
