// Browser tests: for every registered game, create a game against the AI
// from the home page and play several moves by clicking, on a desktop and
// a phone viewport, saving screenshots. Also: a friend joins by invite
// link in a second browser and both sides play.
//
// Needs a running server at TABULA_URL (scripts/browser-tests.sh starts
// one) and Chromium at CHROMIUM (default /usr/bin/chromium). With
// TABULA_BIN (the `tabula` binary), a test also starts, stops and restarts
// a server of its own; axe-core checks the pages' accessibility.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
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

/** Each browser comes from an address of its own, as people do: the test
 * server trusts `X-Forwarded-For`, so the per-address limits (five sign-ups
 * at once) apply to each browser, not to the whole suite. */
let browsers = 0;

async function newPage(kind, options = {}) {
  browsers += 1;
  const address = `10.77.${browsers >> 8}.${browsers & 255}`;
  const extraHTTPHeaders = { 'x-forwarded-for': address, ...options.extraHTTPHeaders };
  const context = await browser.newContext({ ...VIEWPORTS[kind], ...options, extraHTTPHeaders });
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
  // The board redraws (here: flipped twice, by a click that takes no focus): the focus stays.
  const onKey = await page.evaluate(() => document.activeElement.dataset.key);
  await page.evaluate(() => { for (let i = 0; i < 2; i++) document.querySelector('[data-act="flip"]').click(); });
  assert.equal(await page.evaluate(() => document.activeElement.dataset?.key), onKey);
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

  // Bob mutes the chat: Ann's next line is not shown to him, and the
  // choice holds after a reload; unmuted, the line is there.
  await bob.page.click('.chat-mute');
  assert.equal(await bob.page.getAttribute('.chat-mute', 'aria-pressed'), 'true');
  await ann.page.fill('.chat-input', 'are you there?');
  await ann.page.click('.chat-form button[type="submit"]');
  await ann.page.waitForSelector('.chat-line:has-text("are you there?")');
  await bob.page.reload();
  await bob.page.waitForSelector('.chat-mute[aria-pressed="true"]');
  assert.equal(await bob.page.locator('.chat-line:visible').count(), 0);
  await bob.page.click('.chat-mute');
  await bob.page.waitForSelector('.chat-line:has-text("are you there?")');

  // The game is on both profiles.
  await spy.page.goto(`${BASE}/#/@/bob${stamp}`);
  await spy.page.waitForSelector('.profile');
  assert.match(await spy.page.textContent('.profile'), new RegExp(g.title));
  await spy.page.screenshot({ path: path.join(SHOTS, 'profile-desktop.png') });
  await bob.page.screenshot({ path: path.join(SHOTS, `lobby-game-${g.name}-phone.png`) });
  assert.deepEqual([...ann.errors, ...bob.errors, ...spy.errors], []);
  for (const x of [ann, bob, spy]) await x.context.close();
});

test('a correspondence game awaiting you: listed, counted in the tab title and notified, without a reload', async () => {
  const g = catalog.games.find((x) => x.name === 'dragonchess') || catalog.games.find((x) => x.players === 2);
  const stamp = Date.now().toString(36).slice(-6);
  const ann = await newPage('desktop');
  // Ann allowed notifications and is looking at another tab: count them.
  await ann.context.addInitScript(() => {
    window.notes = [];
    window.Notification = class {
      static permission = 'granted';
      static requestPermission() { return Promise.resolve('granted'); }
      constructor(title, options) { window.notes.push(options.body); }
    };
    Object.defineProperty(document, 'hidden', { get: () => true });
  });
  const bob = await newPage('desktop');
  await signUp(ann.page, `ann${stamp}`);
  await signUp(bob.page, `bob${stamp}`);
  await ann.page.selectOption('#seek select[name="game"]', g.name);
  await ann.page.selectOption('#seek select[name="clock"]', 'd:2');
  await ann.page.click('#seek button[type="submit"]');
  const accept = bob.page.locator(`.seekrow:has-text("ann${stamp}") button[data-accept]`);
  await accept.waitFor();
  await accept.click();
  await bob.page.waitForSelector('.game svg.board');
  await ann.page.waitForSelector('.game svg.board');
  // Time left per move in days and hours.
  assert.match(await ann.page.locator('.clock[data-seat="0"]').textContent(), /^2 d 0 h$/);
  assert.equal(await myTurn(ann.page), 'mine');
  await clickMove(ann.page);
  // Ann waits on the home page; Bob answers a while later.
  await ann.page.goto(`${BASE}/#/`);
  await ann.page.waitForSelector('.card');
  await ann.page.waitForFunction(() => document.title && !document.title.startsWith('('));
  await ann.page.evaluate(() => { window.notes = []; });
  assert.equal(await myTurn(bob.page), 'mine');
  await clickMove(bob.page);
  await ann.page.waitForSelector('#yourturn .gamerow', { timeout: 30000 });
  assert.match(await ann.page.title(), /^\(1\) /);
  assert.equal((await ann.page.evaluate(() => window.notes)).length, 1);
  // Her own profile lists it too; Bob's has no such list for her.
  await ann.page.goto(`${BASE}/#/@/ann${stamp}`);
  await ann.page.waitForSelector('.profile #yourturn .gamerow');
  await bob.page.goto(`${BASE}/#/@/ann${stamp}`);
  await bob.page.waitForSelector('.profile');
  assert.equal(await bob.page.locator('#yourturn .gamerow').count(), 0);
  assert.deepEqual([...ann.errors, ...bob.errors], []);
  for (const x of [ann, bob]) await x.context.close();
});

// ------------------------------------------------------------------ at a glance

const post = async (url, body) => (await fetch(`${BASE}${url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
const fr = JSON.parse(fs.readFileSync(new URL('../web/locales/fr.json', import.meta.url), 'utf8'));
const en = JSON.parse(fs.readFileSync(new URL('../web/locales/en.json', import.meta.url), 'utf8'));
const has = (name) => catalog.games.some((x) => x.name === name);

/** A page of a browser set to French (`navigator.languages` = fr-FR). */
async function frenchPage(kind = 'desktop') {
  const context = await browser.newContext({ ...VIEWPORTS[kind], locale: 'fr-FR' });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'warning' && m.text().startsWith('i18n:')) errors.push(m.text()); });
  return { context, page, errors };
}

for (const kind of Object.keys(VIEWPORTS)) test(`a French browser gets the French UI and rules, and the switch goes back to English (${kind})`, async () => {
  const { context, page, errors } = await frenchPage(kind);
  await page.goto(`${BASE}/`);
  await page.waitForSelector('.card');
  assert.equal(await page.getAttribute('html', 'lang'), 'fr');
  assert.equal(await page.textContent('.top nav a'), 'Jeux');
  assert.equal(await page.textContent('.intro h1'), 'Jouer');
  if (has('dragonchess')) assert.ok((await page.locator('.card h2').allTextContents()).includes('Échecs draconiques'));
  await page.screenshot({ path: path.join(SHOTS, `home-fr-${kind}.png`), fullPage: true });
  const g = catalog.games[0].name;
  await page.goto(`${BASE}/#/rules/${g}`);
  await page.waitForSelector('article.rules h1');
  assert.match(await page.textContent('article.rules h1'), /règles pour les joueurs/);
  // A game against the AI: the status and the controls speak French.
  await startVsAi(page, g);
  assert.equal(await myTurn(page), 'mine');
  assert.match(await page.textContent('.status'), /^À vous de jouer/);
  assert.equal(await page.textContent('[data-act="flip"]'), 'Retourner');
  await page.screenshot({ path: path.join(SHOTS, `${g}-fr-${kind}.png`) });
  await page.selectOption('#lang-switch', 'en');
  await page.waitForFunction(() => document.documentElement.lang === 'en' && document.querySelector('.status')?.textContent.startsWith('Your move'));
  assert.equal(await page.textContent('.top nav a'), 'Games');
  assert.deepEqual(errors, []);
  await context.close();
});

/** Join the tournament whose page is open; say why not if refused. */
async function join(page) {
  await page.click('button[data-act="join"]');
  await page.waitForSelector('button[data-act="withdraw"]', { timeout: 10000 }).catch(async (e) => {
    throw new Error(`${e.message}; toast: ${await page.textContent('#toast')}; url: ${page.url()}; page: ${(await page.textContent('main')).slice(0, 300)}`);
  });
}

test('a Swiss tournament: created from the form, joined from two browsers, its games start by themselves', async () => {
  const g = catalog.games.find((x) => x.name === 'dragonchess') || catalog.games.find((x) => x.players === 2);
  const stamp = Date.now().toString(36).slice(-6);
  const ann = await newPage('desktop');
  const bob = await newPage('phone');
  await signUp(ann.page, `tann${stamp}`);
  await signUp(bob.page, `tbob${stamp}`);
  await ann.page.click('a[href="#/tournaments"]');
  await ann.page.fill('#newtourney input[name="name"]', `Cup ${stamp}`);
  await ann.page.selectOption('#newtourney select[name="game"]', g.name);
  await ann.page.selectOption('#newtourney select[name="format"]', 'swiss');
  await ann.page.fill('#newtourney input[name="start"]', '0');
  await ann.page.fill('#newtourney input[name="rounds"]', '2');
  await ann.page.check('#newtourney input[name="bots"]');
  await ann.page.click('#newtourney button[type="submit"]');
  // Her tournament's page says bots may play; she joins; it waits for a second player.
  await ann.page.waitForSelector('.tournament p:has-text("bots welcome")');
  await join(ann.page);
  await bob.page.goto(`${BASE}/#/tournaments`);
  await bob.page.click(`a.gamerow:has-text("Cup ${stamp}")`);
  await join(bob.page);
  // Round 1 is paired at once; each finds a link to his game on the page.
  for (const who of [ann, bob]) {
    await who.page.waitForSelector('.yourgame a', { timeout: 15000 });
    assert.equal(await who.page.locator('table.standings tbody tr').count(), 2);
  }
  await bob.page.screenshot({ path: path.join(SHOTS, 'tournament-phone.png'), fullPage: true });
  await ann.page.screenshot({ path: path.join(SHOTS, 'tournament-desktop.png'), fullPage: true });
  await bob.page.click('.yourgame a');
  await bob.page.waitForSelector('.game svg.board');
  assert.match(await bob.page.textContent('.players'), new RegExp(`tann${stamp}`));
  assert.deepEqual([...ann.errors, ...bob.errors], []);
  await ann.context.close();
  await bob.context.close();
});

