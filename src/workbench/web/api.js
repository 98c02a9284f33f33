// The workbench API (docs/ui.md, "API"): JSON over fetch, with the headers the server requires — the
// client marker (cross-site pages cannot send it), the bearer token when the server has one, and the
// user's name for the audit log.

const TOKEN_KEY = 'lakeqa.token';
const WHO_KEY = 'lakeqa.who';

// A token given in the URL fragment (#token=...) is kept for this tab and removed from the address bar.
(function takeToken() {
  const m = location.hash.match(/(?:^#|&)token=([^&]+)/);
  if (m) {
    sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(m[1]));
    history.replaceState(null, '', location.pathname + '#/explore');
  }
})();

export function who() {
  return localStorage.getItem(WHO_KEY) || '';
}

export function setWho(name) {
  localStorage.setItem(WHO_KEY, name.trim());
}

export class ApiError extends Error {
  constructor(status, body) {
    const e = (body && body.error) || {};
    super(e.message || `HTTP ${status}`);
    this.status = status;
    this.code = e.code || 'error';
    this.body = body || {};
  }
}

export async function api(method, path, body) {
  const headers = { 'X-Lakeqa-Client': 'workbench' };
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token) headers.Authorization = 'Bearer ' + token;
  if (who()) headers['X-Lakeqa-User'] = who();
  const init = { method, headers };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify({ who: who(), ...body });
  }
  const res = await fetch(path, init);
  let json = null;
  try {
    json = await res.json();
  } catch (e) {
    throw new ApiError(res.status, { error: { code: 'parse_error', message: `${method} ${path}: the answer is not JSON` } });
  }
  if (!res.ok) throw new ApiError(res.status, json);
  return json;
}

export const get = (path) => api('GET', path);
export const post = (path, body = {}) => api('POST', path, body);
export const put = (path, body = {}) => api('PUT', path, body);

// "a=1&b=2" from an object; arrays repeat their key; empty values are left out.
export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (Array.isArray(v)) v.forEach((x) => q.append(k, x));
    else if (v !== undefined && v !== null && v !== '') q.append(k, v);
  }
  return q.toString();
}
