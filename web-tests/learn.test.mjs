// Browser tests of "Learn to play" (issue 40): a lesson in French on a
// phone-sized page (a wrong answer shows its reason, the right one its
// stars, kept in the browser), the first lesson of each game in French and
// English, a puzzle solved then one failed (the puzzle rating moves up,
// then down), a guided first game in French and in English (the guide
// names what was played and suggests what to look at, then is switched
// off), and axe-core on the new pages.
//
// Needs a running server at TABULA_URL (scripts/browser-tests.sh starts
// one) and Chromium at CHROMIUM (default /usr/bin/chromium).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

const BASE = process.env.TABULA_URL || 'http://127.0.0.1:8092';
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const AXE = fs.readFileSync(new URL('./node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');

let browser;
before(async () => {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
});
after(async () => { await browser?.close(); });

/** A phone page in `lang`, collecting the page's errors. */
async function phone(lang, address) {
  const context = await browser.newContext({ ...PHONE, locale: lang, extraHTTPHeaders: { 'x-forwarded-for': address } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'warning' && m.text().startsWith('i18n:')) errors.push(m.text()); });
  return { context, page, errors };
}

async function serious(page) {
  await page.evaluate(AXE);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}

/** Play `action` by tapping its piece then its target (the board module says which cells). */
async function tap(page, game, action) {
  const at = await page.evaluate(async ([g, a]) => {
    const { boards } = await import('/js/boards/index.js');
    return boards[g].locate(a);
  }, [game, action]);
  assert.ok(at, `no cells for ${action}`);
  for (const key of [at.from, at.to]) {
    const tab = page.locator(`.level-tabs button[data-level="${key[0]}"]`);
    if (game === 'dragonchess' && await tab.isVisible()) await tab.click();
    await page.locator(`svg.board [data-key="${key}"]`).click();
  }
  // Several actions from the same cell to the same cell (capture paths): the chooser asks which.
  const chooser = page.locator('dialog.chooser[open]');
  if (await chooser.count()) await chooser.locator('button', { hasText: action }).click();
}

const post = async (path, body) => (await fetch(`${BASE}${path}`, {
  method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
})).json();

test('a lesson in French on a phone: a wrong answer says why, the right one earns its stars', async () => {
  const { context, page, errors } = await phone('fr-FR', '10.88.0.1');
  await page.goto(`${BASE}/#/`);
  await page.locator('a[href="#/learn/gildervaik"]').first().click();
  await page.waitForSelector('section.learn.lesson[data-lesson]');
  await page.goto(`${BASE}/#/learn/gildervaik/02-jump`);
  await page.waitForSelector('section.learn[data-lesson="gildervaik/02-jump"] svg.board');
  assert.match(await page.locator('section.learn h1').innerText(), /Sauter par-dessus un pion/);
  // A step instead of the jump: refused, the lesson's own words, in French.
  await tap(page, 'gildervaik', 'e5-e6');
  await page.waitForSelector('.verdict[data-kind="refused"]');
  assert.match(await page.locator('.verdict').innerText(), /Un pas ne fait avancer que d'une case/);
  // The refused step was taken back: the pawn still stands on e5.
  assert.equal(await page.locator('svg.board [data-at="e5"]').count(), 1);
  await tap(page, 'gildervaik', 'e5-f7');
  await page.waitForSelector('.verdict[data-kind="done"]');
  assert.match(await page.locator('.verdict .stars').getAttribute('aria-label'), /3 étoiles sur 3/);
  assert.equal(await page.locator('.verdict .stars').innerText(), '★★★');
  const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('tabula.learn')));
  assert.equal(kept.lessons['gildervaik/02-jump'], 3);
  await page.locator('[data-do="next"]').click();
  await page.waitForSelector('section.learn[data-lesson="gildervaik/03-long-jump"]');
  assert.deepEqual(errors, []);
  await context.close();
});

/** A game's first lesson file (the answers stay on the server; the test reads them from the repository). */
function firstLesson(game) {
  const dir = new URL(`../learn/lessons/${game}/`, import.meta.url);
  const name = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()[0];
  return { id: `${game}/${path.basename(name, '.json')}`, ...JSON.parse(fs.readFileSync(new URL(name, dir), 'utf8')) };
}

