// The guide of a guided first game: what it says after a move and what it
// suggests, from the server's facts (history entries and state).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { recent, happened, suggest, words, markGuided, isGuided, guideOn, setGuideOn, TIPS } from '../web/js/guide.js';

const entry = (actor, text, facts = {}) => ({ actor, text, pos: '', capture: false, check: false, mate: false, ...facts });
const keys = (notes) => notes.map((n) => `${n.seat}:${n.key}`);
const player = (seat) => ({ kind: 'player', seat });
const state = (extra) => ({ turn: player(0), legal: [], captures: [], result: null, ...extra });
const me = new Set([0]);

test('it tells from the player\'s own last turn on, with the roll that opened it', () => {
  const h = [entry(null, '6-1'), entry(0, '1:6-7'), entry(0, '6:7-13', { capture: true }),
    entry(null, '2-3'), entry(null, '1-1'), entry(1, '1:14-15'), entry(1, '1:15-16'), entry(null, '6-6')];
  assert.deepEqual(recent(h, me), h);
  const later = [...h, entry(0, '6:1-7'), entry(null, '4-5')];
  assert.deepEqual(recent(later, me), later.slice(7));
  // Before the player's first move: everything the others did.
  assert.deepEqual(recent(h.slice(3, 7), me), h.slice(3, 7));
  assert.deepEqual(recent([], me), []);
});

test('a turn\'s facts are named: capture, check, mate, chain, level, rune corner, empty roll', () => {
  const said = happened('stelpur', [entry(null, '6-1'), entry(0, '1:6-7'), entry(0, '6:7-13', { capture: true }),
    entry(null, '2-3'), entry(null, '1-1'), entry(1, '1:14-15')]);
  assert.deepEqual(keys(said), ['null:roll', '0:moved', '0:took', '0:rune', 'null:rollNothing', 'null:roll', '1:moved']);
  assert.equal(said.find((n) => n.key === 'rune').vars.cells, '7, 13');
  assert.deepEqual(said[1].vars.actions, ['1:6-7', '6:7-13']);

  const chess = happened('dragonchess', [entry(0, 'R3f5x2f4', { capture: true, check: true }), entry(1, 'K2f8-2f7')]);
  assert.deepEqual(keys(chess), ['0:moved', '0:took', '0:level', '0:check', '1:moved']);
  assert.deepEqual(chess[2].vars, { from: 3, to: 2 });
  // A mate is said instead of the check it also is.
  assert.deepEqual(keys(happened('dragonchess', [entry(0, 'W2e2-2e3', { check: true, mate: true })])), ['0:moved', '0:mate']);
  // The same notation in another game is no level change.
  assert.deepEqual(keys(happened('phylde', [entry(0, 'e5xe6', { capture: true })])), ['0:moved', '0:took']);

  const chain = happened('gildervaik', [entry(0, 'd5-f9', { route: ['d5', 'f5', 'f9'] }), entry(1, 'e5xe7xf9', { capture: true }), entry(2, 'e5xe7', { capture: true })]);
  assert.deepEqual(keys(chain), ['0:moved', '0:chain', '1:moved', '1:chain', '1:took', '2:moved', '2:took']);
  assert.equal(chain[1].vars.count, 2);
});

test('it suggests a check to answer first, then captures, compulsory when every action takes', () => {
  const checked = { history: [entry(1, 'R3f5-3f6', { check: true })], state: state({ legal: ['K2f1-2g1', 'K2f1xe2'], captures: ['K2f1xe2'] }) };
  assert.equal(suggest('dragonchess', checked, me).key, 'answerCheck');
  const take = { history: [entry(1, 'W2e7-2e5')], state: state({ legal: ['W2e2-2e3', 'W2d4x2e5'], captures: ['W2d4x2e5'] }) };
  assert.deepEqual(suggest('dragonchess', take, me), { key: 'capture', vars: { count: 1, action: 'W2d4x2e5' } });
  const must = { history: [], state: state({ legal: ['e5xe7', 'e5xe7xf9'], captures: ['e5xe7', 'e5xe7xf9'] }) };
  assert.equal(suggest('gildervaik', must, me).key, 'compulsory');
  const dice = { history: [entry(null, '6-1')], state: state({ legal: ['1:6-7', '6:6-12', '1:5-6'] }) };
  assert.deepEqual(suggest('stelpur', dice, me), { key: 'dice', vars: { dice: '6, 1', count: 2 } });
});

