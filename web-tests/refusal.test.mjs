// A refusal reads the same in the user's words whether it came as an HTTP
// answer or as an `error` message of a game's live channel: both carry
// `code` and `vars`, translated by `refusal` of web/js/api.js. The
// messages are docs/api.md's own examples, which the server's tests parse
// into its protocol types. Needs only node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';

const read = (file) => fs.readFileSync(new URL(file, import.meta.url), 'utf8');
const kept = new Map();
globalThis.localStorage = { getItem: (k) => kept.get(k) ?? null, setItem: (k, v) => kept.set(k, String(v)) };
globalThis.document = { documentElement: {} };
globalThis.navigator = { languages: ['fr'] };
globalThis.fetch = async (url) => new Response(read(`../web${url}`), { status: 200 });
const fr = JSON.parse(read('../web/locales/fr.json'));
const { initI18n } = await import('../web/js/i18n.js');
await initI18n('fr');
const { refusal } = await import('../web/js/api.js');

/** The JSON examples of docs/api.md whose comment names `type`. */
function examples(type) {
  const found = [];
  const re = new RegExp(`<!-- type: ${type} -->\\s*\`\`\`json\\n([\\s\\S]*?)\`\`\``, 'g');
  for (const m of read('../docs/api.md').matchAll(re)) found.push(JSON.parse(m[1]));
  return found;
}

const filled = (text, vars) => text.replace(/\{\{(\w+)\}\}/g, (m, k) => vars[k]);

test('a live channel\'s refusal is translated by its code, as an HTTP one is', () => {
  const ws = examples('ServerMessage').find((m) => m.type === 'error');
  const http = examples('ErrorBody')[0];
  assert.ok(ws && http, 'docs/api.md shows both');
  assert.equal(ws.code, http.code, 'the same refusal in both examples');
  const live = refusal(ws, ws.status);
  assert.equal(live.message, filled(fr.errors[ws.code], ws.vars));
  assert.notEqual(live.message, ws.error, 'the user\'s words, not the server\'s English line');
  assert.deepEqual([live.code, live.vars, live.status], [ws.code, ws.vars, 403]);
  assert.equal(refusal(http, 403).message, filled(fr.errors[http.code], http.vars));
});

test('a code that only names a status shows the server\'s own line', () => {
  const said = 'bad message: unknown variant `fly`';
  assert.equal(refusal({ type: 'error', error: said, code: 'bad_request' }, 400).message, said);
});