test('a refused move is explained near the board, in the user\'s language', async () => {
  const g = catalog.games.find((x) => x.players === 2 && !x.game_type.chance) || catalog.games[0];
  const created = await post('/api/games', { spec: g.name });
  const token = created.tokens[0].token;
  const { context, page, errors } = await frenchPage();
  // The page never hears of the move made elsewhere below: it still offers its moves.
  await page.routeWebSocket(/\/ws$/, () => {});
  await page.goto(`${BASE}/#/game/${created.id}?t=${token}`);
  await page.waitForSelector('.game[data-turn="mine"]');
  const view = await (await fetch(`${BASE}/api/games/${created.id}`)).json();
  await post(`/api/games/${created.id}/move`, { token, action: view.state.legal[0] });
  const refused = page.waitForResponse((r) => r.url().endsWith('/move') && r.status() >= 400);
  await clickMove(page).catch(() => {}); // the ply never grows
  const body = await (await refused).json();
  assert.ok(body.code && fr.errors[body.code], `a known code: ${JSON.stringify(body)}`);
  const box = page.locator('.board-area .refusal');
  await box.waitFor();
  const side = fr.games[g.name]?.sides?.[body.vars?.side] ?? body.vars?.side;
  const want = fr.errors[body.code].replace(/\{\{(\w+)\}\}/g, (m, k) => (k === 'side' ? side : body.vars[k]));
  assert.equal(await box.textContent(), want);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a spectator sees a banner, no move box and no player controls', async () => {
  const g = catalog.games.find((x) => x.players === 2) || catalog.games[0];
  const created = await post('/api/games', { spec: g.name });
  for (const kind of Object.keys(VIEWPORTS)) {
    const { context, page, errors } = await newPage(kind);
    await page.goto(`${BASE}/#/game/${created.id}`);
    await page.waitForSelector('.game svg.board');
    assert.equal(await page.textContent('.banner.watching'), 'You are watching this game.');
    assert.ok(await page.locator('.banner.watching').isVisible());
    assert.ok(!(await page.locator('.typemove').isVisible()), 'no move box');
    assert.deepEqual(await page.locator('.controls button').evaluateAll((bs) => bs.map((b) => b.dataset.act).filter((a) => a !== 'zoom')), ['flip']);
    await page.screenshot({ path: path.join(SHOTS, `spectator-${kind}.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  }
  // A player's own page has no banner, and no Undo in a game between people.
  const { context, page } = await newPage('desktop');
  await page.goto(`${BASE}/#/game/${created.id}?t=${created.tokens[0].token}`);
  await page.waitForSelector('.game[data-turn="mine"]');
  assert.ok(!(await page.locator('.banner.watching').isVisible()));
  assert.ok(await page.locator('.typemove').isVisible());
  await clickMove(page);
  assert.equal(await page.locator('[data-act="undo"]').count(), 0, 'no Undo against a person');
  assert.ok(!(await page.locator('.typemove').isVisible()), 'no move box on the other side\'s turn');
  await context.close();
});

test('the whole last Phylde turn is highlighted, each row named by its player', { skip: !has('phylde') }, async () => {
  const created = await post('/api/games', { spec: 'phylde' });
  const token = created.tokens[0].token;
  const played = [];
  for (let i = 0; i < 3; i++) {
    const view = await (await fetch(`${BASE}/api/games/${created.id}`)).json();
    const action = view.state.legal.find((a) => /^[a-r]5-[a-r]6$/.test(a));
    await post(`/api/games/${created.id}/move`, { token, action });
    played.push(action);
  }
  await post(`/api/games/${created.id}/move`, { token, action: 'end' });
  for (const kind of Object.keys(VIEWPORTS)) {
    const { context, page, errors } = await newPage(kind);
    await page.goto(`${BASE}/#/game/${created.id}`);
    await page.waitForSelector('.game[data-ply="4"] svg.board');
    assert.deepEqual(await page.locator('.moves .act.turn').allTextContents(), [...played, 'end']);
    assert.equal(await page.textContent('.moves li .who'), 'South');
    const lit = await page.locator('svg.board .cell.last').evaluateAll((cs) => cs.map((c) => c.dataset.key).sort());
    assert.deepEqual(lit, played.flatMap((a) => a.split('-')).sort());
    await page.screenshot({ path: path.join(SHOTS, `phylde-last-turn-${kind}.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  }
});

for (const kind of Object.keys(VIEWPORTS)) test(`the game-over panel after a resignation: who won, how, and what next (${kind})`, async () => {
  const g = catalog.games.find((x) => x.players === 2) || catalog.games[0];
  const { context, page, errors } = await newPage(kind);
  await startVsAi(page, g.name);
  assert.ok(!(await page.locator('.over-panel').isVisible()));
  page.once('dialog', (d) => d.accept());
  await page.click('[data-act="resign"]');
  await page.waitForSelector('.game[data-turn="over"] .over-panel h2');
  assert.equal(await page.textContent('.over-panel h2'), 'You lose — by resignation');
  assert.equal(await page.locator('.over-panel [data-act="rematch"]').count(), 1);
  assert.equal(await page.getAttribute('.over-panel a[href^="#/new/"]', 'href'), `#/new/${g.name}`);
  assert.match(await page.getAttribute('.over-panel a[download]', 'href'), /\/record$/);
  await page.screenshot({ path: path.join(SHOTS, `game-over-${kind}.png`) });
  assert.deepEqual(errors, []);
  await context.close();
});

/** Start `tabula serve` (TABULA_BIN) on `addr` with database `db`; its URL and process. */
async function startServer(db, addr = '127.0.0.1:0', extra = []) {
  const proc = spawn(process.env.TABULA_BIN, ['serve', '--addr', addr, '--db', db, '--ai-pause-ms', '0', ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const url = await new Promise((resolve, reject) => {
    const seen = (chunk) => {
      out += chunk;
      const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
      if (m) resolve(m[0]);
    };
    proc.stdout.on('data', seen);
    proc.stderr.on('data', seen);
    proc.once('exit', (code) => reject(new Error(`the server stopped (${code}): ${out}`)));
    setTimeout(() => reject(new Error(`the server did not start: ${out}`)), 30000);
  });
  return { proc, url };
}

async function stopServer(proc) {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  proc.kill('SIGKILL'); // as a crash: nothing is closed politely
  await once(proc, 'exit');
}

test('a banner while the server cannot be reached, and a clear message when it is back', { skip: !process.env.TABULA_BIN && 'needs TABULA_BIN' }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabula-reconnect-'));
  const db = path.join(dir, 'tabula.db');
  let server = await startServer(db);
  const { context, page, errors } = await newPage('desktop');
  try {
    const g = catalog.games.find((x) => x.players === 2) || catalog.games[0];
    const res = await fetch(`${server.url}/api/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ spec: g.name }) });
    const created = await res.json();
    await page.goto(`${server.url}/#/game/${created.id}?t=${created.tokens[0].token}`);
    await page.waitForSelector('.game[data-turn="mine"]');
    assert.ok(!(await page.locator('.banner.conn').isVisible()));
    await stopServer(server.proc);
    await page.waitForSelector('.banner.conn[data-state="down"]', { state: 'visible', timeout: 10000 });
    assert.equal(await page.textContent('.banner.conn'), 'Connection lost: reconnecting…');
    await page.screenshot({ path: path.join(SHOTS, 'reconnecting-desktop.png') });
    server = await startServer(db, new URL(server.url).host);
    await page.waitForSelector('.banner.conn[data-state="back"]', { state: 'visible', timeout: 15000 });
    assert.equal(await page.textContent('.banner.conn'), 'Connected again: the game is up to date.');
    // The game goes on over the new connection, and the message goes away.
    await clickMove(page);
    await page.waitForSelector('.banner.conn', { state: 'hidden', timeout: 10000 });
    // A console error for each refused reconnection is the browser's, not the page's.
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    await stopServer(server.proc);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

const AXE = fs.readFileSync(new URL('./node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');

/** axe-core's serious and critical findings on the page as it is. */
async function axeViolations(page) {
  // evaluate() is not an inline script, so the page's CSP (script-src 'self') allows it.
  await page.evaluate(AXE);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}

test('axe-core finds no serious accessibility problem on the home, new-game, rules and game pages', async () => {
  const found = [];
  for (const kind of Object.keys(VIEWPORTS)) {
    const { context, page } = await newPage(kind);
    const check = async (what) => { for (const v of await axeViolations(page)) found.push(`${kind} ${what}: ${v}`); };
    await page.goto(`${BASE}/`);
    await page.waitForSelector('.gamerow, #games:not(:empty)');
    await check('home');
    await page.goto(`${BASE}/#/new/${catalog.games[0].name}`);
    await page.waitForSelector('#start');
    await check('new game');
    await page.goto(`${BASE}/#/rules/${catalog.games[0].name}`);
    await page.waitForSelector('article.rules h1');
    await check('rules');
    for (const g of catalog.games) {
      await startVsAi(page, g.name);
      await myTurn(page);
      await check(`${g.name} game`);
    }
    await context.close();
  }
  assert.deepEqual(found, []);
});

test('a move refused by the rules says why: Gildervaik warrior\'s compulsory capture', { skip: !has('gildervaik') }, async () => {
  const created = await post('/api/games', { spec: 'gildervaik(mode=warrior)', position: 'A:e5,h3 B:e6 C:f8,h2 / A' });
  for (const kind of Object.keys(VIEWPORTS)) {
    const { context, page, errors } = await newPage(kind);
    await page.goto(`${BASE}/#/game/${created.id}?t=${created.tokens[0].token}`);
    await page.waitForSelector('.game[data-turn="mine"]');
    await page.fill('.typemove input', 'h3-h4');
    await page.click('.typemove button');
    await page.waitForSelector('.refusal:not([hidden])');
    assert.equal(await page.textContent('.refusal'), 'Capture is compulsory: e5 can take on d5.');
    await page.screenshot({ path: path.join(SHOTS, `compulsory-capture-${kind}.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('phone Dragonchess: the level tabs show where the last move and the check are', { skip: !has('dragonchess') }, async () => {
  // Gold's Oliphant checks along the Ground's top rank.
  const position = '12/12/12/12/12/12/12/12|4k7/12/12/12/12/12/12/O3K7|12/12/12/12/12/12/12/12 g 0 1';
  const created = await post('/api/games', { spec: 'dragonchess', position });
  await post(`/api/games/${created.id}/move`, { token: created.tokens[0].token, action: 'O2a1-2a8' });
  const { context, page, errors } = await newPage('phone');
  await page.goto(`${BASE}/#/game/${created.id}`);
  await page.waitForSelector('.game[data-ply="1"] .level-tabs button');
  const marked = (cls) => page.locator(`.level-tabs button.${cls}`).evaluateAll((bs) => bs.map((b) => b.dataset.level));
  assert.deepEqual(await marked('lastmove'), ['2']);
  assert.deepEqual(await marked('incheck'), ['2']);
  assert.match(await page.textContent('.level-tabs button.incheck'), /the last move is here.*check/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('Stelpur says whose roll it is, what is left, the way pawns run and a last pawn\'s mode', { skip: !has('stelpur') }, async () => {
  const created = await post('/api/games', { spec: 'stelpur', position: '5/13,14,15 1 - 0 1' });
  for (const kind of Object.keys(VIEWPORTS)) {
    const { context, page, errors } = await newPage(kind);
    await page.goto(`${BASE}/#/game/${created.id}`);
    await page.waitForSelector('.game svg.board');
    const text = await page.textContent('.extra');
    assert.match(text, /(South|North)('s roll: \d-\d · (left: |no die left)| to roll)/);
    assert.match(text, /South: last pawn, corner to corner/);
    assert.match(text, /Pawns run forward by number: 1 → 12, 13 → 24/);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('each Stelpur roll is listed in the row of the side that threw it', { skip: !has('stelpur') }, async () => {
  const { context, page, errors } = await newPage('desktop');
  // A game without a human seat needs a session: the page's guest session.
  await page.goto(`${BASE}/`);
  await page.waitForSelector('.gamerow, #games:not(:empty)');
  const created = await page.evaluate(async () => {
    const ai = { type: 'ai', level: 'random' };
    await fetch('/api/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const r = await fetch('/api/games', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ spec: 'stelpur', seats: [ai, ai] }) });
    return r.json();
  });
  assert.ok(created.id, JSON.stringify(created));
  // AI against AI plays while someone watches: a second tab watches it.
  const watcher = await context.newPage();
  await watcher.goto(`${BASE}/#/game/${created.id}`);
  let view;
  for (let i = 0; i < 100; i++) {
    view = await (await fetch(`${BASE}/api/games/${created.id}`)).json();
    if (view.history.length >= 40 || view.state.result) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await watcher.close();
  await page.routeWebSocket(/\/ws$/, () => {}); // the list as of the snapshot
  await page.route(`**/api/games/${created.id}`, (route) => route.fulfill({ json: view }));
  await page.goto(`${BASE}/#/game/${created.id}`);
  await page.waitForSelector('.moves li');
  const sides = ['South', 'North'];
  let rolls = 0;
  for (const [i, e] of view.history.entries()) {
    if (e.actor !== null) continue;
    const before = i === 0 ? view.start : view.history[i - 1].pos;
    const thrower = sides[Number(before.split(' ')[1]) - 1];
    const row = page.locator('.moves li', { has: page.locator(`[data-ply="${i + 1}"]`) });
    assert.equal(await row.locator('.who').textContent(), thrower, `roll ${e.text} at ply ${i + 1}`);
    rolls += 1;
  }
  assert.ok(rolls > 3, `only ${rolls} rolls`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the rules pages draw their runes, so no font is needed (English and French)', { skip: !has('stelpur') }, async () => {
  for (const open of [() => newPage('phone'), () => frenchPage('phone')]) {
    const { context, page, errors } = await open();
    await page.goto(`${BASE}/#/rules/stelpur`);
    await page.waitForSelector('article.rules h1');
    assert.doesNotMatch(await page.textContent('article.rules'), /[\u16A0-\u16FF]/, 'a rune left to a font');
    const drawn = await page.locator('article.rules svg.runetext').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    for (const rune of ['ᚠ', 'ᚢ', 'ᚦ', 'ᚨ', 'ᚱ', 'ᚲ', 'ᚷ', 'ᚹ']) assert.ok(drawn.includes(rune), `${rune} not drawn: ${drawn}`);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('a 1+0 game against the AI is lost on time', async () => {
  const g = catalog.games.find((x) => x.name === 'dragonchess') || catalog.games.find((x) => x.players === 2);
  const { context, page, errors } = await newPage('desktop');
  await page.goto(`${BASE}/#/new/${g.name}`);
  await page.waitForSelector('#start');
  await page.selectOption('#clock', 'rt:60:0');
  await page.click('#start');
  await page.waitForSelector('.game svg.board');
  assert.equal(await page.locator('.clock[data-seat="0"]').textContent(), '1:00');
  // First moves are free; then the player's minute runs.
  assert.equal(await myTurn(page), 'mine');
  await clickMove(page);
  await page.waitForFunction(() => document.querySelector('.game').dataset.turn === 'mine');
  await page.waitForSelector('.clock.running[data-seat="0"]');
  // The last ten seconds turn red; then the flag falls (the server ends it).
  await page.waitForSelector('.clock.low[data-seat="0"]', { timeout: 65000 });
  await page.waitForSelector('.game[data-turn="over"]', { timeout: 20000 });
  assert.match(await page.textContent('.over-panel'), /on time/);
  await page.screenshot({ path: path.join(SHOTS, `lost-on-time-${g.name}.png`) });
  assert.deepEqual(errors, []);
  await context.close();
});

test('Dragonchess draws a picture for each of its 15 pieces, named for screen readers, and a legend', { skip: !has('dragonchess') }, async () => {
  const created = await post('/api/games', { spec: 'dragonchess' });
  for (const kind of Object.keys(VIEWPORTS)) {
    const { context, page, errors } = await newPage(kind);
    await page.goto(`${BASE}/#/game/${created.id}`);
    await page.waitForSelector('.game svg.board .piece');
    const kinds = await page.locator('svg.board .piece').evaluateAll((ps) => [...new Set(ps.map((p) => p.dataset.kind))].sort().join(''));
    assert.equal(kinds, kind === 'desktop' ? [...'SGRWOUHTCMKPDBE'].sort().join('') : [...'WOUHTCMKP'].sort().join(''));
    assert.equal(await page.textContent('svg.board .piece[data-kind="K"] title'), 'K King');
    assert.ok(await page.locator('svg.board .piece').evaluateAll((ps) => ps.every((p) => p.querySelector('path.art'))));
    assert.equal(await page.locator('.extra .dc-legend-item svg').count(), 15);
    await page.screenshot({ path: path.join(SHOTS, `dragonchess-start-${kind}.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  }
});

/** Open game `id` and wait until its live channel has sent its first snapshot (later moves are updates). */
async function openLive(page, id) {
  const live = new Promise((resolve) => page.on('websocket', (ws) => ws.on('framereceived', (f) => {
    if (String(f.payload).includes('"snapshot"')) resolve();
  })));
  await page.goto(`${BASE}/#/game/${id}`);
  await live;
  await page.waitForSelector('.game svg.board .piece');
}

/** Record, on the page, each piece that slides or is captured while the board animates. */
async function watchSlides(page) {
  await page.evaluate(() => {
    window.slid = [];
    new MutationObserver(() => {
      for (const el of document.querySelectorAll('#board .moving, #board .captured')) {
        window.slid.push({ at: el.dataset.at, cls: el.classList.contains('moving') ? 'moving' : 'captured', running: el.getAnimations().length });
      }
    }).observe(document.getElementById('board'), { subtree: true, childList: true, attributes: true });
  });
}

test('a move slides its piece and the captured one goes at the end; not with reduced motion, nor far back in the replay', { skip: !has('dragonchess') }, async () => {
  // Gold's Oliphant takes the Scarlet Warrior at 2a8 (check), Scarlet's King steps away.
  const position = '12/12/12/12/12/12/12/12|w3k7/12/12/12/12/12/12/O3K7|12/12/12/12/12/12/12/12 g 0 1';
  const created = await post('/api/games', { spec: 'dragonchess', position });
  const { context, page, errors } = await newPage('desktop');
  await openLive(page, created.id);
  await watchSlides(page);
  await post(`/api/games/${created.id}/move`, { token: created.tokens[0].token, action: 'O2a1x2a8' });
  await page.waitForSelector('.game[data-ply="1"]');
  const slid = await page.evaluate(() => window.slid);
  assert.ok(slid.some((s) => s.cls === 'moving' && s.at === '2a8' && s.running > 0), JSON.stringify(slid));
  assert.ok(slid.some((s) => s.cls === 'captured' && s.at === '2a8'), JSON.stringify(slid));
  // At the end the board is the new position: one piece on 2a8, the Oliphant.
  await page.waitForFunction(() => !document.querySelector('#board.animating'));
  assert.deepEqual(await page.locator('svg.board [data-at="2a8"]').evaluateAll((ps) => ps.map((p) => p.dataset.kind)), ['O']);
  assert.equal(await page.locator('svg.board [data-at="2a1"]').count(), 0);
  // Scarlet's reply slides too, until a touch on the board ends it at once.
  const count = () => page.$eval('#board', (b) => Number(b.dataset.animations || 0));
  assert.equal(await count(), 1);
  await page.evaluate(() => {
    window.skipped = null;
    const board = document.getElementById('board');
    new MutationObserver(() => {
      if (window.skipped || !board.querySelector('.moving')) return;
      board.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
      window.skipped = { left: board.querySelectorAll('.moving, .captured').length, running: board.querySelector('svg').getAnimations({ subtree: true }).length };
    }).observe(board, { subtree: true, childList: true, attributes: true });
  });
  await post(`/api/games/${created.id}/move`, { token: created.tokens[1].token, action: 'K2e8-2e7' });
  await page.waitForSelector('.game[data-ply="2"]');
  assert.equal(await count(), 2);
  assert.deepEqual(await page.evaluate(() => window.skipped), { left: 0, running: 0 });
  assert.equal(await page.locator('svg.board [data-at="2e7"]').count(), 1);
  // Replay: a step back or a jump shows the position; one step forward slides.
  await page.click('[data-nav="first"]');
  await page.click('[data-nav="last"]');
  await page.click('[data-nav="prev"]');
  await page.click('[data-nav="first"]');
  assert.equal(await count(), 2);
  await page.click('[data-nav="next"]');
  assert.equal(await count(), 3);
  assert.deepEqual(errors, []);
  await context.close();

  // Reduced motion: the next move just appears.
  const still = await newPage('desktop', { reducedMotion: 'reduce' });
  await openLive(still.page, created.id);
  await watchSlides(still.page);
  await post(`/api/games/${created.id}/move`, { token: created.tokens[0].token, action: 'O2a8-2a7' });
  await still.page.waitForSelector('.game[data-ply="3"]');
  assert.deepEqual(await still.page.evaluate(() => window.slid), []);
  assert.equal(await still.page.$eval('#board', (b) => b.dataset.animations), undefined);
  assert.equal(await still.page.locator('svg.board [data-at="2a7"]').count(), 1);
  assert.deepEqual(still.errors, []);
  await still.context.close();
});

/** A scripted player: an account of its own, its session cookie, and an
 * address of its own (the server trusts `X-Forwarded-For` in this test), so
 * that nine sign-ups from one machine stay within the per-address limit. */
class Scripted {
  constructor(base, name, address) { Object.assign(this, { base, name, address, cookie: '' }); }

  async call(method, url, body) {
    const headers = { origin: this.base, 'x-forwarded-for': this.address, cookie: this.cookie };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const r = await fetch(`${this.base}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const set = r.headers.get('set-cookie');
    if (set) this.cookie = set.split(';')[0];
    const text = await r.text();
    if (!r.ok) throw new Error(`${this.name}: ${method} ${url}: ${r.status} ${text}`);
    return text ? JSON.parse(text) : null;
  }
}

/** A tournament evening on a server of its own that trusts `X-Forwarded-For`:
 * `n` scripted players signed up, each from its own address in `net`, and a
 * page on `viewport` signed in as `me`. `close()` stops it all. */
async function evening(prefix, n, viewport, net, flags = []) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `tabula-${prefix}-`));
  const server = await startServer(path.join(dir, 'tabula.db'), '127.0.0.1:0', ['--trust-proxy', ...flags]);
  const U = server.url;
  // Move the server's clock on (a server started with --test-clock).
  const advance = async (ms) => {
    const r = await fetch(`${U}/api/test/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance_ms: ms }) });
    assert.equal(r.status, 200, await r.text());
  };
  const stamp = Date.now().toString(36).slice(-5);
  const context = await browser.newContext({ ...VIEWPORTS[viewport], extraHTTPHeaders: { 'x-forwarded-for': `${net}.1.1` } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const close = async () => {
    await context.close();
    await stopServer(server.proc);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const players = [];
    for (let i = 0; i < n; i++) {
      const b = new Scripted(U, `${prefix}${i}${stamp}`, `${net}.0.${i + 1}`);
      await b.call('POST', '/api/account', { username: b.name, password: 'a good password' });
      players.push(b);
    }
    const me = `${prefix}me${stamp}`;
    await page.goto(`${U}/#/login`);
    await page.fill('#login input[name="username"]', me);
    await page.fill('#login input[name="password"]', 'a good password');
    await page.click('#login button[data-act="signup"]');
    await page.waitForSelector(`#me-link:has-text("${me}")`);
    return { U, stamp, page, errors, players, me, close, advance };
  } catch (e) {
    await close();
    throw e;
  }
}

test('a tavern evening on phones: nine at tables of three, clocks, live standings, every rating moves', { skip: (!has('gildervaik') && 'no gildervaik') || (!process.env.TABULA_BIN && 'needs TABULA_BIN') }, async () => {
  const spec = 'gildervaik(mode=warrior)';
  const { U, stamp, page, errors, players: bards, me, close } = await evening('bard', 8, 'phone', '10.9');
  try {
    // The innkeeper sets the evening up: three rounds of tables, 5+3.
    const { id } = await bards[0].call('POST', '/api/tournaments', {
      name: `Tavern ${stamp}`, spec, format: 'tables', clock: { initial_s: 300, increment_s: 3 },
      starts: Date.now() + 12000, rounds: 3,
    });
    for (const b of bards) await b.call('POST', `/api/tournaments/${id}/join`);
    // The ninth joins from her phone.
    await page.goto(`${U}/#/tournament/${id}`);
    await join(page);
    // At the start time the tables are drawn: her page shows them and her
    // game, without a reload.
    await page.waitForSelector('.yourgame a', { timeout: 30000 });
    assert.equal(await page.locator('.tournament .list .gamerow').count(), 3);
    await page.screenshot({ path: path.join(SHOTS, 'tavern-phone.png'), fullPage: true });
    const byName = new Map(bards.map((b) => [b.name, b]));
    // Random legal moves for everyone; hers from her page (her session).
    const playOut = async (game) => {
      for (let n = 0; n < 2000; n++) {
        const v = await (await fetch(`${U}/api/games/${game}`)).json();
        if (v.state.turn.kind === 'over') return;
        if (n === 0) assert.ok(v.state.clock, 'the game has its clock');
        if (v.state.turn.kind !== 'player') continue;
        const who = v.state.players[v.state.turn.seat].user;
        const action = v.state.legal[Math.floor(Math.random() * v.state.legal.length)];
        const body = { action, ply: v.state.ply };
        if (who === me) {
          await page.evaluate(async ([g, b]) => {
            await fetch(`/api/games/${g}/move`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) });
          }, [game, body]);
        } else {
          await byName.get(who).call('POST', `/api/games/${game}/move`, body).catch(() => {}); // a stale ply is tried again
        }
      }
      throw new Error(`game ${game} never ended`);
    };
    for (let round = 1; round <= 3; round++) {
      let t;
      for (let i = 0; i < 300; i++) {
        t = await (await fetch(`${U}/api/tournaments/${id}`)).json();
        if (t.rounds.length >= round) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const tables = t.rounds[round - 1].games;
      assert.equal(tables.length, 3, `round ${round}: three tables of three`);
      await Promise.all(tables.map((g) => playOut(g.id)));
      // Her standings follow, live: every row has played this round.
      await page.waitForFunction((r) => {
        const rows = [...document.querySelectorAll('table.standings tbody tr')];
        return rows.length === 9 && rows.every((tr) => tr.lastElementChild.textContent.trim() === String(r));
      }, round, { timeout: 20000 });
    }
    await page.waitForFunction(() => !document.querySelector('.yourgame'), null, { timeout: 20000 });
    await page.screenshot({ path: path.join(SHOTS, 'tavern-standings-phone.png'), fullPage: true });
    const done = await (await fetch(`${U}/api/tournaments/${id}`)).json();
    assert.equal(done.status, 'finished');
    // Nobody met the same player twice over the three rounds.
    const met = new Set();
    for (const r of done.rounds) for (const g of r.games) {
      const names = g.seats.map((x) => x.name).sort();
      for (const pair of [[0, 1], [0, 2], [1, 2]]) {
        const key = `${names[pair[0]]}|${names[pair[1]]}`;
        assert.ok(!met.has(key), `${key} met twice`);
        met.add(key);
      }
    }
    // Every rating moved: three rated games each, in the pool of the evening.
    for (const name of [me, ...byName.keys()]) {
      let p;
      for (let i = 0; i < 100; i++) {
        p = await (await fetch(`${U}/api/players/${name}`)).json();
        if (p.ratings?.[spec]?.games === 3) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(p.ratings?.[spec]?.games, 3, `${name}: ${JSON.stringify(p.ratings)}`);
    }
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('an arena of eight with scripted players: paired as they come free, live standings, ended by the clock', { skip: !process.env.TABULA_BIN && 'needs TABULA_BIN' }, async () => {
  const g = catalog.games.find((x) => x.name === 'dragonchess') || catalog.games.find((x) => x.players === 2);
  // The test moves the server's clock: the arena starts and ends when it
  // says, however slow the machine, instead of lasting minutes of real time.
  const { U, stamp, page, errors, players, me, close, advance } = await evening('ar', 7, 'desktop', '10.8', ['--test-clock']);
  try {
    const { id } = await players[0].call('POST', '/api/tournaments', {
      name: `Arena ${stamp}`, spec: g.name, format: 'arena', clock: { initial_s: 60, increment_s: 0 },
      starts: Date.now() + 60000, minutes: 2,
    });
    for (const b of players) await b.call('POST', `/api/tournaments/${id}/join`);
    await page.goto(`${U}/#/tournament/${id}`);
    await join(page);
    await advance(60000); // it starts
    // Her own calls go through her page (her session); the others' are scripted.
    const mine = { name: me, call: (method, url, body) => page.evaluate(async ([m, u, b]) => {
      const r = await fetch(u, { method: m, headers: { 'content-type': 'application/json' }, body: b === undefined ? undefined : JSON.stringify(b) });
      return r.ok ? r.json() : null;
    }, [method, url, body]) };
    const everyone = [mine, ...players];
    // Each game: a few random moves, then the side to move resigns.
    const step = async (p) => {
      const t = await p.call('GET', `/api/tournaments/${id}`).catch(() => null);
      if (!t?.my_game) return t;
      const v = await (await fetch(`${U}/api/games/${t.my_game}`)).json();
      if (!v.state) return t; // published with its wave, created just after
      if (v.state.turn.kind !== 'player' || v.state.players[v.state.turn.seat].user !== p.name) return t;
      if (v.state.ply >= 4) await p.call('POST', `/api/games/${t.my_game}/resign`, {}).catch(() => {});
      else {
        const action = v.state.legal[Math.floor(Math.random() * v.state.legal.length)];
        await p.call('POST', `/api/games/${t.my_game}/move`, { action, ply: v.state.ply }).catch(() => {});
      }
      return t;
    };
    const opponentsOf = (t) => {
      const opponents = new Map();
      for (const r of t.rounds) for (const game of r.games) {
        if (!game.places) continue;
        const [a, b] = game.seats.map((x) => x.name);
        for (const [x, y] of [[a, b], [b, a]]) opponents.set(x, (opponents.get(x) || new Set()).add(y));
      }
      return opponents;
    };
    // Play while the arena runs, until everyone has met three others.
    let t;
    for (let i = 0; ; i++) {
      for (const p of everyone) t = (await step(p)) || t;
      const met = opponentsOf(t);
      if (met.size === 8 && [...met.values()].every((m) => m.size >= 3)) break;
      assert.ok(i < 2000, `not everyone met three others: ${JSON.stringify([...met].map(([k, v]) => [k, [...v]]))}`);
    }
    assert.equal(t.status, 'running');
    await advance(120000); // its two minutes are over: the games on the boards still count
    for (let i = 0; t?.status !== 'finished'; i++) {
      for (const p of everyone) t = (await step(p)) || t;
      assert.ok(i < 2000, `the arena did not finish: ${t?.status}`);
    }
    // Players were paired again as they came free: many waves, several games each.
    assert.ok(t.rounds.length >= 3, `${t.rounds.length} waves`);
    assert.ok(t.standings.every((s) => s.played >= 3), JSON.stringify(t.standings));
    const scores = t.standings.map((s) => s.score);
    assert.deepEqual([...scores].sort((a, b) => b - a), scores);
    // Not the same pairs over and over: everyone met at least three others.
    for (const [name, met] of opponentsOf(t)) assert.ok(met.size >= 3, `${name} met only ${[...met]}`);
    // Her page followed without a reload, to the end.
    await page.waitForSelector('button[data-act="withdraw"]', { state: 'detached', timeout: 15000 });
    assert.equal(await page.locator('table.standings tbody tr').count(), 8);
    await page.waitForFunction((n) => [...document.querySelectorAll('table.standings tbody tr')]
      .some((tr) => tr.textContent.includes(n)), me);
    await page.screenshot({ path: path.join(SHOTS, 'arena-desktop.png'), fullPage: true });
    for (const name of everyone.map((p) => p.name)) {
      let p;
      for (let i = 0; i < 100; i++) { // rated as each game ends, a moment after
        p = await (await fetch(`${U}/api/players/${name}`)).json();
        if (p.ratings?.[g.name]?.games >= 3) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(p.ratings?.[g.name]?.games >= 3, `${name}: ${JSON.stringify(p.ratings)}`);
    }
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('the first move of a game is announced to screen readers, as every later one', async () => {
  const g = catalog.games.find((x) => x.players === 2 && !x.game_type.chance) || catalog.games[0];
  const created = await post('/api/games', { spec: g.name });
  const { context, page, errors } = await newPage('desktop');
  await openLive(page, created.id);
  const view = await (await fetch(`${BASE}/api/games/${created.id}`)).json();
  const first = view.state.legal[0];
  await post(`/api/games/${created.id}/move`, { token: created.tokens[0].token, action: first });
  await page.waitForFunction((a) => document.querySelector('.announce')?.textContent.includes(a), first, { timeout: 10000 });
  assert.deepEqual(errors, []);
  await context.close();
});

test('a hint names a legal move, marks it on the board and says how the game stands, in English and French', { skip: !has('dragonchess') }, async () => {
  for (const [open, words] of [[() => newPage('desktop'), en.hint], [() => frenchPage('phone'), fr.hint]]) {
    const { context, page, errors } = await open();
    await startVsAi(page, 'dragonchess');
    assert.equal(await myTurn(page), 'mine');
    const id = new URL(page.url().replace('#/', '')).pathname.split('/').pop();
    const legal = (await (await fetch(`${BASE}/api/games/${id}`)).json()).state.legal;
    await page.click('button[data-act="hint"]');
    const lead = words.says.split('{{')[0];
    const text = await (await page.waitForFunction((lead) => {
      const box = document.querySelector('#toast.show');
      return box?.textContent.startsWith(lead) && box.textContent;
    }, lead, { timeout: 30000 })).jsonValue();
    // "Hint: X. <verdict>[ Also worth a look: Y, Z.]", each move legal and named once.
    const fill = (s) => s.replace(/[.*+?^$()[\]\\|]/g, '\\$&').replace(/\\?\{\\?\{\w+\\?\}\\?\}/g, '(.+?)');
    const verdicts = Object.values(words.verdict);
    const m = text.match(new RegExp(`^${fill(words.says)}(?: ${fill(words.others)})?$`));
    assert.ok(m, `the toast reads as a hint: ${text}`);
    const [, best, verdict, others] = m;
    assert.ok(verdicts.includes(verdict), `a verdict of the locale: ${verdict}`);
    assert.ok(legal.includes(best), `the hint ${best} is legal`);
    const also = others ? others.split(', ') : [];
    assert.ok(also.length <= 2 && also.every((a) => legal.includes(a) && a !== best), `others: ${others}`);
    assert.equal(new Set(also).size, also.length);
    // The board marks the hinted move until it is played.
    assert.ok(await page.locator('svg.board .hint').count() >= 1, 'the hinted move is marked');
    assert.deepEqual(errors, []);
    await context.close();
  }
});

// ------------------------------------------------------------------ refusals and profiles

/** A locale's text with its `{{vars}}` filled in. */
const filled = (text, vars) => text.replace(/\{\{(\w+)\}\}/g, (m, k) => vars[k]);

/** Submit the sign-in form (`act`: login or signup) as `name`; the toast it shows. */
async function refusedSignIn(page, act, name, password = 'a good password') {
  await page.goto(`${BASE}/#/login`);
  await page.fill('#login input[name="username"]', name);
  await page.fill('#login input[name="password"]', password);
  await page.evaluate(() => { document.getElementById('toast').className = ''; });
  await page.click(`#login button[data-act="${act}"]`);
  await page.waitForSelector('#toast.show.bad');
  return page.textContent('#toast');
}

test('a refusal shows the server\'s reason: a taken name (English and French) and a wrong password', async () => {
  const name = `ana${Date.now() % 100000}`;
  const ana = await newPage('desktop');
  await signUp(ana.page, name);
  const other = await newPage('phone');
  assert.equal(await refusedSignIn(other.page, 'signup', name), filled(en.errors.name_taken, { name }));
  // A code that only names its status (401) shows the server's own line.
  assert.equal(await refusedSignIn(other.page, 'login', name, 'not the password'), 'wrong user name or password');
  const french = await frenchPage('phone');
  assert.equal(await refusedSignIn(french.page, 'signup', name), filled(fr.errors.name_taken, { name }));
  assert.deepEqual([...ana.errors, ...other.errors, ...french.errors], []);
  for (const b of [ana, other, french]) await b.context.close();
});

test('a profile says how each game ended from its player\'s side, in English and French', async () => {
  const stamp = Date.now() % 100000;
  const [annName, bobName] = [`pann${stamp}`, `pbob${stamp}`];
  const ann = await newPage('desktop');
  const bob = await newPage('phone');
  await signUp(ann.page, annName);
  await signUp(bob.page, bobName);
  const call = (page, url, body) => page.evaluate(async ([u, b]) => (await fetch(u, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b),
  })).json(), [url, body]);
  const g = catalog.games.find((x) => x.players === 2).name;
  const created = await call(ann.page, '/api/games', { spec: g, seats: [{ type: 'human' }, { type: 'human', invite: true }] });
  await call(bob.page, `/api/games/${created.id}/join`, { token: created.tokens[1].token });
  await call(bob.page, `/api/games/${created.id}/resign`, {});
  const row = async (page, who) => {
    await page.goto(`${BASE}/#/@/${who}`);
    await page.waitForSelector(`.profile h1:has-text("${who}")`);
    return page.locator('#finished .gamerow .muted').first().textContent();
  };
  const how = (l) => l.profile.outcome.how.resign;
  assert.equal(await row(ann.page, annName), filled(en.profile.outcome.won, { how: how(en), others: bobName }));
  assert.equal(await row(bob.page, bobName), filled(en.profile.outcome.lost, { how: how(en), others: annName }));
  const french = await frenchPage('phone');
  assert.equal(await row(french.page, annName), filled(fr.profile.outcome.won, { how: how(fr), others: bobName }));
  assert.equal(await row(french.page, bobName), filled(fr.profile.outcome.lost, { how: how(fr), others: annName }));
  await french.page.screenshot({ path: path.join(SHOTS, 'profile-fr-phone.png') });
  assert.deepEqual([...ann.errors, ...bob.errors, ...french.errors], []);
  for (const b of [ann, bob, french]) await b.context.close();
});

test('an imported game says so, and shows an ending no record can prove as a claim (French)', async () => {
  const g = catalog.games.find((x) => x.players === 2);
  const created = await post('/api/games/import', { record: `[Tabula record]\ngame: ${g.name}\nresult: win 1\nend: time\n\n` });
  const { context, page, errors } = await frenchPage('phone');
  await page.goto(`${BASE}/#/game/${created.id}`);
  const banner = page.locator('.banner.imported');
  await banner.waitFor();
  const side = fr.games[g.name]?.sides?.[g.sides[0]] ?? g.sides[0];
  const claim = filled(fr.status.win_time, { side });
  assert.equal(await banner.textContent(), `${fr.banner.imported} ${filled(fr.banner.claim, { claim })}`);
  assert.notEqual(await page.$eval('.game', (x) => x.dataset.turn), 'over');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a game page has one h1, its game, and a spectator\'s chat line passes axe-core', async () => {
  const g = catalog.games[0];
  const created = await post('/api/games', { spec: g.name });
  const found = [];
  for (const kind of Object.keys(VIEWPORTS)) {
    const { context, page, errors } = await newPage(kind);
    await page.goto(`${BASE}/#/game/${created.id}`);
    await page.waitForSelector('.game');
    await page.evaluate(async (id) => {
      await fetch('/api/session', { method: 'POST' });
      await fetch(`/api/games/${id}/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ room: 'spectators', text: 'what a move' }) });
    }, created.id);
    await page.waitForSelector('.chat-line.spectators .muted');
    assert.deepEqual(await page.locator('h1').allTextContents(), [en.games?.[g.name]?.title ?? g.title]);
    for (const v of await axeViolations(page)) found.push(`${kind}: ${v}`);
    assert.deepEqual(errors, []);
    await context.close();
  }
  assert.deepEqual(found, []);
});

test('a seek and a tournament carry the rule options chosen in their forms (French on a phone, English on a desktop)', { skip: (!has('gildervaik') || !has('phylde')) && 'needs gildervaik and phylde' }, async () => {
  for (const [kind, locale, words] of [['phone', 'fr-FR', fr], ['desktop', 'en-US', en]]) {
    const stamp = Date.now().toString(36).slice(-6);
    const { context, page, errors } = await newPage(kind, { locale });
    await signUp(page, `opt${stamp}`);
    // A warrior Gildervaik challenge: the seek's spec says so.
    await page.selectOption('#seek select[name="game"]', 'gildervaik');
    await page.click(`#seek summary:has-text("${words.options.title}")`);
    await page.selectOption('#seek #opt-mode', 'warrior');
    await page.screenshot({ path: path.join(SHOTS, `seek-options-${locale}-${kind}.png`), fullPage: true });
    await page.click('#seek button[type="submit"]');
    const mine = page.locator('.seekrow:has(button[data-cancel])');
    await mine.waitFor();
    const seek = await (await fetch(`${BASE}/api/seeks/${await mine.getAttribute('data-seek')}`)).json();
    assert.equal(seek.spec, 'gildervaik(mode=warrior)');
    // A Phylde Swiss in the block setup: the tournament's spec says so.
    await page.click('a[href="#/tournaments"]');
    await page.fill('#newtourney input[name="name"]', `Block ${stamp}`);
    await page.selectOption('#newtourney select[name="game"]', 'phylde');
    await page.click(`#newtourney summary:has-text("${words.options.title}")`);
    await page.selectOption('#newtourney #opt-setup', 'block');
    await page.screenshot({ path: path.join(SHOTS, `tournament-options-${locale}-${kind}.png`), fullPage: true });
    await page.click('#newtourney button[type="submit"]');
    await page.waitForSelector('.tournament h1');
    const id = page.url().split('/').pop();
    assert.equal((await (await fetch(`${BASE}/api/tournaments/${id}`)).json()).spec, 'phylde(setup=block)');
    // The options said in words: "Phylde (mise en place : bloc)".
    assert.ok((await page.textContent('.tournament')).includes(filled(words.options.pair, { name: words.optionNames.setup, value: words.optionValues.block })));
    assert.deepEqual(errors, []);
    await context.close();
  }
});

/** Whether every checkbox of `form` sits on the line of its words, at their start (not centred above them). */
async function checkboxesInline(page, form) {
  return page.locator(`${form} label:has(> input[type="checkbox"])`).evaluateAll((labels) => labels
    .filter((l) => l.offsetParent)
    .map((l) => {
      const box = l.querySelector('input').getBoundingClientRect();
      const label = l.getBoundingClientRect();
      return { text: l.textContent.trim(), inline: box.left - label.left < 2 && label.height < 2 * box.height + 8 };
    })
    .filter((x) => !x.inline).map((x) => x.text));
}

test('phone forms put each checkbox before its words; the desktop replay buttons stay on one line (French)', async () => {
  const stamp = Date.now().toString(36).slice(-6);
  const phone = await newPage('phone', { locale: 'fr-FR' });
  await signUp(phone.page, `box${stamp}`);
  assert.deepEqual(await checkboxesInline(phone.page, '#seek'), []);
  await phone.page.click('a[href="#/tournaments"]');
  await phone.page.waitForSelector('#newtourney');
  assert.deepEqual(await checkboxesInline(phone.page, '#newtourney'), []);
  await phone.page.screenshot({ path: path.join(SHOTS, 'tournament-form-fr-phone.png'), fullPage: true });
  assert.deepEqual(phone.errors, []);
  await phone.context.close();

  const desk = await newPage('desktop', { locale: 'fr-FR' });
  // A game whose panel is beside the board (Dragonchess's is under it).
  await startVsAi(desk.page, (catalog.games.find((x) => x.name === 'phylde') || catalog.games[0]).name);
  await myTurn(desk.page);
  await clickMove(desk.page);
  await desk.page.click('.replay [data-nav="prev"]');
  await desk.page.waitForFunction(() => /\d.*\d/.test(document.querySelector('.plyinfo').textContent));
  const tops = await desk.page.locator('.replay button').evaluateAll((bs) => bs.map((b) => Math.round(b.getBoundingClientRect().top)));
  assert.equal(new Set(tops).size, 1, `replay buttons at ${tops}`);
  await desk.page.screenshot({ path: path.join(SHOTS, 'replay-fr-desktop.png') });
  assert.deepEqual(desk.errors, []);
  await desk.context.close();
});

test('desktop Dragonchess uses the page\'s width: squares of 30 px or more on a 1280 px screen', { skip: !has('dragonchess') }, async () => {
  const { context, page, errors } = await newPage('desktop', { locale: 'fr-FR' });
  await startVsAi(page, 'dragonchess');
  // The board is drawn again as the game view arrives: measure a square
  // that is on the page (a redraw may replace the one first found).
  const first = page.locator('svg.dragonchess rect.sq').first();
  let square = null;
  for (let i = 0; i < 50 && !square; i++) {
    await first.waitFor({ state: 'visible' });
    square = await first.boundingBox();
  }
  assert.ok(square, 'a Dragonchess square is drawn');
  assert.ok(square.width >= 30, `squares of ${square.width} px`);
  await page.screenshot({ path: path.join(SHOTS, 'dragonchess-wide-fr-desktop.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

test('tournament pairings say a place in words, not a bare number that reads like points (French and English)', async () => {
  const g = catalog.games.find((x) => x.players === 2 && x.name === 'phylde') || catalog.games.find((x) => x.players === 2);
  const stamp = Date.now().toString(36).slice(-6);
  const ann = await newPage('phone', { locale: 'fr-FR' });
  const bob = await newPage('desktop');
  await signUp(ann.page, `pann${stamp}`);
  await signUp(bob.page, `pbob${stamp}`);
  const call = (page, url, body) => page.evaluate(async ([u, b]) => {
    const r = await fetch(u, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) });
    return r.json();
  }, [url, body]);
  const { id } = await call(ann.page, '/api/tournaments', {
    name: `Places ${stamp}`, spec: g.name, format: 'swiss', clock: { initial_s: 300, increment_s: 0 }, starts: 'now', rounds: 1,
  });
  for (const who of [ann, bob]) await call(who.page, `/api/tournaments/${id}/join`, {});
  await ann.page.goto(`${BASE}/#/tournament/${id}`);
  await ann.page.waitForSelector('.yourgame a', { timeout: 15000 });
  const game = (await ann.page.locator('.yourgame a').getAttribute('href')).split('/').pop();
  await call(ann.page, `/api/games/${game}/resign`, {});
  await bob.page.goto(`${BASE}/#/tournament/${id}`);
  for (const [who, words] of [[ann, [`pbob${stamp} (1re place)`, `pann${stamp} (2e place)`]], [bob, [`pbob${stamp} (1st place)`, `pann${stamp} (place 2)`]]]) {
    const row = who.page.locator(`.gamerow[href="#/game/${game}"]`);
    await who.page.waitForFunction((href) => document.querySelector(`.gamerow[href="${href}"]`)?.textContent.includes('place'), `#/game/${game}`);
    const text = await row.textContent();
    for (const w of words) assert.ok(text.includes(w), `${text} has ${w}`);
    assert.doesNotMatch(text, /\(\d\)/);
  }
  await ann.page.screenshot({ path: path.join(SHOTS, 'tournament-places-fr-phone.png'), fullPage: true });
  assert.deepEqual([...ann.errors, ...bob.errors], []);
  await ann.context.close();
  await bob.context.close();
});

test('Gildervaik warrior: tapping a pawn held back by a compulsory capture says why (French phone, English desktop)', { skip: !has('gildervaik') }, async () => {
  const created = await post('/api/games', { spec: 'gildervaik(mode=warrior)', position: 'A:e5,h3 B:e6 C:f8,h2 / A' });
  for (const [kind, locale, want] of [['phone', 'fr-FR', filled(fr.gildervaik.mustCapture, { from: 'e5', to: 'd5' })], ['desktop', 'en-US', 'Capture is compulsory: e5 can take on d5.']]) {
    const { context, page, errors } = await newPage(kind, { locale });
    await page.goto(`${BASE}/#/game/${created.id}?t=${created.tokens[0].token}`);
    await page.waitForSelector('.game[data-turn="mine"]');
    await page.locator('circle.pawn[data-at="h3"]').click({ force: true });
    await page.waitForSelector('.refusal:not([hidden])');
    assert.equal(await page.textContent('.refusal'), want);
    await page.screenshot({ path: path.join(SHOTS, `stuck-pawn-${locale}-${kind}.png`) });
    // Picking the pawn that can move takes the words away.
    await page.locator('circle.pawn[data-at="e5"]').click({ force: true });
    await page.waitForSelector('.refusal[hidden]', { state: 'attached' });
    assert.deepEqual(errors, []);
    await context.close();
  }
});

/**
 * Words that are English and never French: found in the visible text of a
 * French page, they are strings that bypassed the translation files.
 */
const ENGLISH = new Set(['the', 'cannot', 'gold', 'scarlet', 'level', 'win', 'wins', 'won', 'lost', 'over', 'here',
  'move', 'moves', 'sky', 'ground', 'underworld', 'conquest', 'warrior', 'chain', 'jumps', 'player', 'players',
  'turn', 'your', 'you', 'game', 'games', 'with', 'and', 'not', 'none', 'draw', 'south', 'north', 'dragonchess',
  'by', 'of', 'to', 'is', 'it', 'this', 'that', 'true', 'false', 'yes', 'ply', 'rules', 'sign', 'open', 'seat',
  'seats', 'rated', 'casual', 'round', 'standings', 'start', 'new', 'play', 'back', 'ai', 'takes', 'from']);

/**
 * The English words in what page shows: its visible text, the options of
 * its selects and its labels for screen readers, titles and placeholders
 * (notation aside: inline `code`, and what says `translate="no"`, as the
 * record format's example); `allow` lists words a page may use.
 */
async function englishWords(page, allow = []) {
  const text = await page.evaluate(() => {
    const parts = [document.body.innerText];
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
      if (!el.closest('[hidden], [translate="no"]') && el.getClientRects().length) parts.push(el.getAttribute('aria-label') || '', el.getAttribute('title') || '', el.getAttribute('placeholder') || '');
    }
    for (const o of document.querySelectorAll('select option')) if (o.closest('select').getClientRects().length) parts.push(o.textContent);
    for (const c of document.querySelectorAll(':not(pre) > code')) parts.push(`\u0000${c.textContent}`);
    return parts.join('\n');
  });
  const code = new Set([...text.matchAll(/\u0000([^\n]*)/g)].flatMap((m) => m[1].toLowerCase().match(/[\p{L}\p{N}_]+/gu) || []));
  const words = text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) || [];
  return [...new Set(words.filter((w) => ENGLISH.has(w) && !allow.includes(w) && !code.has(w)))];
}

test('the word list finds English words, not French ones', async () => {
  const { context, page } = await frenchPage();
  await page.setContent('<p>Au tour d\'Écarlate : la partie est terminée.</p><p hidden>the</p><code>pass</code>');
  assert.deepEqual(await englishWords(page), []);
  await page.setContent('<p>Au tour de Scarlet: the game is over</p><select><option>AI level2</option></select>');
  assert.deepEqual(await englishWords(page), ['scarlet', 'the', 'game', 'is', 'over', 'ai', 'level2'].filter((w) => ENGLISH.has(w)));
  await context.close();
});

for (const kind of Object.keys(VIEWPORTS)) test(`every page speaks French to a French browser: no English word left (lobby, forms and options, games, rules, profile, tournaments, account; ${kind})`, async () => {
  const stamp = Date.now().toString(36).slice(-6);
  const name = `ana${stamp}`;
  const { context, page, errors } = await newPage(kind, { locale: 'fr-FR' });
  await signUp(page, name);
  const call = (url, body) => page.evaluate(async ([u, b]) => (await fetch(u, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b),
  })).json(), [url, body]);
  const found = [];
  const look = async (where, allow) => {
    for (const w of await englishWords(page, allow)) found.push(`${where}: ${w}`);
  };
  // Someone else's challenge with rule options, and a game of ours over (resigned) and one awaiting us.
  const other = await newPage('desktop');
  await signUp(other.page, `bo${stamp}`);
  if (has('gildervaik')) {
    await other.page.evaluate(async () => fetch('/api/seeks', { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ spec: 'gildervaik(mode=warrior,chain_jumps=false)', seats: [{ type: 'me' }, { type: 'open' }, { type: 'ai', level: 'level2' }] }) }));
  }
  const two = catalog.games.find((x) => x.players === 2).name;
  const done = await call('/api/games', { spec: two, seats: [{ type: 'human' }, { type: 'ai', level: 'level2' }] });
  await call(`/api/games/${done.id}/resign`, {});
  await call('/api/games', { spec: two, seats: [{ type: 'human' }, { type: 'ai', level: 'level2' }], clock: { days: 3 } });
  await page.goto(`${BASE}/`);
  await page.waitForSelector('#yourturn .gamerow');
  await page.waitForSelector('#games .gamerow');
  await look('home');
  await page.goto(`${BASE}/#/lobby`);
  await page.waitForSelector('#yourturn .gamerow');
  if (has('gildervaik')) await page.waitForSelector('.seekrow');
  await page.click('#seek summary');
  await look('lobby');
  for (const g of catalog.games) {
    await page.goto(`${BASE}/#/new/${g.name}`);
    await page.waitForSelector('#start');
    await page.click('#new summary');
    for (const sel of await page.locator('.seatkind').all()) await sel.selectOption('ai');
    await look(`new game ${g.name}`);
    // French elides: "partie d'Échecs draconiques", not "de Échecs".
    if (g.name === 'dragonchess') assert.equal(await page.textContent('.newgame h1'), "Nouvelle partie d'Échecs draconiques");
    await page.goto(`${BASE}/#/rules/${g.name}`);
    await page.waitForSelector('article.rules h1');
    await look(`rules ${g.name}`, ['dragonchess']);
    await startVsAi(page, g.name);
    if ((await myTurn(page)) === 'mine') await clickMove(page);
    await myTurn(page);
    await look(`game ${g.name}`);
  }
  if (has('dragonchess')) {
    // A move the rules refuse, said in French with its reason.
    const created = await call('/api/games', { spec: 'dragonchess', seats: [{ type: 'human' }, { type: 'human', invite: true }] });
    await page.goto(`${BASE}/#/game/${created.id}`);
    await page.waitForSelector('.game[data-turn="mine"]');
    await page.fill('.typemove input', 'W2e2-2e5');
    await page.click('.typemove button');
    await page.waitForSelector('.refusal:not([hidden])');
    const why = filled(fr.why.cannot_reach, { from: '2e2', to: '2e5' });
    assert.equal(await page.textContent('.refusal'), filled(fr.errors.illegal_move, { detail: why }));
    await look('a refused move');
  }
  await page.goto(`${BASE}/#/@/${name}`);
  await page.waitForSelector('#finished .gamerow');
  await look('profile');
  await page.goto(`${BASE}/#/tournaments`);
  await page.waitForSelector('#newtourney');
  await page.click('#newtourney summary');
  await look('tournament form');
  await page.fill('#newtourney input[name="name"]', `Soirée ${stamp}`);
  await page.click('#newtourney button[type="submit"]');
  await page.waitForSelector('.tournament h1');
  await look('tournament');
  await page.goto(`${BASE}/#/tournaments`);
  await page.waitForSelector('.gamerow');
  await look('tournament list');
  await page.goto(`${BASE}/#/account`);
  await page.waitForSelector('main h1, main h2');
  await look('account');
  await page.screenshot({ path: path.join(SHOTS, `french-walk-account-${kind}.png`), fullPage: true });
  assert.deepEqual(found, []);
  assert.deepEqual([...errors, ...other.errors], []);
  await other.context.close();
  await context.close();
});

test('a Gildervaik chain jump draws its path through every landing, when chosen and as the last move (English desktop, French phone)', { skip: !has('gildervaik') }, async () => {
  // Spec E2: e5 reaches g7 by a chain over e6 and f7 (landing on e7), written e5-g7.
  const created = await post('/api/games', { spec: 'gildervaik', position: 'A:e3,e5 B:e6,f5 C:f7,g6 / A' });
  const view = await (await fetch(`${BASE}/api/games/${created.id}`)).json();
  assert.deepEqual(view.state.routes['e5-g7'], ['e5', 'e7', 'g7']);
  for (const [kind, locale] of [['desktop', 'en-US'], ['phone', 'fr-FR']]) {
    const { context, page, errors } = await newPage(kind, { locale });
    await page.goto(`${BASE}/#/game/${created.id}${kind === 'phone' ? '' : `?t=${created.tokens[0].token}`}`);
    if (kind === 'phone') {
      // A spectator sees the move made in the first browser: its path, drawn as the last move.
      await page.waitForSelector('.game[data-ply="1"]');
    } else {
      await page.waitForSelector('.game[data-turn="mine"]');
      await page.locator('circle.pawn[data-at="e5"]').click({ force: true });
      // Choosing: each chain's path is drawn, its landings on the way ringed.
      await page.waitForSelector('svg.board .route.choice');
      assert.equal(await page.locator('svg.board .route.choice').count(), Object.keys(view.state.routes).length);
      assert.equal(await page.locator('g.cell.via[data-key="e7"]').count(), 1);
      await page.screenshot({ path: path.join(SHOTS, `chain-choice-${kind}.png`) });
      await page.locator('g.cell.target[data-key="g7"]').click({ force: true });
      await page.waitForSelector('.game[data-ply="1"]');
    }
    await page.waitForSelector('svg.board .route.last');
    const points = await page.getAttribute('svg.board .route.last', 'points');
    assert.equal(points.trim().split(/\s+/).length, 3, 'e5, e7, g7');
    const lit = await page.locator('g.cell.last').evaluateAll((cells) => cells.map((c) => c.dataset.key).sort());
    assert.deepEqual(lit, ['e5', 'e7', 'g7']);
    await page.screenshot({ path: path.join(SHOTS, `chain-last-${locale}-${kind}.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  }
  const after = await (await fetch(`${BASE}/api/games/${created.id}`)).json();
  assert.deepEqual(after.history[0].route, ['e5', 'e7', 'g7']);
});

test('phone Dragonchess: another player\'s move on a level not shown is said in words, and a tap shows that level (French and English)', { skip: !has('dragonchess') }, async () => {
  for (const [locale, words, scarlet, sylph, sky] of [['fr-FR', fr, 'Écarlate', 'Sylphe', 'Air'], ['en-US', en, 'Scarlet', 'Sylph', 'Sky']]) {
    const created = await post('/api/games', { spec: 'dragonchess' });
    const { context, page, errors } = await newPage('phone', { locale });
    await page.goto(`${BASE}/#/game/${created.id}?t=${created.tokens[0].token}`);
    await page.waitForSelector('.game[data-turn="mine"]');
    await post(`/api/games/${created.id}/move`, { token: created.tokens[0].token, action: 'W2e2-2e3' });
    await post(`/api/games/${created.id}/move`, { token: created.tokens[1].token, action: 'S3a7-3b6' });
    await page.waitForSelector('.game[data-ply="2"]');
    const note = page.locator('.level-note');
    await note.waitFor();
    const move = filled(words.dragonchess.moveWords, { piece: sylph, from: '3a7', to: '3b6' });
    assert.equal(await note.textContent(), filled(words.game.otherLevel, { side: scarlet, move, level: sky }));
    await page.screenshot({ path: path.join(SHOTS, `dragonchess-level-note-${locale}.png`) });
    await note.click();
    await page.waitForSelector('.level-tabs button[data-level="3"][aria-selected="true"]');
    assert.equal(await page.locator('[data-at="3b6"]').count(), 1, 'the Sky shows the Sylph where it went');
    assert.ok(await note.isHidden(), 'said while the level is not shown');
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('the end of a three-player game lights only the last move, live and after a reload, and says why it ended (French phone, English desktop)', { skip: !has('gildervaik') }, async () => {
  // A's tenth pawn is two steps from B's zone (spec E5, one step further back).
  const position = 'A:g13,h11,h15,i13,i15,i17,j13,j15,j17,j19 B:a1 C:j1 / A';
  for (const [kind, locale, words] of [['phone', 'fr-FR', fr], ['desktop', 'en-US', en]]) {
    const { context, page, errors } = await newPage(kind, { locale });
    await page.goto(`${BASE}/`);
    await page.waitForSelector('.card');
    // The seat is this browser's by its session only (as a lobby or tournament game's): no token kept.
    const { id } = await page.evaluate(async (pos) => (await fetch('/api/games', {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ spec: 'gildervaik', position: pos, seats: [{ type: 'human' }, { type: 'ai', level: 'random' }, { type: 'ai', level: 'random' }] }),
    })).json(), position);
    await page.goto(`${BASE}/#/game/${id}`);
    const step = async (from, to, plies) => {
      await page.waitForSelector('.game[data-turn="mine"]');
      await page.locator(`g.cell[data-key="${from}"]`).click({ force: true });
      await page.locator(`g.cell.target[data-key="${to}"]`).click({ force: true });
      await page.waitForSelector(`.game[data-ply="${plies}"]`);
    };
    await step('h11', 'h12', 3);
    await step('h12', 'h13', 4);
    await page.waitForSelector('.game[data-turn="over"]');
    const lit = () => page.locator('g.cell.last').evaluateAll((cells) => cells.map((c) => c.dataset.key).sort());
    assert.deepEqual(await lit(), ['h12', 'h13'], 'the winning move only');
    const how = words.over.how.conquest;
    assert.ok((await page.textContent('.over-panel h2')).includes(how), await page.textContent('.over-panel h2'));
    assert.ok((await page.textContent('.status')).includes(how));
    await page.screenshot({ path: path.join(SHOTS, `gildervaik-end-${locale}-${kind}.png`) });
    await page.reload();
    await page.waitForSelector('.game[data-turn="over"] g.cell.last');
    assert.deepEqual(await lit(), ['h12', 'h13'], 'the same after a reload');
    assert.deepEqual(errors, []);
    await context.close();
  }
});

/**
 * Play one move on the analysis board by clicking: the first piece with a
 * target on the level shown, or (a phone's Dragonchess) on the level its
 * tab marks with a dot.
 */
async function playOnAnalysisBoard(page) {
  const pieces = page.locator('.analysis-board svg.board .cell.from');
  const n = await pieces.count();
  for (let i = 0; i < n; i++) {
    await pieces.nth(i).click();
    if (await page.locator('svg.board .cell.target').count()) break;
    const dot = page.locator('.level-tabs button.targets');
    if (await dot.count()) { await dot.first().click(); break; }
  }
  await page.locator('svg.board .cell.target').first().click();
  const chooser = page.locator('dialog.chooser[open] button[data-i="0"]');
  if (await chooser.count()) await chooser.click();
}

const boardData = (page, key) => page.$eval('.analysis-board', (s, k) => s.dataset[k], key);

test('a finished game is analysed on a phone: the chart, a blunder clicked shows the better move on the board, and the analysis board opens at that ply, moves, and comes back from its link', { skip: !has('dragonchess') }, async () => {
  // Two people play through the API (a fixed pick among the legal moves), then one resigns.
  const created = await post('/api/games', { spec: 'dragonchess', seats: [{ type: 'human' }, { type: 'human' }] });
  const token = Object.fromEntries(created.tokens.map((s) => [s.seat, s.token]));
  for (let i = 0; i < 16; i++) {
    const g = await (await fetch(`${BASE}/api/games/${created.id}`)).json();
    const legal = g.state.legal;
    await post(`/api/games/${created.id}/move`, { token: token[g.state.turn.seat], action: legal[(i * 7919) % legal.length], ply: g.state.ply });
  }
  await post(`/api/games/${created.id}/resign`, { token: token[0] });
  const { context, page, errors } = await newPage('phone');
  await page.goto(`${BASE}/#/game/${created.id}`);
  await page.click('[data-act="analyse"]');
  await page.waitForSelector('.analysis-chart .mark.blunder', { timeout: 120000 });
  assert.equal(await page.locator('.analysis-chart .line').count(), 2, 'one line per player');
  assert.ok(await page.locator('.moves .mark.blunder').count() > 0, 'the blunder is marked in the move list');
  const mark = page.locator('.analysis-chart .mark.blunder').first();
  const at = Number(await mark.getAttribute('data-ply'));
  await mark.click();
  // The position before the blunder, and the engine's move drawn on the board.
  await page.waitForFunction((n) => new RegExp(`\\b${n}\\b`).test(document.querySelector('.plyinfo')?.textContent ?? ''), at);
  const analysis = await (await fetch(`${BASE}/api/games/${created.id}/analysis`)).json();
  const best = analysis.plies[at].best;
  // A phone shows one Dragonchess level: the one the better move goes to.
  const level = best.split(/[-x]/).pop()[0];
  const tab = page.locator(`.level-tabs button[data-level="${level}"]`);
  if (await tab.count()) await tab.click();
  await page.waitForSelector('svg.board .hint');
  assert.match(await page.textContent('.analysis-summary'), /accuracy/);
  await page.screenshot({ path: path.join(SHOTS, 'analysis-phone.png'), fullPage: true });
  assert.deepEqual(await axeViolations(page), []);

  // The analysis board at that ply: the position before the blunder, the engine's lines.
  const game = await (await fetch(`${BASE}/api/games/${created.id}`)).json();
  const shown = at === 0 ? game.start : game.history[at - 1].pos;
  await page.click('[data-act="board"]');
  await page.waitForSelector('.analysis-board[data-lines="ready"]', { timeout: 60000 });
  assert.equal(await boardData(page, 'position'), shown, 'the ply shown in the replay');
  const lines = () => page.locator('.lines li button[data-action]').allTextContents();
  const first = await lines();
  assert.ok(first.length >= 1, 'the engine names its moves');
  const legal = async (position) => (await post('/api/position', { spec: 'dragonchess', position })).legal;
  for (const a of first) assert.ok((await legal(shown)).includes(a), `${a} is legal where it is proposed`);
  const verdicts = Object.values(en.hint.verdict);
  for (const w of await page.locator('.lines .words').allTextContents()) assert.ok(verdicts.includes(w), w);
  await page.waitForSelector('.analysis-board svg.board .hint, .analysis-board .level-tabs');
  // A move for the side to move: the board and the lines follow it.
  await playOnAnalysisBoard(page);
  await page.waitForSelector('.analysis-board[data-lines="ready"][data-lines-ply="1"]', { timeout: 60000 });
  const after = await boardData(page, 'position');
  assert.notEqual(after, shown);
  for (const a of await lines()) assert.ok((await legal(after)).includes(a), `${a} is a move of the new side to move`);
  assert.match(await page.textContent('.plyinfo'), /\b1\b/);
  // Back one move, forward again (by its key): the same positions.
  await page.click('.analysis-board [data-nav="prev"]');
  await page.waitForFunction((p) => document.querySelector('.analysis-board').dataset.position === p, shown);
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((p) => document.querySelector('.analysis-board').dataset.position === p, after);
  await page.screenshot({ path: path.join(SHOTS, 'analysis-board-phone.png'), fullPage: true });
  assert.deepEqual(await axeViolations(page), []);
  // The share link restores the board, its move included.
  const link = await page.inputValue('.analysis-board input.share');
  await page.goto('about:blank');
  await page.goto(link);
  await page.waitForSelector('.analysis-board[data-lines="ready"]', { timeout: 60000 });
  assert.equal(await boardData(page, 'position'), after);
  assert.equal(await boardData(page, 'ply'), '1');
  await page.click('.analysis-board [data-nav="first"]');
  await page.waitForFunction((p) => document.querySelector('.analysis-board').dataset.position === p, shown);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the analysis board in French on a phone: a pasted position, a bad one refused in French, Stelpur\'s roll picked before its lines', { skip: (!has('gildervaik') || !has('stelpur')) && 'needs gildervaik and stelpur' }, async () => {
  const { context, page, errors } = await frenchPage('phone');
  await page.goto(`${BASE}/#/analysis/gildervaik?spec=${encodeURIComponent('gildervaik(mode=warrior)')}`);
  await page.waitForSelector('.analysis-board[data-lines="ready"]', { timeout: 60000 });
  const pasted = 'A:e5,e3 B:f6,j19 C:j1,j3 / A';
  const canonical = (await post('/api/position', { spec: 'gildervaik(mode=warrior)', position: pasted })).position;
  await page.fill('.setup textarea', pasted);
  await page.click('.setup button[type="submit"]');
  await page.waitForFunction((p) => document.querySelector('.analysis-board').dataset.position === p, canonical);
  await page.waitForSelector('.analysis-board[data-lines="ready"][data-lines-ply="0"]', { timeout: 60000 });
  assert.ok((await page.textContent('.lines-status')).startsWith(fr.analysis.board.linesFor.split('{{')[0]));
  const verdicts = Object.values(fr.hint.verdict);
  for (const w of await page.locator('.lines .words').allTextContents()) assert.ok(verdicts.includes(w), w);
  await page.screenshot({ path: path.join(SHOTS, 'analysis-board-fr-phone.png'), fullPage: true });
  assert.deepEqual(await axeViolations(page), []);
  await page.fill('.setup textarea', 'xx');
  await page.click('.setup button[type="submit"]');
  await page.waitForSelector('.analysis-board .verdict.refused');
  assert.ok((await page.textContent('.verdict')).startsWith(fr.errors.bad_position.split('{{')[0]));
  assert.equal(await boardData(page, 'position'), canonical, 'a refused position changes nothing');
  // Ad Elta Stelpur opens on a roll: no lines until the player picks one.
  await page.goto(`${BASE}/#/analysis/stelpur`);
  await page.waitForSelector('.analysis-board[data-lines="chance"]');
  assert.equal(await page.textContent('.lines-status'), fr.analysis.board.noLinesRoll);
  await page.locator('.analysis-board .buttons button').first().click();
  await page.waitForSelector('.analysis-board[data-lines="ready"][data-lines-ply="1"]', { timeout: 60000 });
  assert.ok(await page.locator('.lines li').count() >= 1);
  await page.screenshot({ path: path.join(SHOTS, 'analysis-board-stelpur-fr-phone.png'), fullPage: true });
  assert.deepEqual(await axeViolations(page), []);
  assert.deepEqual(errors, []);
  await context.close();
});
