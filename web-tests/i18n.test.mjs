// Every string key the web app uses exists in the strings of every
// language (web/locales/<lang>.json), and every language has every key of
// English with the same placeholders, so a missing string fails here rather
// than showing its key (or English) to a player. Every refusal code the
// server sends has its words too. Needs only node (no browser, no server).
//
// Keys are read from `t(...)` calls in web/js and from the `data-i18n`
// and `data-i18n-attr` attributes of the markup. A key must be a string
// literal, a list of them, or a template literal whose fixed start names
// a group of keys (`levels.${id}`): anything else cannot be checked, so
// it fails too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WEB = path.join(ROOT, 'web');
const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));
/** Every language's strings, by code: `{en: {...}, fr: {...}}`. */
const tables = Object.fromEntries(fs.readdirSync(path.join(WEB, 'locales'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => [f.slice(0, -5), readJson(path.join(WEB, 'locales', f))]));
const strings = tables.en;
/**
 * Keys only other languages have: the translations of the server's catalog
 * texts (game titles, sides, option help), whose English is the server's own.
 */
const CATALOG = 'games.';

/** Every key of the nested table, dotted: `app.title`. */
function flatten(node, prefix = '') {
  return Object.entries(node).flatMap(([k, v]) => (typeof v === 'object' ? flatten(v, `${prefix}${k}.`) : [`${prefix}${k}`]));
}
const keys = new Set(flatten(strings));
/** The keys of every language (the catalog texts are only in translations). */
const anyKeys = Object.values(tables).flatMap((table) => flatten(table));
/** A key exists as is or with plural forms (`key_one`, `key_other`). */
const exists = (key) => keys.has(key) || keys.has(`${key}_other`);
const valueAt = (table, key) => key.split('.').reduce((n, p) => (n && typeof n === 'object' ? n[p] : undefined), table);
const placeholders = (text) => [...new Set([...String(text).matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]))].sort();

/**
 * What is wrong between the English strings and the others: a key missing
 * in a language, a key English lacks (outside the catalog texts), a string
 * whose placeholders differ from English's.
 */
export function translationProblems(all) {
  const en = new Set(flatten(all.en));
  const problems = [];
  for (const [lang, table] of Object.entries(all)) {
    if (lang === 'en') continue;
    const own = new Set(flatten(table));
    for (const key of en) {
      if (!own.has(key)) problems.push(`${lang}: no ${key}`);
      else if (placeholders(valueAt(table, key)).join() !== placeholders(valueAt(all.en, key)).join()) {
        problems.push(`${lang}: ${key} names {{${placeholders(valueAt(table, key))}}}, English {{${placeholders(valueAt(all.en, key))}}}`);
      }
    }
    for (const key of own) if (!en.has(key) && !key.startsWith(CATALOG)) problems.push(`${lang}: ${key} is not in en.json`);
  }
  return problems;
}

function sources(dir, ext) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p, ext) : p.endsWith(ext) ? [p] : [];
  });
}

const LITERAL = /^\s*(?:'([^'\\]*)'|"([^"\\]*)"|`([^`\\$]*)(\$\{)?[^`]*`)/;

/** The keys named by the first argument of each `t(` call in `text`. */
export function callKeys(text) {
  const found = []; // {key, prefix} or {bad}
  for (const m of text.matchAll(/(?<![\w.$])t\(/g)) {
    let rest = text.slice(m.index + 2);
    const list = rest.trimStart().startsWith('[');
    if (list) rest = rest.trimStart().slice(1);
    let any = false;
    for (;;) {
      const lit = LITERAL.exec(rest);
      if (!lit) break;
      any = true;
      const key = lit[1] ?? lit[2] ?? lit[3];
      found.push(lit[4] ? { prefix: key } : { key });
      rest = rest.slice(lit[0].length);
      if (!list || !/^\s*,/.test(rest)) break;
      rest = rest.replace(/^\s*,/, '');
    }
    if (!any) found.push({ bad: text.slice(m.index, m.index + 40) });
  }
  return found;
}

function attrKeys(text) {
  const out = [];
  for (const m of text.matchAll(/data-i18n="([^"]+)"/g)) out.push(m[1]);
  for (const m of text.matchAll(/data-i18n-attr="([^"]+)"/g)) {
    for (const pair of m[1].split(';')) out.push(pair.split(':')[1].trim());
  }
  return out;
}

