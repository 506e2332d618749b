// Browser tests: for every registered game, create a game against the AI
// from the home page and play several moves by clicking, on a desktop and
// a phone viewport, saving screenshots. Also: a friend joins by invite
// link in a second browser and both sides play.
//
// Needs a running server at TABULA_URL (scripts/browser-tests.sh starts
// one) and Chromium at CHROMIUM (default /usr/bin/chromium).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

const BASE = process.env.TABULA_URL || 'http://127.0.0.1:8092';
const SHOTS = process.env.SCREENSHOTS || path.resolve('screenshots');
const MOVES = Number(process.env.MOVES || 4);
const VIEWPORTS = {
  desktop: { viewport: { width: 1280, height: 800 } },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
};

let browser;

before(async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    // playwright-core gives the browser a fresh, empty profile directory.
  });
});

after(async () => {
  await browser?.close();
});

const catalog = await (await fetch(`${BASE}/api/catalog`)).json();

async function newPage(kind) {
  const context = await browser.newContext(VIEWPORTS[kind]);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // A string missing from web/locales/en.json warns (and shows its key).
  page.on('console', (m) => { if (m.type() === 'warning' && m.text().startsWith('i18n:')) errors.push(m.text()); });
  return { context, page, errors };
}

/** Wait until this browser is to move (or the game is over). */
async function myTurn(page) {
  await page.waitForSelector('.game[data-turn="mine"], .game[data-turn="over"]', { timeout: 30000 });
  return page.$eval('.game', (g) => g.dataset.turn);
}

async function ply(page) {
  return Number(await page.$eval('.game', (g) => g.dataset.ply));
}

/** On Dragonchess phones, show the level holding what we look for. */
async function showLevelWith(page, selector, tabClass) {
  if (await page.locator(selector).count()) return;
  const tab = page.locator(`.level-tabs button${tabClass}`).first();
  if (await tab.count()) await tab.click();
}

/** Play one action by clicking: a piece then a target, or a button. */
async function clickMove(page) {
  const before = await ply(page);
  await showLevelWith(page, '.cell.from', '.movable');
  const pieces = page.locator('svg.board .cell.from');
  if (await pieces.count()) {
    await pieces.first().click();
    await page.waitForSelector('svg.board .cell.target, .level-tabs button:has-text("•")');
    if (!(await page.locator('svg.board .cell.target').count())) {
      await page.locator('.level-tabs button', { hasText: '•' }).first().click();
    }
    await page.locator('svg.board .cell.target').first().click();
    const chooser = page.locator('dialog.chooser[open] button[data-i="0"]');
    if (await chooser.count()) await chooser.click();
  } else {
    await page.locator('.buttons button').first().click();
  }
  await page.waitForFunction((b) => Number(document.querySelector('.game').dataset.ply) > b, before);
}

async function startVsAi(page, name) {
  await page.goto(`${BASE}/#/new/${name}`);
  await page.waitForSelector('#start');
  const seats = await page.locator('.seatkind').count();
  for (let i = 1; i < seats; i++) {
    await page.selectOption(`[data-seat="${i}"]`, 'ai');
    await page.selectOption(`[data-level="${i}"]`, 'random');
  }
  await page.click('#start');
  await page.waitForSelector('.game svg.board');
}

test('the home page lists every game with a picture', async () => {
  const { context, page, errors } = await newPage('desktop');
  await page.goto(`${BASE}/`);
  await page.waitForSelector('.card');
  assert.equal(await page.locator('.card').count(), catalog.games.length);
  assert.equal(await page.locator('.card .pic svg').count(), catalog.games.length);
  await page.screenshot({ path: path.join(SHOTS, 'home-desktop.png'), fullPage: true });
  const first = catalog.games[0].name;
  await page.goto(`${BASE}/#/rules/${first}`);
  await page.waitForSelector('article.rules');
  // The players' page links to the full reference, served by the app itself.
  await page.click(`article.rules a[href="#/rules/${first}/reference"]`);
  await page.waitForFunction(() => location.hash.endsWith('/reference') && document.querySelector('article.rules h2'));
  assert.deepEqual(errors, []);
  await context.close();
});

