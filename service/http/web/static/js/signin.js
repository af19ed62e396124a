// Signing in: register (a name, a handle), paste a token, or type a one-time code from a
// device where you are signed in. The session lives in an HttpOnly cookie: this page never
// holds it. The account page issues codes, lists your tokens and signs out.
import { h, clear, toast, say } from "./dom.js";
import * as api from "./api.js";

function field(id, text, attrs = {}) {
  return h("div", { class: "field" }, h("label", { for: id }, text), h("input", { id, name: id, ...attrs }));
}

/**
 * "Keep this token": the registration's token, shown once, in ``slot`` (outside the routed
 * page, so that it stays while the player goes anywhere) until they press Continue.
 */
export function showToken(slot, token) {
  clear(slot).append(h("section", { class: "note keep", "aria-labelledby": "h-keep" },
    h("h2", { id: "h-keep" }, "Keep this token"),
    h("p", {}, "It signs you in anywhere, and lets programs (bots, the SDK) play for you. It is shown once. "
      + "You are signed in already."),
    h("input", { readonly: true, value: token, class: "link", "aria-label": "Your token", id: "new-token" }),
    h("button", { type: "button", class: "primary", id: "continue",
      onclick: () => { clear(slot); document.getElementById("main").focus(); } }, "Continue")));
  slot.hidden = false;
  document.getElementById("new-token").focus();
}

export function hideToken(slot) {
  clear(slot).hidden = true;
}

/** The sign-in page; ``onSignedIn`` gets the new session (with ``token`` after a registration)
 * at once: the session cookie is set from then on, whatever the player does next. */
export function mountSignIn(main, onSignedIn) {
  const done = async (promise) => {
    try {
      onSignedIn(await promise);
    } catch (err) {
      toast(err.message);
    }
  };
  const register = h("form", { id: "register-form", onsubmit: (ev) => {
    ev.preventDefault();
    const name = ev.target.elements.namedItem("reg-name").value.trim();
    const handle = ev.target.elements.namedItem("reg-handle").value.trim();
    done(api.post("/v1/session/register", handle ? { name, handle } : { name }));
  } },
  field("reg-name", "Your name", { required: true, maxlength: 64, autocomplete: "nickname" }),
  field("reg-handle", "Handle (how others invite you; optional)", { pattern: "[A-Za-z0-9_\\-]{3,24}", maxlength: 24, autocomplete: "username" }),
  h("button", { type: "submit", class: "primary", id: "register" }, "Register and play"));
  const code = h("form", { id: "code-form", onsubmit: (ev) => {
    ev.preventDefault();
    done(api.post("/v1/session", { code: ev.target.elements.namedItem("signin-code").value }));
  } },
  field("signin-code", "One-time code (from Account on a signed-in device)", { required: true, maxlength: 40, autocomplete: "one-time-code" }),
  h("button", { type: "submit", id: "code-signin" }, "Sign in with the code"));
  const token = h("form", { id: "token-form", onsubmit: (ev) => {
    ev.preventDefault();
    done(api.post("/v1/session", { token: ev.target.elements.namedItem("signin-token").value.trim() }));
  } },
  field("signin-token", "Or paste a token", { required: true, maxlength: 200, type: "password", autocomplete: "off" }),
  h("button", { type: "submit", id: "token-signin" }, "Sign in with the token"));
  clear(main).append(h("div", { class: "signin" },
    h("h1", {}, "Play facedown"),
    h("p", {}, "Pedro, Least Score, 4 Cartas and Corte, by correspondence: one move at a time, over days."),
    h("div", { class: "columns" },
      h("section", { "aria-labelledby": "h-new" }, h("h2", { id: "h-new" }, "New here"), register),
      h("section", { "aria-labelledby": "h-back" }, h("h2", { id: "h-back" }, "Already playing"), code, token))));
  return () => {};
}

export function mountAccount(main, session, onSignedOut) {
  const codeOut = h("div", { id: "code-out", "aria-live": "polite" });
  const tokens = h("ul", { id: "tokens" });
  const me = h("p", {});
  clear(main).append(h("div", { class: "account" }, h("h1", {}, "Account"), me,
    h("section", { "aria-labelledby": "h-code" }, h("h2", { id: "h-code" }, "Sign in on another device"),
      h("p", {}, "Get a code, then type it on the other device within ten minutes. It works once."),
      h("button", { type: "button", id: "issue-code", onclick: async () => {
        try {
          const out = await api.post("/v1/session/codes");
          clear(codeOut).append(h("p", {}, "Your code: ", h("strong", { class: "code", id: "the-code" }, out.code),
            ` (valid until ${new Date(out.expires_at).toLocaleTimeString()})`));
          say(`Your code is ${out.code.split("").join(" ")}`);
        } catch (err) { toast(err.message); }
      } }, "Get a one-time code"), codeOut),
    h("section", { "aria-labelledby": "h-tokens" }, h("h2", { id: "h-tokens" }, "Your tokens and sessions"), tokens),
    h("section", { "aria-labelledby": "h-out" }, h("h2", { id: "h-out" }, "Sign out"),
      h("button", { type: "button", id: "sign-out", onclick: async () => {
        try { await api.del("/v1/session"); onSignedOut(); } catch (err) { toast(err.message); }
      } }, "Sign out of this browser"))));
  api.get("/v1/me").then((m) => { me.textContent = `${m.name}, handle ${m.handle}. Vacation days left this year: ${m.vacation.remaining_days}.`; })
    .catch((err) => toast(err.message));
  api.get("/v1/me/tokens").then((t) => clear(tokens).append(...t.tokens.map((k) => h("li", {},
    `${k.label}${k.current ? " (this browser)" : ""}, since ${new Date(k.created_at).toLocaleDateString()}`))))
    .catch((err) => toast(err.message));
  return () => {};
}