const files = [...sources(path.join(WEB, 'js'), '.js'), path.join(WEB, 'index.html')]
  .filter((f) => !f.endsWith('i18n.js')); // its doc comment shows the syntax

test('every language has every English string, with the same placeholders', () => {
  assert.ok(Object.keys(tables).length > 1, 'only one language');
  assert.deepEqual(translationProblems(tables), []);
});

test('the languages the app offers are the files in /locales', async () => {
  const { LANGUAGES } = await import(path.join(WEB, 'js/i18n.js'));
  assert.deepEqual([...LANGUAGES].sort(), Object.keys(tables).sort());
});

test('the parity check sees a missing key, an extra key and a wrong placeholder', () => {
  const en = { a: { b: 'x {{n}}', c: 'y' } };
  assert.deepEqual(translationProblems({ en, fr: { a: { b: 'x {{m}}' }, z: 'q', games: { t: 'ok' } } }), [
    'fr: a.b names {{m}}, English {{n}}',
    'fr: no a.c',
    'fr: z is not in en.json',
  ]);
});

/**
 * The refusal codes of the server (crates/server/src/error.rs). A few keep
 * the server's own line: their text says more than a code can.
 */
const SERVER_WORDS = new Set(['bad_request', 'forbidden', 'not_found', 'conflict', 'error']);
test('every refusal code of the server has its words', () => {
  const rust = fs.readFileSync(path.join(ROOT, 'crates/server/src/error.rs'), 'utf8');
  const codes = new Set([...rust.matchAll(/(?:=>\s*|return\s*\()"([a-z_]+)"/g)].map((m) => m[1]));
  assert.ok(codes.has('not_your_turn') && codes.has('undo_only_vs_ai') && codes.size > 15, `the scan found ${[...codes]}`);
  const missing = [...codes].filter((c) => !SERVER_WORDS.has(c) && !keys.has(`errors.${c}`));
  assert.deepEqual(missing, []);
});

test('every t() key used in web/js exists in en.json', () => {
  const missing = [];
  let count = 0;
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    const where = path.relative(WEB, file);
    for (const k of callKeys(text)) {
      count += 1;
      if (k.bad) missing.push(`${where}: a key that is not a literal: ${k.bad}`);
      else if (k.prefix !== undefined && !anyKeys.some((x) => x.startsWith(k.prefix))) missing.push(`${where}: no key starts with ${k.prefix}`);
      else if (k.key !== undefined && !exists(k.key)) missing.push(`${where}: ${k.key}`);
    }
    for (const key of attrKeys(text)) {
      count += 1;
      if (!exists(key)) missing.push(`${where}: ${key}`);
    }
  }
  assert.ok(count > 50, `found only ${count} keys: is the scan broken?`);
  assert.deepEqual(missing, []);
});

test('the scan sees literals, lists, key groups and non-literal keys', () => {
  const found = callKeys("t('a.b', { n }) + t([`levels.${id}`, 'levels.other']) + t(x ? 'a' : 'b') + at('no')");
  assert.deepEqual(found.slice(0, 3), [{ key: 'a.b' }, { prefix: 'levels.' }, { key: 'levels.other' }]);
  assert.equal(found.length, 4);
  assert.ok(found[3].bad);
});

test('every string in en.json is text, and its placeholders are well formed', () => {
  for (const key of keys) {
    const value = key.split('.').reduce((n, p) => n[p], strings);
    assert.equal(typeof value, 'string', key);
    const open = (value.match(/\{\{/g) || []).length;
    assert.equal(open, (value.match(/\{\{\s*\w+\s*\}\}/g) || []).length, `${key}: ${value}`);
  }
});