test('otherwise a tip of the game that changes with the player\'s turns; waiting and the end', () => {
  const quiet = (n) => ({ history: Array.from({ length: n }, (_, i) => entry(i % 2, 'a1-a2')), state: state({ legal: ['a1-a2'] }) });
  const tips = [0, 2, 4, 6].map((n) => suggest('phylde', quiet(n), me));
  assert.deepEqual(tips.map((x) => x.key), ['tip', 'tip', 'tip', 'tip']);
  assert.deepEqual(tips.map((x) => x.vars.n), [0, 1, 2, 3]);
  assert.equal(suggest('phylde', { history: [], state: state({ turn: player(1) }) }, me).key, 'wait');
  const over = (winners, draw = false) => ({ history: [], state: state({ turn: { kind: 'over' }, result: { winners, draw } }) });
  assert.equal(suggest('phylde', over([0]), me).key, 'overWon');
  assert.equal(suggest('phylde', over([1]), me).key, 'overLost');
  assert.equal(suggest('phylde', over([0, 1], true), me).key, 'overDraw');
});

test('every key the guide can produce has its words in every language', () => {
  for (const lang of ['en', 'fr']) {
    const table = JSON.parse(fs.readFileSync(new URL(`../web/locales/${lang}.json`, import.meta.url), 'utf8')).guide;
    const has = (group, key) => key in table[group] || `${key}_other` in table[group];
    for (const k of ['roll', 'rollNothing', 'moved', 'chain', 'took', 'level', 'rune', 'check', 'mate']) assert.ok(has('said', k), `${lang} said.${k}`);
    for (const k of ['wait', 'answerCheck', 'compulsory', 'capture', 'dice', 'overWon', 'overLost', 'overDraw']) assert.ok(has('look', k), `${lang} look.${k}`);
    for (const g of ['dragonchess', 'gildervaik', 'phylde', 'stelpur']) {
      assert.equal(Object.keys(table.tips[g]).length, TIPS, `${lang} tips.${g}`);
    }
  }
});

test('words: the player\'s turns are "you", levels by name, the tip by its game', () => {
  const t = (key, vars = {}) => `${key}${Object.keys(vars).length ? JSON.stringify(vars) : ''}`;
  const notes = happened('dragonchess', [entry(0, 'G3d5-2d5'), entry(1, 'K2f8-2f7')]);
  const { said, look } = words('dragonchess', notes, { key: 'tip', vars: { n: 1 } }, {
    t, side: (s) => `side${s}`, level: (n) => `L${n}`, mine: me, describe: (a) => `<${a}>`,
  });
  assert.match(said[0], /^guide\.said\.moved.*"actions":"<G3d5-2d5>".*"side":"guide\.you"/);
  assert.match(said[1], /"from":"L3","to":"L2"/);
  assert.match(said[2], /"side":"side1"/);
  assert.equal(look, 'guide.tips.dragonchess.1');
});

test('guided games and the switch are remembered in the store', () => {
  const map = new Map();
  const store = { getItem: (k) => map.get(k) ?? null, setItem: (k, v) => map.set(k, String(v)), removeItem: (k) => map.delete(k) };
  assert.equal(isGuided('g1', store), false);
  for (let i = 0; i < 30; i++) markGuided(`g${i}`, store);
  assert.equal(isGuided('g29', store), true);
  assert.equal(isGuided('g1', store), false, 'only the latest are kept');
  assert.equal(guideOn(store), true);
  setGuideOn(false, store);
  assert.equal(guideOn(store), false);
  setGuideOn(true, store);
  assert.equal(guideOn(store), true);
  map.set('tabula.guided', 'not json');
  assert.equal(isGuided('g29', store), false);
});
