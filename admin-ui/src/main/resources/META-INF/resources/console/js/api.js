// The console's only way to the data: the public HTTP API (shared API.md), authenticated by the
// console session's cookie. Every state-changing request carries the session's CSRF token.

let csrf = null;

/** A problem document (RFC 9457) the API answered, or a network failure. */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
  /** The message the API gave for one input field (`errors[].field`), if any. */
  fieldMessage(field) {
    const e = (this.problem.errors || []).find((x) => x.field === field);
    return e ? e.message : null;
  }
}

/** Who is signed in; remembers the CSRF token. Without a session, goes to the login page. */
export async function session() {
  const r = await fetch('/console/session', { credentials: 'same-origin', headers: { Accept: 'application/json' } });
  if (r.redirected || !r.ok || !(r.headers.get('Content-Type') || '').includes('json')) {
    window.location.assign('/console/login');
    throw new ApiError(401, { title: 'Not signed in' });
  }
  const s = await r.json();
  csrf = s.csrf;
  return s;
}

/**
 * A request to the API. `body` is sent as JSON unless it is a string (sent as text/plain).
 * Answers the Response when `raw` is set, else the parsed JSON (null for 204).
 */
export async function api(method, path, { body, accept = 'application/json', raw = false, signal } = {}) {
  const headers = { Accept: accept };
  if (method !== 'GET' && method !== 'HEAD') {
    headers[csrf.headerName] = csrf.token;
  }
  let payload;
  if (body !== undefined) {
    payload = typeof body === 'string' ? body : JSON.stringify(body);
    headers['Content-Type'] = typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json';
  }
  let r;
  try {
    r = await fetch(path, { method, headers, body: payload, credentials: 'same-origin', signal });
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw new ApiError(0, { title: 'Network error', detail: 'The service did not answer: ' + e.message });
  }
  if (r.status === 401) {
    window.location.assign('/console/login');
  }
  if (!r.ok) {
    let problem;
    try {
      problem = await r.json();
    } catch {
      problem = { title: `HTTP ${r.status}`, detail: r.statusText || `The service answered ${r.status}.` };
    }
    throw new ApiError(r.status, problem);
  }
  if (raw) return r;
  if (r.status === 204) return null;
  return r.json();
}

export const enc = encodeURIComponent;
