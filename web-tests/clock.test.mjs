// The game clocks as the page shows them, without a browser: the offered
// time controls, a smooth count-down between the server's updates that
// never jumps back up within a turn, the server's value at each new turn,
// the low-time warning, and days and hours in correspondence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';

// What the modules use of a browser: a clock we move, storage, the strings.
let now = 0;
globalThis.performance = { now: () => now };
const kept = new Map();
globalThis.localStorage = { getItem: (k) => kept.get(k) ?? null, setItem: (k, v) => kept.set(k, String(v)) };
globalThis.document = { documentElement: {} };
globalThis.navigator = { languages: ['en'] };
const en = fs.readFileSync(new URL('../web/locales/en.json', import.meta.url), 'utf8');
globalThis.fetch = async () => new Response(en, { status: 200 });
const { initI18n } = await import('../web/js/i18n.js');
await initI18n('en');
const { Clocks, PRESETS, DAYS, clockValue, formatMs } = await import('../web/js/clock.js');

test('the time controls offered are the issue\'s, and any value reads as the API wants', () => {
  assert.deepEqual(PRESETS.map(([i, inc]) => `${i / 60}+${inc}`), ['1+0', '3+2', '5+3', '10+5', '15+10', '30+20']);
  assert.deepEqual(DAYS, [1, 2, 3, 5, 7, 14]);
  assert.deepEqual(clockValue('rt:180:2'), { initial_s: 180, increment_s: 2 });
  assert.deepEqual(clockValue('d:2'), { days: 2 });
  assert.equal(clockValue(''), undefined);
});

const info = (remaining, running, control = { initial_s: 180, increment_s: 2 }) => ({ control, remaining_ms: remaining, running, at: 0 });

test('the running clock counts down between updates and never jumps back within a turn', () => {
  const c = new Clocks();
  now = 1000;
  c.update(info([60_000, 50_000], 0));
  now = 1500;
  assert.deepEqual(c.current(), [59_500, 50_000]);
  // A late update of the same turn says more than was shown: not shown.
  now = 2000;
  c.update(info([59_800, 50_000], 0));
  assert.deepEqual(c.current(), [59_000, 50_000]);
  // Later the server's count (59.8 s at 2 s) takes over as it goes lower.
  now = 3000;
  assert.deepEqual(c.current(), [58_800, 50_000]);
  // A new turn: the server's values, increment included; seat 1 runs.
  now = 3100;
  c.update(info([60_800, 50_000], 1));
  now = 3600;
  assert.deepEqual(c.current(), [60_800, 49_500]);
  // Never below zero.
  now = 100_000;
  assert.deepEqual(c.current(), [60_800, 0]);
});

test('low time shows in red for the running seat in real time only; correspondence reads days and hours', () => {
  const c = new Clocks();
  now = 0;
  c.update(info([9_999, 10_000], 0));
  assert.match(c.html(0), /class="clock running low"/);
  assert.doesNotMatch(c.html(1), /low/);
  assert.equal(formatMs(9_500), '9.5');
  assert.equal(formatMs(125_000), '2:05');
  const day = 86_400_000;
  const corr = new Clocks();
  corr.update(info([2 * day - 3_600_000, 1_000], 0, { days: 2 }));
  assert.equal(corr.html(0).match(/>([^<]*)<\/span>/)[1], '1 d 23 h');
  assert.doesNotMatch(corr.html(1), /low/, 'no red in correspondence');
  assert.equal(formatMs(90 * 60_000, true), '1 h 30 min');
});
