// The links our e-mails carry: /verify-email?token=T (verify an address) and /signin?code=CODE
// (sign in with a one-time code). The token or code leaves the address bar at once (it must not
// stay in the history, a bookmark or a screenshot), before anything is drawn; it is sent once,
// however often the page routes afterwards.
import { h, clear } from "./dom.js";
import * as api from "./api.js";
import { t, tn, problem } from "./i18n.js";

let verifying = null;  // the answer to POST /v1/me/email/verify, once asked
let signingIn = null;  // the answer to POST /v1/session {code}, until the first route takes it

/** Read (and strip) a link's token or code from the address; call once, before the first route. */
export function take() {
  const query = new URLSearchParams(location.search);
  if (location.pathname === "/verify-email") {
    const token = query.get("token");
    history.replaceState(null, "", "/#/verify-email");
    verifying = token ? api.post("/v1/me/email/verify", { token }) : Promise.reject(new api.Problem(400, { type: "invalid-token" }));
    verifying.catch(() => {});  // read when the page is drawn
  } else if (location.pathname === "/signin") {
    const code = query.get("code");
    history.replaceState(null, "", "/#/");
    if (code) {
      signingIn = api.post("/v1/session", { code });
      signingIn.catch(() => {});
    }
  }
}

/**
 * The session a sign-in link gave (as GET /v1/session answers it), once; null when there was no
 * such link. A refused code is said (a toast) and the page goes on as without one.
 */
export function signIn(toast) {
  if (!signingIn) return null;
  const asked = signingIn;
  signingIn = null;
  return asked.then((out) => ({ ...out, signed_in: true }), (err) => {
    toast(problem(err));
    return api.get("/v1/session");
  });
}

// why a verification link verifies nothing: the problem's detail says it in English words
// (docs/problems.md, invalid-token); the page says it in the player's
const WHY = [["used", "verify.used"], ["expired", "verify.expired"], ["replaced", "verify.replaced"]];

function refused(err) {
  const slug = String((err && err.body && err.body.type) || "").split("/").pop();
  if (slug !== "invalid-token") return problem(err);
  const detail = String(err.body.detail || "");
  const found = WHY.find(([word]) => detail.includes(word));
  return t(found ? found[1] : "verify.invalid");
}

/** The page of a verification link: what became of it, and the way on to the account. */
export function mountVerify(main) {
  const result = h("p", { id: "verify-result", role: "status" }, t("verify.checking"));
  const page = h("div", { class: "verify", "aria-busy": "true" }, h("h1", {}, t("verify.title")), result);
  clear(main).append(page);
  let live = true;
  const asked = verifying || Promise.reject(new api.Problem(400, { type: "invalid-token" }));
  asked.then((out) => {
    if (!live) return;
    page.dataset.verified = "true";
    clear(result).append(...tn("verify.done", { email: h("strong", { translate: "no" }, out.email) }));
  }, (err) => {
    if (!live) return;
    page.dataset.verified = "false";
    result.classList.add("error");
    result.textContent = refused(err);
  }).finally(() => {
    if (!live) return;
    page.setAttribute("aria-busy", "false");
    page.append(h("p", {}, h("a", { href: "#/account", id: "to-account" }, t("verify.to_account"))));
  });
  return () => { live = false; };
}
