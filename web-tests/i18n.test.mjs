// Every string key the web app uses exists in the English strings
// (web/locales/en.json), so a missing string fails here rather than
// showing its key to a player. Needs only node (no browser, no server).
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

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../web');
const strings = JSON.parse(fs.readFileSync(path.join(WEB, 'locales/en.json'), 'utf8'));

/** Every key of the nested table, dotted: `app.title`. */
function flatten(node, prefix = '') {
  return Object.entries(node).flatMap(([k, v]) => (typeof v === 'object' ? flatten(v, `${prefix}${k}.`) : [`${prefix}${k}`]));
}
const keys = new Set(flatten(strings));
/** A key exists as is or with plural forms (`key_one`, `key_other`). */
const exists = (key) => keys.has(key) || keys.has(`${key}_other`);

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

test('every t() key used in web/js exists in en.json', () => {
  const missing = [];
  let count = 0;
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    const where = path.relative(WEB, file);
    for (const k of callKeys(text)) {
      count += 1;
      if (k.bad) missing.push(`${where}: a key that is not a literal: ${k.bad}`);
      else if (k.prefix !== undefined && ![...keys].some((x) => x.startsWith(k.prefix))) missing.push(`${where}: no key starts with ${k.prefix}`);
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
