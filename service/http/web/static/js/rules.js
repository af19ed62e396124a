// The rules pages inside the page (#/rules/<page>/<heading>): docs/rules in the player's
// language, as HTML the server renders from the Markdown (service/web/rules.py: raw HTML
// escaped, links only between rules pages). It is parsed into a separate document and its
// nodes moved here: nothing in it can run (and the page's policy forbids inline script).
import { h, clear, toast } from "./dom.js";
import { t, current, problem, PSEUDO } from "./i18n.js";
import { rulesetTitle } from "./terms.js";

const PAGES = ["README", "pedro", "least-score", "cuatro-cartas", "corte"];

export function mount(main, page, section) {
  const name = PAGES.includes(page) ? page : "README";
  const body = h("article", { class: "rules-text", "aria-busy": "true", id: "rules-text" });
  const nav = h("nav", { class: "rules-nav", "aria-label": t("rules.nav") }, h("ul", {}, PAGES.map((p) => h("li", {},
    h("a", { href: `#/rules/${p}`, "aria-current": p === name ? "page" : null }, p === "README" ? t("rules.index") : rulesetTitle(p))))));
  const root = h("div", { class: "rules" }, nav, body);
  clear(main).append(root);
  let gone = false;
  const locale = current() === PSEUDO ? "en" : current();
  fetch(`/web/rules/${locale}/${name}.html`, { credentials: "same-origin" }).then(async (resp) => {
    if (!resp.ok) throw Object.assign(new Error("rules"), { status: resp.status, body: await resp.json().catch(() => ({})) });
    const doc = new DOMParser().parseFromString(await resp.text(), "text/html");
    if (gone) return;
    body.append(...doc.body.childNodes);
    // tables and code blocks scroll sideways on a narrow screen: reachable by the keyboard too
    for (const el of body.querySelectorAll("table, pre")) el.tabIndex = 0;
    body.setAttribute("aria-busy", "false");
    const target = section ? document.getElementById(`rules-${section}`) : null;
    if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
  }).catch((err) => { toast(problem(err)); body.setAttribute("aria-busy", "false"); });
  return () => { gone = true; };
}
