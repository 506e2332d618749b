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

test('a rules\' refusal is said by its reason in the user\'s words, not the server\'s English detail', () => {
  const rules = examples('ErrorBody').find((b) => b.vars?.reason);
  assert.ok(rules, 'docs/api.md shows a rules\' refusal with its reason');
  const why = filled(fr.why[rules.vars.reason], rules.vars);
  assert.equal(refusal(rules, 422).message, filled(fr.errors[rules.code], { ...rules.vars, detail: why }));
  assert.ok(!refusal(rules, 422).message.includes(rules.vars.detail));
});

test('every reason a game crate gives has its words in every language', () => {
  const crates = new URL('../crates/', import.meta.url);
  const codes = new Set();
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = new URL(e.name + (e.isDirectory() ? '/' : ''), dir);
      if (e.isDirectory()) { if (e.name !== 'target' && e.name !== 'tests') walk(p); } else if (e.name.endsWith('.rs')) {
        for (const m of fs.readFileSync(p, 'utf8').matchAll(/because\(\s*"([a-z_]+)"/g)) codes.add(m[1]);
      }
    }
  };
  walk(crates);
  assert.ok(codes.has('cannot_reach') && codes.has('not_legal') && codes.size > 10, `the scan found ${[...codes]}`);
  const en = JSON.parse(read('../web/locales/en.json'));
  for (const [lang, table] of [['en', en], ['fr', fr]]) {
    assert.deepEqual([...codes].filter((c) => !table.why?.[c]), [], `${lang}: reasons without words`);
  }
});