for (const [lang, locale] of [['fr', 'fr-FR'], ['en', 'en-GB']]) {
  test(`the first lesson of each game, completed on a phone (${lang})`, async () => {
    const { context, page, errors } = await phone(locale, `10.88.1.${lang === 'fr' ? 1 : 2}`);
    for (const game of ['dragonchess', 'gildervaik', 'phylde', 'stelpur']) {
      const lesson = firstLesson(game);
      await page.goto(`${BASE}/#/learn/${lesson.id}`);
      await page.waitForSelector(`section.learn[data-lesson="${lesson.id}"] svg.board`);
      assert.ok((await page.locator('section.learn h1').innerText()).includes(lesson.title[lang]), game);
      for (const [i, action] of lesson.answer.entries()) {
        await tap(page, game, action);
        await page.waitForSelector(`.verdict[data-kind="${i + 1 < lesson.answer.length ? 'going' : 'done'}"]`);
      }
      assert.equal(await page.locator('.verdict .stars').innerText(), '★★★', game);
      assert.ok((await page.locator('.verdict').innerText()).includes(lesson.success[lang]), game);
    }
    const kept = await page.evaluate(() => Object.keys(JSON.parse(localStorage.getItem('tabula.learn')).lessons).length);
    assert.equal(kept, 4);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('a Dragonchess lesson on a phone: the level tabs reach the Underworld', async () => {
  const { context, page, errors } = await phone('en-GB', '10.88.0.2');
  await page.goto(`${BASE}/#/learn/dragonchess/01-king`);
  await page.waitForSelector('section.learn[data-lesson="dragonchess/01-king"] svg.board');
  await tap(page, 'dragonchess', 'K2f4-1f4');
  await page.waitForSelector('.verdict[data-kind="done"]');
  assert.equal(await page.locator('.verdict .stars').innerText(), '★★★');
  assert.deepEqual(errors, []);
  await context.close();
});

test('puzzles: one solved raises the puzzle rating, one failed lowers it, kept in the browser', async () => {
  const { context, page, errors } = await phone('fr-FR', '10.88.0.3');
  const game = 'gildervaik';
  const rating = async () => page.evaluate((g) => JSON.parse(localStorage.getItem('tabula.learn') || '{}').puzzles?.[g]?.rating?.rating, game);
  await page.goto(`${BASE}/#/puzzles/${game}`);
  await page.waitForSelector('section.learn.puzzle[data-puzzle] svg.board');
  // The solution, from the engine (as a failed attempt reveals it).
  let id = await page.locator('section.learn').getAttribute('data-puzzle');
  const { line } = await post('/api/puzzles/check', { game, id, actions: ['no such move'] });
  for (const action of line) await tap(page, game, action);
  await page.waitForSelector('.verdict[data-kind="done"]');
  assert.match(await page.locator('.verdict').innerText(), /Résolu/);
  const up = await rating();
  assert.ok(up > 1500, `after a solved puzzle: ${up}`);
  await page.locator('[data-do="next"]').click();
  await page.waitForFunction((old) => document.querySelector('section.learn')?.dataset.puzzle !== old, id);
  id = await page.locator('section.learn').getAttribute('data-puzzle');
  const fresh = await post('/api/puzzles/check', { game, id, actions: [] });
  let wrong = null;
  for (const a of fresh.state.legal) {
    if ((await post('/api/puzzles/check', { game, id, actions: [a] })).status === 'failed') { wrong = a; break; }
  }
  assert.ok(wrong, `${id}: no wrong first move`);
  await tap(page, game, wrong);
  await page.waitForSelector('.verdict[data-kind="refused"]');
  assert.match(await page.locator('.verdict').innerText(), /La solution était/);
  const down = await rating();
  assert.ok(down < up, `after a failed puzzle: ${down} (was ${up})`);
  assert.deepEqual(errors, []);
  await context.close();
});

/**
 * A phone whose solver is rated 1900 in `game`, on that game's puzzle page:
 * the puzzle nearest that rating is a win in three. Its id and line too.
 */
async function strongSolver(lang, address, game) {
  const { context, page, errors } = await phone(lang, address);
  await page.goto(`${BASE}/#/learn`);
  await page.waitForSelector('.learn-card');
  await page.evaluate((g) => localStorage.setItem('tabula.learn', JSON.stringify({
    puzzles: { [g]: { rating: { rating: 1900, rd: 60, volatility: 0.06, games: 40 }, done: {} } },
  })), game);
  await page.goto(`${BASE}/#/puzzles/${game}`);
  await page.waitForSelector('section.learn.puzzle[data-puzzle] svg.board');
  const id = await page.locator('section.learn').getAttribute('data-puzzle');
  const { line } = await post('/api/puzzles/check', { game, id, actions: ['no such move'] });
  return { context, page, errors, id, line };
}

test('a Dragonchess mate in 3 on a phone: each right move is answered, then solved', async () => {
  const { context, page, errors, id, line } = await strongSolver('en-GB', '10.88.0.5', 'dragonchess');
  assert.match(await page.locator('.lesson-text').innerText(), /Win in three moves/);
  assert.equal(line.length, 5, id);
  for (const [i, action] of line.entries()) {
    if (i % 2) continue; // the defence: played by the page
    await tap(page, 'dragonchess', action);
    if (i + 1 < line.length) {
      // The move and the defence are on the board; the solver goes on.
      await page.waitForSelector(`section.learn[data-steps="${i + 2}"]`);
      assert.match(await page.locator('.verdict').innerText(), /Now the next move/);
    }
  }
  await page.waitForSelector('.verdict[data-kind="done"]');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a Phylde surround in three actions on a phone in French: the turn goes on, then it is solved', async () => {
  const { context, page, errors, id, line } = await strongSolver('fr-FR', '10.88.0.7', 'phylde');
  assert.match(await page.locator('.lesson-text').innerText(), /Gagnez en trois actions de ce tour/);
  // Every action is the solver's: a surround comes within one turn.
  assert.equal(line.length, 3, id);
  for (const [i, action] of line.entries()) {
    if (action === 'end') await page.locator('.buttons button[data-action="end"]').click();
    else await tap(page, 'phylde', action);
    if (i + 1 < line.length) await page.waitForSelector(`section.learn[data-steps="${i + 1}"]`);
  }
  await page.waitForSelector('.verdict[data-kind="done"]');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a signed-in player finds their stars again in another browser: the server kept them', async () => {
  // A fresh page opens a guest session of its own (POST /api/session): wait
  // for it, or its cookie may land after the account's and replace it.
  const guestSession = (page) => page.waitForResponse((r) => new URL(r.url()).pathname === '/api/session');
  const first = await phone('en-GB', '10.88.2.1');
  const firstGuest = guestSession(first.page);
  await first.page.goto(`${BASE}/#/learn`);
  await first.page.waitForSelector('.learn-card');
  await firstGuest;
  const name = `learner${Date.now() % 100000}`;
  const made = await first.page.evaluate(async (n) => (await fetch('/api/account', {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: n, password: 'a good password' }),
  })).status, name);
  assert.equal(made, 201);
  await first.page.goto(`${BASE}/#/learn/stelpur/01-six`);
  await first.page.waitForSelector('section.learn[data-lesson="stelpur/01-six"] svg.board');
  await tap(first.page, 'stelpur', '6:3x9');
  await first.page.waitForSelector('.verdict[data-kind="done"]');
  await first.context.close();
  // Another browser, nothing in its storage: signed in, it shows the lesson done.
  const second = await phone('en-GB', '10.88.2.2');
  const secondGuest = guestSession(second.page);
  await second.page.goto(`${BASE}/#/`);
  await secondGuest;
  const signed = await second.page.evaluate(async (n) => (await fetch('/api/login', {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: n, password: 'a good password' }),
  })).status, name);
  assert.equal(signed, 200);
  await second.page.goto(`${BASE}/#/learn/stelpur`);
  await second.page.waitForSelector('section.learn .lesson-list');
  assert.equal(await second.page.locator('.lesson-list li:first-child .stars').textContent(), '★★★');
  assert.deepEqual([...first.errors, ...second.errors], []);
  await second.context.close();
});