for (const g of catalog.games) {
  for (const kind of Object.keys(VIEWPORTS)) {
    test(`${g.name}: play ${MOVES} moves against the AI by clicking (${kind})`, async () => {
      const { context, page, errors } = await newPage(kind);
      await startVsAi(page, g.name);
      let played = 0;
      while (played < MOVES && (await myTurn(page)) === 'mine') {
        await clickMove(page);
        played += 1;
      }
      await myTurn(page);
      assert.ok(played > 0, 'played at least one move');
      const moves = await page.locator('.moves .act:not(.chance)').count();
      assert.ok(moves >= played, `the move list shows ${moves} moves`);
      // Replay: step back one ply and forward again.
      await page.click('[data-nav="prev"]');
      assert.match(await page.textContent('.plyinfo'), /of/);
      await page.click('[data-nav="last"]');
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: path.join(SHOTS, `${g.name}-${kind}.png`) });
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
}

test('the new-game page builds every option control from its kind, and the spec follows them', async () => {
  const { context, page, errors } = await newPage('desktop');
  for (const g of catalog.games) {
    await page.goto(`${BASE}/#/new/${g.name}`);
    await page.waitForSelector('#start');
    for (const o of g.options) {
      const el = page.locator(`#opt-${o.key}`);
      const [tag, type] = await el.evaluate((e) => [e.tagName.toLowerCase(), e.type]);
      const k = o.kind;
      if (k.type === 'bool') {
        assert.equal(type, 'checkbox', o.key);
        assert.equal(await el.isChecked(), o.default === 'true', o.key);
      } else if (k.type === 'choice') {
        assert.equal(tag, 'select', o.key);
        assert.deepEqual(await el.locator('option').evaluateAll((os) => os.map((x) => x.value)), k.choices, o.key);
        assert.equal(await el.inputValue(), o.default, o.key);
      } else {
        assert.equal(type, 'number', o.key);
        assert.equal(await el.getAttribute('min'), String(k.min), o.key);
        assert.equal(await el.getAttribute('max'), String(k.max), o.key);
        assert.equal(await page.locator(`[data-none="${o.key}"]`).count(), k.type === 'int_or_none' ? 1 : 0, o.key);
      }
    }
  }
  // One option of each kind changed: the game's spec carries them.
  const g = catalog.games.find((x) => ['bool', 'choice', 'int', 'int_or_none'].every((k) => x.options.some((o) => o.kind.type === k)));
  if (g) {
    const pick = (k) => g.options.find((o) => o.kind.type === k);
    await page.goto(`${BASE}/#/new/${g.name}`);
    await page.waitForSelector('#start');
    await page.click('.newgame details summary');
    const flag = pick('bool');
    await page.locator(`#opt-${flag.key}`).setChecked(flag.default !== 'true');
    const choice = pick('choice');
    const other = choice.kind.choices.find((c) => c !== choice.default);
    await page.selectOption(`#opt-${choice.key}`, other);
    const int = pick('int');
    const n = int.kind.min === Number(int.default) ? int.kind.min + 1 : int.kind.min;
    await page.fill(`#opt-${int.key}`, String(n));
    const none = pick('int_or_none');
    await page.locator(`[data-none="${none.key}"]`).setChecked(true);
    assert.ok(await page.locator(`#opt-${none.key}`).isDisabled());
    await page.click('#start');
    await page.waitForSelector('.game svg.board');
    const id = page.url().split('/').pop();
    const spec = (await (await fetch(`${BASE}/api/games/${id}`)).json()).spec;
    for (const want of [`${flag.key}=${flag.default !== 'true'}`, `${choice.key}=${other}`, `${int.key}=${n}`, `${none.key}=none`]) {
      assert.ok(spec.includes(want), `${spec} has ${want}`);
    }
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('check and mate come from the history flags, not from the move text', { skip: !catalog.games.some((x) => x.name === 'dragonchess') }, async () => {
  // Gold's Oliphant gives check along the Ground's top rank: `O2a1-2a8+`.
  const position = '12/12/12/12/12/12/12/12|4k7/12/12/12/12/12/12/O3K7|12/12/12/12/12/12/12/12 g 0 1';
  const post = async (url, body) => (await fetch(`${BASE}${url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
  const created = await post('/api/games', { spec: 'dragonchess', position });
  await post(`/api/games/${created.id}/move`, { token: created.tokens[0].token, action: 'O2a1-2a8' });
  // The page is shown the same move with each setting of the flags.
  for (const [check, mate, text] of [[false, false, null], [true, false, 'Check!'], [true, true, 'Checkmate!']]) {
    const { context, page, errors } = await newPage('desktop');
    await page.routeWebSocket(/\/ws$/, () => {}); // silent: the page keeps the snapshot below
    await page.route(`**/api/games/${created.id}`, async (route) => {
      const response = await route.fetch();
      const view = await response.json();
      assert.match(view.history[0].text, /\+$/);
      Object.assign(view.history[0], { check, mate });
      await route.fulfill({ response, json: view });
    });
    await page.goto(`${BASE}/#/game/${created.id}`);
    await page.waitForSelector('.game[data-ply="1"] svg.board');
    assert.equal(await page.locator('.extra .check').count(), text ? 1 : 0, `check ${check}`);
    if (text) assert.equal(await page.textContent('.extra .check'), text);
    assert.equal(await page.locator('.cell.incheck').count(), check ? 1 : 0, `check ${check}`);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('a special action is a button named by its board module (Phylde: end)', { skip: !catalog.games.some((x) => x.name === 'phylde') }, async () => {
  const post = async (url, body) => (await fetch(`${BASE}${url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
  const created = await post('/api/games', { spec: 'phylde' });
  const view = await (await fetch(`${BASE}/api/games/${created.id}`)).json();
  const token = created.tokens[0].token;
  // One step of a soldier (the front row, rank 5) starts a turn that may end early.
  await post(`/api/games/${created.id}/move`, { token, action: view.state.legal.find((a) => /^[a-r]5-[a-r]6$/.test(a)) });
  const { context, page, errors } = await newPage('desktop');
  await page.goto(`${BASE}/#/game/${created.id}?t=${token}`);
  await page.waitForSelector('.game[data-turn="mine"]');
  assert.equal(await page.textContent('.buttons button[data-action="end"]'), 'End turn');
  await page.click('.buttons button[data-action="end"]');
  await page.waitForSelector('.game[data-ply="2"]');
  assert.deepEqual(errors, []);
  await context.close();
});

test('keyboard, drag, take-back, resign and rematch (desktop)', async () => {
  const g = catalog.games.find((x) => x.name === 'dragonchess') || catalog.games[0];
  const { context, page, errors } = await newPage('desktop');
  await startVsAi(page, g.name);
  assert.equal(await myTurn(page), 'mine');
  // Keyboard: focus a movable piece, Enter, then a target, Enter.
  let before = await ply(page);
  await page.locator('svg.board .cell.from').first().focus();
  await page.keyboard.press('Enter');
  await page.locator('svg.board .cell.target').first().focus();
  await page.keyboard.press('Enter');
  const chooser = page.locator('dialog.chooser[open] button[data-i="0"]');
  if (await chooser.count()) await chooser.click();
  await page.waitForFunction((b) => Number(document.querySelector('.game').dataset.ply) > b, before);
  // Drag a piece onto a target.
  assert.equal(await myTurn(page), 'mine');
  before = await ply(page);
  const from = await page.locator('svg.board .cell.from').last().boundingBox();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  const to = await page.locator('svg.board .cell.target').first().boundingBox();
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 4 });
  await page.mouse.up();
  if (await chooser.count()) await chooser.click();
  await page.waitForFunction((b) => Number(document.querySelector('.game').dataset.ply) > b, before);
  // Take back against the AI: the ply goes down.
  assert.equal(await myTurn(page), 'mine');
  before = await ply(page);
  await page.click('[data-act="undo"]');
  await page.waitForFunction((b) => Number(document.querySelector('.game').dataset.ply) < b, before);
  // Replay with the arrow keys.
  await page.locator('.status').click();
  await page.keyboard.press('ArrowLeft');
  assert.match(await page.textContent('.plyinfo'), /of/);
  await page.keyboard.press('End');
  assert.doesNotMatch(await page.textContent('.plyinfo'), /of/);
  // Resign, then a rematch with the seats turned round.
  const first = page.url();
  page.once('dialog', (d) => d.accept());
  await page.click('[data-act="resign"]');
  await page.waitForSelector('.game[data-turn="over"]');
  assert.match(await page.textContent('.status'), /wins by resignation/);
  await page.click('[data-act="rematch"]');
  await page.waitForFunction((u) => location.href !== u, first);
  await page.waitForSelector('.game svg.board');
  assert.equal(await myTurn(page), 'mine');
  assert.match(await page.textContent('.player.turn'), /you/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a friend joins by invite link and both play', async () => {
  const g = catalog.games.find((x) => x.players === 2) || catalog.games[0];
  const host = await newPage('desktop');
  await host.page.goto(`${BASE}/#/new/${g.name}`);
  await host.page.waitForSelector('#start');
  for (let i = 1; i < g.players; i++) await host.page.selectOption(`[data-seat="${i}"]`, i === 1 ? 'friend' : 'ai');
  await host.page.click('#start');
  await host.page.waitForSelector('.game svg.board');
  const invite = await host.page.locator('.links input').first().inputValue();
  assert.match(invite, /\?t=[0-9a-f]{32}$/);
  const friend = await newPage('phone');
  await friend.page.goto(invite);
  await friend.page.waitForSelector('.game svg.board');
  await host.page.waitForSelector('.player em:has-text("invited")', { state: 'detached' });
  for (let i = 0; i < 4; i++) {
    const mover = (await host.page.$eval('.game', (x) => x.dataset.turn)) === 'mine' ? host.page : friend.page;
    if ((await myTurn(mover)) !== 'mine') break;
    const before = await ply(mover);
    await clickMove(mover);
    const other = mover === host.page ? friend.page : host.page;
    await other.waitForFunction((b) => Number(document.querySelector('.game').dataset.ply) > b, before);
  }
  await friend.page.screenshot({ path: path.join(SHOTS, `friend-${g.name}-phone.png`) });
  assert.deepEqual([...host.errors, ...friend.errors], []);
  await host.context.close();
  await friend.context.close();
});

/** Sign up in this page's browser; back on the lobby. */
async function signUp(page, name) {
  await page.goto(`${BASE}/#/login`);
  await page.fill('#login input[name="username"]', name);
  await page.fill('#login input[name="password"]', 'a good password');
  await page.click('#login button[data-act="signup"]');
  await page.waitForSelector('.lobby');
  await page.waitForSelector(`#me-link:has-text("${name}")`);
}

test('two people meet in the lobby, play and chat; a spectator chats apart', async () => {
  const g = catalog.games.find((x) => x.name === 'dragonchess') || catalog.games.find((x) => x.players === 2);
  const stamp = Date.now().toString(36).slice(-6);
  const ann = await newPage('desktop');
  const bob = await newPage('phone');
  await signUp(ann.page, `ann${stamp}`);
  await signUp(bob.page, `bob${stamp}`);

  // Ann posts a challenge; Bob sees it live and accepts with one tap.
  await ann.page.selectOption('#seek select[name="game"]', g.name);
  await ann.page.click('#seek button[type="submit"]');
  await ann.page.waitForSelector('.seekrow button[data-cancel]');
  const accept = bob.page.locator(`.seekrow:has-text("ann${stamp}") button[data-accept]`);
  await accept.waitFor();
  await accept.click();
  // Both land on the game, each under their own name.
  await bob.page.waitForSelector('.game svg.board');
  await ann.page.waitForSelector('.game svg.board');
  const gameUrl = ann.page.url();
  assert.match(await ann.page.textContent('.players'), new RegExp(`bob${stamp}`));
  for (let i = 0; i < 2; i++) {
    const mover = (await ann.page.$eval('.game', (x) => x.dataset.turn)) === 'mine' ? ann.page : bob.page;
    assert.equal(await myTurn(mover), 'mine');
    const before = await ply(mover);
    await clickMove(mover);
    const other = mover === ann.page ? bob.page : ann.page;
    await other.waitForFunction((b) => Number(document.querySelector('.game').dataset.ply) > b, before);
  }
  // No hints between people.
  assert.equal(await ann.page.locator('button[data-act="hint"]').count(), 0);

  // The players' chat.
  await ann.page.fill('.chat-input', 'good luck!');
  await ann.page.click('.chat-form button[type="submit"]');
  await bob.page.waitForSelector('.chat-line:has-text("good luck!")');

  // A spectator (a guest) reads it and writes in the spectators' chat,
  // which the players do not see during the game.
  const spy = await newPage('desktop');
  await spy.page.goto(gameUrl);
  await spy.page.waitForSelector('.game svg.board');
  await spy.page.waitForSelector('.chat-line:has-text("good luck!")');
  assert.match(await spy.page.textContent('.chat-title'), /Spectators/);
  await spy.page.fill('.chat-input', 'what a move');
  await spy.page.click('.chat-form button[type="submit"]');
  await spy.page.waitForSelector('.chat-line.spectators:has-text("what a move")');
  await ann.page.waitForTimeout(300);
  assert.equal(await ann.page.locator('.chat-line:has-text("what a move")').count(), 0);

  // The game is on both profiles.
  await spy.page.goto(`${BASE}/#/@/bob${stamp}`);
  await spy.page.waitForSelector('.profile');
  assert.match(await spy.page.textContent('.profile'), new RegExp(g.title));
  await spy.page.screenshot({ path: path.join(SHOTS, 'profile-desktop.png') });
  await bob.page.screenshot({ path: path.join(SHOTS, `lobby-game-${g.name}-phone.png`) });
  assert.deepEqual([...ann.errors, ...bob.errors, ...spy.errors], []);
  for (const x of [ann, bob, spy]) await x.context.close();
});
