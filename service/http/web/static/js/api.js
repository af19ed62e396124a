// The API, as the page calls it: same origin, the session cookie, and on every request that
// changes something the session's CSRF token in X-CSRF-Token. Errors are problem+json.

let csrf = null;

export function setCsrf(token) { csrf = token; }

function csrfFromCookie() {
  const found = document.cookie.split("; ").find((c) => c.startsWith("facedown_csrf="));
  return found ? decodeURIComponent(found.slice("facedown_csrf=".length)) : null;
}

export class Problem extends Error {
  constructor(status, body) {
    super((body && (body.detail || body.title)) || `the server answered ${status}`);
    this.status = status;
    this.body = body || {};
  }
}

// A read answered 503 (the service's database away for a moment, as during a restart) or 429
// (too many requests) is asked again after the Retry-After the server sends, up to twice and
// at most 10 s apart: a read is safe to repeat, and a page opened during a restart then loads
// instead of showing an error. Commands are not repeated here.
const READ_RETRIES = 2;
const LONGEST_WAIT_S = 10;

/** The seconds a Retry-After header asks for (delta-seconds; 1 when absent or a date). */
function retryAfter(resp) {
  const s = Number.parseInt(resp.headers.get("Retry-After") || "", 10);
  return Number.isFinite(s) && s >= 0 ? Math.min(s, LONGEST_WAIT_S) : 1;
}

const pause = (seconds) => new Promise((resolve) => { setTimeout(resolve, seconds * 1000); });

export async function call(method, path, body, extraHeaders = {}) {
  for (let tries = 0; ; tries += 1) {
    const { resp, data } = await once(method, path, body, extraHeaders);
    if (method === "GET" && (resp.status === 503 || resp.status === 429) && tries < READ_RETRIES) {
      await pause(retryAfter(resp));
      continue;
    }
    if (resp.status === 204) return null;
    if (!resp.ok) throw new Problem(resp.status, data);
    return data;
  }
}

async function once(method, path, body, extraHeaders) {
  const headers = { Accept: "application/json", ...extraHeaders };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET") {
    const token = csrf || csrfFromCookie();
    if (token) headers["X-CSRF-Token"] = token;
  }
  let resp;
  try {
    resp = await fetch(path, {
      method, headers, credentials: "same-origin", cache: "no-store",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new Problem(0, { detail: "the server cannot be reached (offline?)" });
  }
  const data = resp.status === 204 ? null : await resp.json().catch(() => null);
  return { resp, data };
}

export const get = (path) => call("GET", path);
export const post = (path, body) => call("POST", path, body);
export const del = (path) => call("DELETE", path);

/** Send one command as listed in legal_actions (an idempotency key makes a retry safe). */
export function command(gameId, action) {
  return call("POST", `/v1/games/${gameId}/commands`, action, { "Idempotency-Key": crypto.randomUUID() });
}

/**
 * Follow a Server-Sent Events route (the account's stream, a game's events) with fetch, so
 * that every named event reaches one handler: onMessage({id, event, data}). It resumes
 * after the last id when the server ends the stream; close() stops it.
 */
export function follow(path, onMessage, { after = null, onOpen = null } = {}) {
  let last = after;
  let stopped = false;
  let controller = null;
  async function run() {
    while (!stopped) {
      controller = new AbortController();
      const url = last === null ? path : `${path}${path.includes("?") ? "&" : "?"}after=${last}`;
      try {
        const resp = await fetch(url, { headers: { Accept: "text/event-stream" }, credentials: "same-origin",
          cache: "no-store", signal: controller.signal });
        if (!resp.ok || !resp.body) {
          if (resp.status >= 400 && resp.status < 500 && resp.status !== 429) return;  // not ours to read
          throw new Error(`stream answered ${resp.status}`);
        }
        if (onOpen) onOpen();
        const reader = resp.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let cut;
          while ((cut = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const msg = { id: null, event: "message", data: "" };
            for (const line of block.split("\n")) {
              if (line.startsWith("id:")) msg.id = line.slice(3).trim();
              else if (line.startsWith("event:")) msg.event = line.slice(6).trim();
              else if (line.startsWith("data:")) msg.data += line.slice(5).trim();
            }
            if (msg.id !== null) last = Number(msg.id);
            if (msg.data) {
              let data = null;
              try { data = JSON.parse(msg.data); } catch (err) { data = null; }
              if (data !== null) onMessage({ id: msg.id, event: msg.event, data });
            }
          }
        }
      } catch (err) {
        if (stopped) return;
      }
      if (!stopped) await new Promise((r) => setTimeout(r, 1000));
    }
  }
  run();
  return () => { stopped = true; if (controller) controller.abort(); };
}