test('axe-core finds no serious problem on the learn, lesson and puzzle pages', async () => {
  const { context, page } = await phone('en-GB', '10.88.0.4');
  const found = [];
  for (const [hash, ready] of [['#/learn', '.learn-card'], ['#/learn/phylde', 'section.learn svg.board'], ['#/learn/stelpur/03-six-one', 'section.learn svg.board'], ['#/puzzles/dragonchess', 'section.learn svg.board']]) {
    await page.goto(`${BASE}/${hash}`);
    await page.waitForSelector(ready);
    for (const v of await serious(page)) found.push(`${hash} ${v}`);
  }
  assert.deepEqual(found, []);
  await context.close();
});

const SHOTS = process.env.SCREENSHOTS || path.resolve('screenshots');

/** The game on the page: its id from the address, its state from the API. */
async function gameNow(page) {
  const id = (await page.evaluate(() => location.hash)).replace('#/game/', '');
  return { id, ...(await (await fetch(`${BASE}/api/games/${id}`)).json()) };
}

/**
 * Play `moves` turns of mine in the guided game on `page`: each time it is
 * my move, the guide's suggestion is read, then the first legal action
 * is tapped.
 */
async function playGuided(page, game, moves) {
  const looks = [];
  for (let i = 0; i < moves; i++) {
    await page.waitForSelector('section.game[data-turn="mine"] .guide-body[data-look]:not([hidden])', { timeout: 30000 });
    looks.push(await page.locator('.guide-look').innerText());
    const g = await gameNow(page);
    const ply = g.state.ply;
    const action = g.state.legal[0];
    await tap(page, game, action);
    await page.waitForFunction((p) => Number(document.querySelector('section.game')?.dataset.ply) > p, ply);
  }
  return looks;
}

