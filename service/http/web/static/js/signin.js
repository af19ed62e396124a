// Signing in: register (a name, a handle), paste a token, or type a one-time code from a
// device where you are signed in. The session lives in an HttpOnly cookie: this page never
// holds it. The account page issues codes, lists your tokens and signs out.
import { h, clear, toast, say } from "./dom.js";
import * as api from "./api.js";
import { t, when, problem } from "./i18n.js";
import { emailSection, pushSection } from "./reach.js";
import { settingsSection } from "./settings.js";

function field(id, text, attrs = {}) {
  return h("div", { class: "field" }, h("label", { for: id }, text), h("input", { id, name: id, ...attrs }));
}

/**
 * "Keep this token": the registration's token, shown once, in ``slot`` (outside the routed
 * page, so that it stays while the player goes anywhere) until they press Continue.
 */
export function showToken(slot, token) {
  clear(slot).append(h("section", { class: "note keep", "aria-labelledby": "h-keep" },
    h("h2", { id: "h-keep" }, t("token.title")),
    h("p", {}, t("token.text")),
    h("input", { readonly: true, value: token, class: "link", "aria-label": t("token.label"), id: "new-token" }),
    h("button", { type: "button", class: "primary", id: "continue",
      onclick: () => { clear(slot); document.getElementById("main").focus(); } }, t("token.continue"))));
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
      toast(problem(err));
    }
  };
  const register = h("form", { id: "register-form", onsubmit: (ev) => {
    ev.preventDefault();
    const name = ev.target.elements.namedItem("reg-name").value.trim();
    const handle = ev.target.elements.namedItem("reg-handle").value.trim();
    done(api.post("/v1/session/register", handle ? { name, handle } : { name }));
  } },
  field("reg-name", t("signin.name"), { required: true, maxlength: 64, autocomplete: "nickname" }),
  field("reg-handle", t("signin.handle"), { pattern: "[A-Za-z0-9_\\-]{3,24}", maxlength: 24, autocomplete: "username" }),
  h("button", { type: "submit", class: "primary", id: "register" }, t("signin.register")));
  const code = h("form", { id: "code-form", onsubmit: (ev) => {
    ev.preventDefault();
    done(api.post("/v1/session", { code: ev.target.elements.namedItem("signin-code").value }));
  } },
  field("signin-code", t("signin.code"), { required: true, maxlength: 40, autocomplete: "one-time-code" }),
  h("button", { type: "submit", id: "code-signin" }, t("signin.with_code")));
  const token = h("form", { id: "token-form", onsubmit: (ev) => {
    ev.preventDefault();
    done(api.post("/v1/session", { token: ev.target.elements.namedItem("signin-token").value.trim() }));
  } },
  field("signin-token", t("signin.token"), { required: true, maxlength: 200, type: "password", autocomplete: "off" }),
  h("button", { type: "submit", id: "token-signin" }, t("signin.with_token")));
  const mailed = h("p", { id: "signin-email-said", "aria-live": "polite" });
  const byMail = h("form", { id: "email-signin-form", onsubmit: async (ev) => {
    ev.preventDefault();
    mailed.classList.remove("error");
    try {
      await api.post("/v1/session/email", { email: ev.target.elements.namedItem("signin-email").value.trim() });
      mailed.textContent = t("signin.email_sent");
    } catch (err) {
      mailed.classList.add("error");
      mailed.textContent = problem(err);
    }
  } },
  field("signin-email", t("signin.email"), { type: "email", required: true, maxlength: 254, autocomplete: "email" }),
  h("button", { type: "submit", id: "email-signin" }, t("signin.with_email")), mailed);
  clear(main).append(h("div", { class: "signin" },
    h("h1", {}, t("signin.title")),
    h("p", {}, t("signin.intro"), " ", h("a", { href: "#/rules/README" }, t("signin.rules"))),
    h("div", { class: "columns" },
      h("section", { "aria-labelledby": "h-new" }, h("h2", { id: "h-new" }, t("signin.new")), register),
      h("section", { "aria-labelledby": "h-back" }, h("h2", { id: "h-back" }, t("signin.back")), code, token, byMail))));
  return () => {};
}

export function mountAccount(main, session, onSignedOut) {
  const codeOut = h("div", { id: "code-out", "aria-live": "polite" });
  const tokens = h("ul", { id: "tokens" });
  const me = h("p", {});
  const mine = api.get("/v1/me");
  clear(main).append(h("div", { class: "account" }, h("h1", {}, t("account.title")), me,
    emailSection(mine), pushSection(), settingsSection(),
    h("section", { "aria-labelledby": "h-code" }, h("h2", { id: "h-code" }, t("account.device")),
      h("p", {}, t("account.device_text")),
      h("button", { type: "button", id: "issue-code", onclick: async () => {
        try {
          const out = await api.post("/v1/session/codes");
          clear(codeOut).append(h("p", {}, t("account.your_code"), " ", h("strong", { class: "code", id: "the-code", translate: "no" }, out.code),
            " ", t("account.valid_until", { time: when(out.expires_at, { timeStyle: "short" }) })));
          say(t("account.code_said", { code: out.code.split("").join(" ") }));
        } catch (err) { toast(problem(err)); }
      } }, t("account.get_code")), codeOut),
    h("section", { "aria-labelledby": "h-tokens" }, h("h2", { id: "h-tokens" }, t("account.tokens")), tokens),
    h("section", { "aria-labelledby": "h-out" }, h("h2", { id: "h-out" }, t("account.sign_out")),
      h("button", { type: "button", id: "sign-out", onclick: async () => {
        try { await api.del("/v1/session"); onSignedOut(); } catch (err) { toast(problem(err)); }
      } }, t("account.sign_out_here")))));
  mine.then((m) => { me.textContent = t("account.me", { name: m.name, handle: m.handle, days: m.vacation.remaining_days }); })
    .catch((err) => toast(problem(err)));
  const labels = { registration: "account.token.registration", "web session": "account.token.web" };
  api.get("/v1/me/tokens").then((out) => clear(tokens).append(...out.tokens.map((k) => h("li", {},
    t(k.current ? "account.token.current" : "account.token", { label: labels[k.label] ? t(labels[k.label]) : k.label,
      since: when(k.created_at, { dateStyle: "medium" }) })))))
    .catch((err) => toast(problem(err)));
  return () => {};
}
