// The server's JSON API and the seat tokens this browser holds.
import { t, hasKey } from './i18n.js';

/**
 * Codes that only name a status (`conflict`, `forbidden`…): the server's
 * own line says more than their generic words, so it is shown instead.
 */
const STATUS_CODES = new Set(['bad_request', 'unauthorized', 'forbidden', 'not_found', 'method_not_allowed',
  'conflict', 'too_large', 'not_json', 'too_many_requests']);

/**
 * The words for a refusal of the server: its `code` translated (with its
 * `vars`), but the server's own line `said` when the code only names a
 * status (or has no words here). A rules' refusal names its `reason` (a
 * code of the game's, docs/api.md), said here in place of the server's
 * English `detail`.
 */
export function refusalText(code, vars, said) {
  const known = code && hasKey(`errors.${code}`);
  if (!known || (said && STATUS_CODES.has(code))) return said;
  const words = { ...vars };
  if (words.reason && hasKey(`why.${words.reason}`)) words.detail = t(`why.${words.reason}`, words);
  return t(`errors.${code}`, words);
}

/**
 * A refusal of the server as an Error in the user's words, from its body
 * (`{error, code, vars}`): an HTTP answer's, or a live channel's `error`
 * message, which carries the same fields.
 */
export function refusal(data, status) {
  const err = new Error(refusalText(data.code, data.vars, data.error) || String(status));
  return Object.assign(err, { code: data.code, vars: data.vars || {}, status });
}

/** Call the API: GET without a body, else POST (or `method`) with JSON. */
export async function api(path, body, method) {
  const opts = body === undefined && !method ? {} : {
    method: method || 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  };
  const res = await fetch(path, opts);
  const text = await res.text();
  let data;
  try { data = JSON.parse(text); } catch { data = { error: text }; }
  if (!res.ok) {
    const err = refusal(data, res.status);
    if (!err.message) err.message = `${res.status} ${res.statusText}`;
    throw err;
  }
  return data;
}

const KEY = 'tabula.seats';

function allSeats() {
  try { return JSON.parse(localStorage.getItem(KEY)) || {}; } catch { return {}; }
}

/** Seats this browser plays in game `id`: {seat: token}. */
export function mySeats(id) {
  return allSeats()[id]?.mine || {};
}

/** Invite tokens the creator holds for friends: {seat: token}. */
export function invites(id) {
  return allSeats()[id]?.invites || {};
}

export function rememberSeat(id, seat, token, invite = false) {
  const all = allSeats();
  const g = all[id] || (all[id] = { mine: {}, invites: {} });
  if (invite) g.invites[seat] = token; else { g.mine[seat] = token; delete g.invites[seat]; }
  localStorage.setItem(KEY, JSON.stringify(all));
}

export function forgetSeat(id, seat) {
  const all = allSeats();
  if (all[id]) { delete all[id].mine[seat]; localStorage.setItem(KEY, JSON.stringify(all)); }
}

export function knownGames() {
  return Object.keys(allSeats());
}

export function playerName() {
  return localStorage.getItem('tabula.name') || '';
}

export function setPlayerName(name) {
  localStorage.setItem('tabula.name', name);
}

/** Who this browser is: `{username}` when signed in, else a guest. Every
 * browser gets a session (a guest's, in an HttpOnly cookie) so the seats it
 * takes belong to it. */
export async function whoAmI() {
  try {
    return await api('/api/me');
  } catch {
    await api('/api/session', {}).catch(() => {});
    return { username: null };
  }
}