for (const [lang, locale, game, said, look] of [
  ['fr', 'fr-FR', 'dragonchess', /^Vous : [A-Z]/m, /Avant de jouer|Trois plateaux|Mettez de nouvelles|Votre Roi|Vous pouvez prendre|échec/],
  ['en', 'en-GB', 'stelpur', /Dice rolled: \d-\d/, /Your roll gives moves? of \d/],
]) {
  test(`a guided first game of ${game} on a phone (${lang}): the guide names each move, then is switched off`, async () => {
    const { context, page, errors } = await phone(locale, `10.88.3.${lang === 'fr' ? 1 : 2}`);
    await page.goto(`${BASE}/#/learn/${game}`);
    await page.waitForSelector('section.learn .guided button[data-guided]');
    await page.locator('.guided button[data-guided]').first().click();
    await page.waitForSelector('section.game .guide:not([hidden])');
    // A normal game against the gentlest AI.
    const g = await gameNow(page);
    assert.equal(g.state.players[1].kind, 'ai');
    assert.equal(g.state.players[1].level, 'level1');
    const looks = await playGuided(page, game, 3);
    assert.ok(looks.some((l) => look.test(l)), `${game}: ${looks.join(' | ')}`);
    await page.waitForSelector('section.game[data-turn="mine"] .guide-body:not([hidden])', { timeout: 30000 });
    const text = await page.locator('.guide-said').innerText();
    assert.match(text, said);
    // The AI's reply is named too (by its side, not "you"), when it made
    // one: a Stelpur roll may give the AI no move at all.
    const { history } = await gameNow(page);
    const aiMoved = history.slice(history.map((e) => e.actor).lastIndexOf(0) + 1).some((e) => e.actor === 1);
    if (aiMoved) assert.ok(text.split('\n').some((l) => l.length > 0 && !/^(Vous|You|Dés|Dice)/.test(l)), text);
    await page.screenshot({ path: path.join(SHOTS, `guided-${game}-${lang}.png`), fullPage: true });
    assert.deepEqual(await serious(page), []);
    // Switched off: the guide says nothing more, here and after a reload.
    await page.locator('.guide-switch input').click();
    assert.equal(await page.locator('.guide-body').isHidden(), true);
    assert.equal(await page.evaluate(() => localStorage.getItem('tabula.guide.off')), '1');
    await page.reload();
    await page.waitForSelector('section.game .guide:not([hidden])');
    assert.equal(await page.locator('.guide-body').isHidden(), true);
    assert.equal(await page.locator('.guide-switch input').isChecked(), false);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
