// The words of a hint's value: a fair share is "even", whatever the number
// of players.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { verdict } from '../web/js/hint.js';

test('a fair share is even with two players and with three', () => {
  assert.equal(verdict(0.5, 2), 'even');
  assert.equal(verdict(0.503, 2), 'even');
  assert.equal(verdict(1 / 3, 3), 'even');
  assert.equal(verdict(0.349, 3), 'even');
  // 0.5 among three is a clear edge, not "50 %, even".
  assert.equal(verdict(0.5, 3), 'slightlyBetter');
});

test('the verdict rises with the value, from losing to winning', () => {
  const order = ['losing', 'worse', 'slightlyWorse', 'even', 'slightlyBetter', 'better', 'winning'];
  for (const players of [2, 3]) {
    let last = 0;
    for (let v = 0; v <= 1.0001; v += 0.01) {
      const k = order.indexOf(verdict(Math.min(v, 1), players));
      assert.ok(k >= last, `${players} players, ${v}: ${order[k]} after ${order[last]}`);
      last = k;
    }
    assert.equal(verdict(0, players), 'losing');
    assert.equal(verdict(1, players), 'winning');
  }
  assert.equal(verdict(0.7, 2), 'better');
  assert.equal(verdict(0.3, 2), 'worse');
  assert.equal(verdict(0.42, 2), 'slightlyWorse');
});
