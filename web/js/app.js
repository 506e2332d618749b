// Tabula in the browser: a tiny hash router over four pages.
//   #/                 home: the games, new game, games in progress
//   #/new/<game>       new game: options, seats, AI level
//   #/game/<id>[?t=..] a game (a seat token in the link joins that seat)
//   #/rules/<game>     the rules (`#/rules/<game>/reference`: the full spec; `#/rules/reference`: shared conventions)
//   #/lobby[/<seek>]   open challenges (a seek id: a challenge shared by link)
//   #/login, #/account sign in or up; the account's settings
//   #/@/<name>         a player's profile
//   #/tournaments, #/tournament/<id>  tournaments; one's standings and pairings
//   #/learn[/<game>[/<id>]], #/puzzles/<game>  lessons and puzzles (learn.js)
//   #/analysis/<game>?position=..  the analysis board (analysisboard.js)
import { api, knownGames, playerName, setPlayerName, rememberSeat, whoAmI } from './api.js';
import { LobbyPage } from './lobby.js';
import { TournamentsPage, TournamentPage } from './tournament.js';
import { loginPage, accountPage } from './account.js';
import { profilePage, leaderboardPage, resultText } from './profile.js';
import { watchYourTurn } from './yourturn.js';
import { clockOptions, clockValue } from './clock.js';
import { soundOn, setSound } from './sound.js';
import { boards } from './boards/index.js';
import { drawRunes } from './boards/stelpur.js';
import { GamePage } from './game.js';
import { learnHome, LessonPage, PuzzlePage } from './learn.js';
import { AnalysisBoardPage } from './analysisboard.js';
import { optionFields, wireOptions, specFrom } from './options.js';
import { esc, levelLabel, gameText, sideLabel } from './util.js';
import { t, initI18n, translateStatic, language, saveLanguage, LANGUAGES, LANGUAGE_NAMES } from './i18n.js';

const main = document.getElementById('app');
/** The AI level offered first: the server's default for a seat without one. */
const DEFAULT_LEVEL = 'level3';
let catalog = null;
let page = null;
/** `{username}` when signed in, else `{username: null}` (a guest). */
let me = { username: null };

/** The header's account link: the name, or "Sign in". */
function showMe() {
  const link = document.getElementById('me-link');
  link.textContent = me.username || t('account.signIn');
  link.href = me.username ? '#/account' : '#/login';
}

function signedIn(who) {
  me = who || { username: null };
  showMe();
  location.hash = me.username ? '#/lobby' : '#/';
  if (!who) whoAmI().then((w) => { me = w; showMe(); });
}

function toast(text, bad = false) {
  const box = document.getElementById('toast');
  box.textContent = text;
  box.className = bad ? 'show bad' : 'show';
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.className = ''; }, 3500);
}

async function getCatalog() {
  catalog = catalog || (await api('/api/catalog'));
  return catalog;
}

function thumbnail(g) {
  const b = boards[g.name];
  if (!b) return '';
  try { return b.draw(b.parse(g.start), { thumb: true }); } catch { return ''; }
}

async function home() {
  const cat = await getCatalog();
  const cards = cat.games.map((g) => `
    <article class="card">
      <a class="pic" href="#/new/${g.name}" tabindex="-1" aria-hidden="true">${thumbnail(g)}</a>
      <h2>${esc(gameText(g.name, 'title', g.title))}</h2>
      <p>${esc(gameText(g.name, 'description', g.description))}</p>
      <p class="muted">${esc(t('home.players', { count: g.players, sides: g.sides.map((s) => sideLabel(g.name, s)).join(', ') }))}</p>
      <div class="row">
        <a class="button" href="#/new/${g.name}">${esc(t('home.newGame'))}</a>
        <a class="button ghost" href="#/rules/${g.name}">${esc(t('home.rules'))}</a>
        <a class="button ghost" href="#/learn/${g.name}">${esc(t('home.learn'))}</a>
      </div>
    </article>`).join('');
  main.innerHTML = `
    <section class="intro">
      <h1>${esc(t('home.title'))}</h1>
      <p class="newcomer">${esc(t('home.newcomer'))} <a href="#/learn">${esc(t('home.learnAll'))}</a></p>
      <label class="name">${esc(t('home.yourName'))} <input id="myname" maxlength="32" autocomplete="nickname" value="${esc(playerName())}" placeholder="${esc(t('home.namePlaceholder'))}"></label>
    </section>
    <div id="yourturn"></div>
    <section class="cards">${cards || `<p>${esc(t('home.noGames'))}</p>`}</section>
    <section>
      <h2>${esc(t('home.inProgress'))}</h2>
      <div id="games" class="list muted">${esc(t('app.loading'))}</div>
      <details class="import">
        <summary>${esc(t('import.title'))}</summary>
        <form id="import">
          <input type="file" id="recfile" accept=".txt,text/plain">
          <textarea id="rectext" rows="6" translate="no" placeholder="[Tabula record]&#10;game: ..."></textarea>
          <label>${esc(t('import.otherSeats'))} <select id="impseats"><option value="human">${esc(t('import.people'))}</option><option value="ai">${esc(t('import.ai'))}</option></select></label>
          <button type="submit">${esc(t('import.submit'))}</button>
        </form>
      </details>
    </section>`;
  document.getElementById('myname').addEventListener('change', (e) => setPlayerName(e.target.value.trim()));
  const file = document.getElementById('recfile');
  file.addEventListener('change', async () => {
    if (file.files[0]) document.getElementById('rectext').value = await file.files[0].text();
  });
  document.getElementById('import').addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      const record = document.getElementById('rectext').value;
      const ai = document.getElementById('impseats').value === 'ai';
      const probe = /game:\s*([a-z]+)/.exec(record);
      const info = cat.games.find((g) => probe && g.name === probe[1]);
      const seats = info ? Array.from({ length: info.players }, (_, i) => (i > 0 && ai ? { type: 'ai' } : { type: 'human' })) : [];
      const res = await api('/api/games/import', { record, seats });
      res.tokens.forEach((s) => rememberSeat(res.id, s.seat, s.token));
      location.hash = `#/game/${res.id}`;
    } catch (err) { toast(err.message, true); }
  });
  watchYourTurn(document.getElementById('yourturn'));
  const list = await api('/api/games');
  const mine = new Set(knownGames());
  const rows = list.filter((g) => !g.over || mine.has(g.id))
    .sort((a, b) => Number(mine.has(b.id)) - Number(mine.has(a.id)))
    .slice(0, 30);
  document.getElementById('games').innerHTML = rows.length ? rows.map((g) => `
    <a class="gamerow" href="#/game/${g.id}">
      <strong>${esc(gameText(g.game, 'title', g.title))}</strong>
      <span>${g.players.map((p) => esc(p.kind === 'ai' && p.level ? levelLabel(p.level) : p.name === p.side ? sideLabel(g.game, p.side) : p.name)).join(' · ')}</span>
      <span class="muted">${esc(g.over ? resultText(g) : t('moves.ply', { n: g.ply }))}${mine.has(g.id) ? esc(t('home.yours')) : ''}</span>
    </a>`).join('') : esc(t('home.noGamesYet'));
}

async function newGame(name) {
  const cat = await getCatalog();
  const g = cat.games.find((x) => x.name === name);
  if (!g) { main.innerHTML = `<p>${esc(t('newGame.unknown', { game: name }))}</p>`; return; }
  const preset = cat.levels.includes(DEFAULT_LEVEL) ? DEFAULT_LEVEL : cat.levels[0];
  const levels = cat.levels.map((l) => `<option value="${esc(l)}"${l === preset ? ' selected' : ''}>${esc(levelLabel(l))}</option>`).join('');
  const seatRows = g.sides.map((side, i) => `
    <div class="seat">
      <span class="chip p${i}">${esc(sideLabel(g.name, side))}</span>
      <select data-seat="${i}" class="seatkind" aria-label="${esc(t('newGame.playedBy', { side: sideLabel(g.name, side) }))}">
        <option value="me"${i === 0 ? ' selected' : ''}>${esc(t('newGame.me'))}</option>
        <option value="ai"${i > 0 ? ' selected' : ''}>${esc(t('newGame.ai'))}</option>
        <option value="friend">${esc(t('newGame.friend'))}</option>
      </select>
      <select data-level="${i}" class="level" aria-label="${esc(t('newGame.levelFor', { side: sideLabel(g.name, side) }))}">${levels}</select>
    </div>`).join('');
  main.innerHTML = `
    <section class="newgame">
      <h1>${esc(t('newGame.title', { game: gameText(g.name, 'title', g.title) }))}</h1>
      <div class="pic big">${thumbnail(g)}</div>
      <form id="new">
        <fieldset><legend>${esc(t('newGame.seats'))}</legend>${seatRows}</fieldset>
        <label class="clockpick">${esc(t('clock.control'))} <select id="clock">${clockOptions()}</select></label>
        <details><summary>${esc(t('options.title'))}</summary><div class="options">${optionFields(g)}
          <label><span>${esc(t('options.start'))}</span><input id="startpos" placeholder="${esc(t('options.startPlaceholder'))}" autocomplete="off"><small>${esc(t('options.startHelp'))}</small></label>
        </div></details>
        <button type="submit" id="start">${esc(t('newGame.start'))}</button>
        <a href="#/rules/${g.name}">${esc(t('newGame.readRules'))}</a>
        <a href="#/learn/${g.name}">${esc(t('home.learn'))}</a>
      </form>
    </section>`;
  const sync = () => {
    for (const s of main.querySelectorAll('.seatkind')) {
      main.querySelector(`[data-level="${s.dataset.seat}"]`).hidden = s.value !== 'ai';
    }
  };
  main.querySelectorAll('.seatkind').forEach((s) => s.addEventListener('change', sync));
  sync();
  const options = main.querySelector('.options');
  wireOptions(options);
  document.getElementById('new').addEventListener('submit', async (e) => {
    e.preventDefault();
    const spec = specFrom(g, options);
    const kinds = [...main.querySelectorAll('.seatkind')].map((s) => s.value);
    const seats = kinds.map((k, i) => (k === 'ai'
      ? { type: 'ai', level: main.querySelector(`[data-level="${i}"]`).value }
      : { type: 'human', invite: k === 'friend', name: k === 'me' ? playerName() || undefined : undefined }));
    try {
      const position = document.getElementById('startpos').value.trim() || undefined;
      const clock = clockValue(document.getElementById('clock').value);
      const res = await api('/api/games', { spec, seats, position, clock });
      for (const s of res.tokens) rememberSeat(res.id, s.seat, s.token, kinds[s.seat] === 'friend');
      location.hash = `#/game/${res.id}`;
    } catch (err) { toast(err.message, true); }
  });
}

/** A rules page: a game's (`reference` set: its full spec), or `reference`, the shared conventions. */
async function rules(name, reference) {
  main.innerHTML = `<p class="muted">${esc(t('app.loading'))}</p>`;
  const r = await api(`/api/rules/${encodeURIComponent(name)}${reference ? '/reference' : `?lang=${language()}`}`);
  const links = r.game
    ? ` · <a href="#/rules/${esc(r.game)}">${esc(t('rules.players'))}</a> · <a href="#/new/${esc(r.game)}">${esc(t('home.newGame'))}</a> · <a href="#/learn/${esc(r.game)}">${esc(t('home.learn'))}</a>`
    : '';
  main.innerHTML = `<article class="rules"><p><a href="#/">${esc(t('rules.back'))}</a>${links}</p>${drawRunes(r.html)}</article>`;
  // Wide diagrams scroll sideways: reachable by keyboard too.
  for (const pre of main.querySelectorAll('article.rules pre')) pre.tabIndex = 0;
  window.scrollTo(0, 0);
}

async function route() {
  page?.close();
  page = null;
  const [path, query = ''] = location.hash.replace(/^#/, '').split('?');
  const parts = path.split('/').filter(Boolean);
  try {
    if (parts[0] === 'new' && parts[1]) await newGame(parts[1]);
    else if (parts[0] === 'lobby') {
      page = new LobbyPage(main, await getCatalog(), toast, parts[1]);
      await page.open();
    } else if (parts[0] === 'tournaments') {
      page = new TournamentsPage(main, await getCatalog(), toast, me);
      await page.open();
    } else if (parts[0] === 'tournament' && parts[1]) {
      page = new TournamentPage(main, parts[1], toast, me);
      await page.open();
    } else if (parts[0] === 'login') loginPage(main, toast, signedIn);
    else if (parts[0] === 'account' && me.username) accountPage(main, me, toast, signedIn);
    else if (parts[0] === '@' && parts[1]) {
      const name = decodeURIComponent(parts[1]);
      await profilePage(main, name);
      // One's own page: the games awaiting one's move.
      const own = main.querySelector('#yourturn');
      if (own && me.username?.toLowerCase() === name.toLowerCase()) watchYourTurn(own);
    }
    else if (parts[0] === 'leaderboard' && parts[1]) await leaderboardPage(main, decodeURIComponent(parts[1]));
    else if (parts[0] === 'rules' && parts[1]) await rules(parts[1], parts[2] === 'reference');
    else if (parts[0] === 'learn' && !parts[1]) await learnHome(main, toast);
    else if (parts[0] === 'learn') {
      page = new LessonPage(main, parts[1], parts.slice(2).join('/') || null, toast);
      await page.open();
    } else if (parts[0] === 'puzzles' && parts[1]) {
      page = new PuzzlePage(main, parts[1], toast);
      await page.open();
    } else if (parts[0] === 'analysis' && parts[1]) {
      page = new AnalysisBoardPage(main, decodeURIComponent(parts[1]), query, toast);
      await page.open();
    }
    else if (parts[0] === 'game' && parts[1]) {
      const token = new URLSearchParams(query).get('t');
      page = new GamePage(main, parts[1], token, toast);
      await page.open();
    } else await home();
    main.focus({ preventScroll: true });
    // A new page opens at its top, not at the previous page's scroll.
    window.scrollTo(0, 0);
  } catch (err) {
    main.innerHTML = `<p class="error">${esc(err.message)}</p><p><a href="#/">${esc(t('app.backToGames'))}</a></p>`;
  }
}

const soundButton = document.getElementById('sound-toggle');
const showSound = () => {
  soundButton.textContent = soundOn() ? t('app.soundOn') : t('app.soundOff');
  soundButton.setAttribute('aria-pressed', String(soundOn()));
};
soundButton.addEventListener('click', () => { setSound(!soundOn()); showSound(); });
const langSwitch = document.getElementById('lang-switch');
await initI18n();
langSwitch.innerHTML = LANGUAGES.map((l) => `<option value="${l}" lang="${l}"${l === language() ? ' selected' : ''}>${esc(LANGUAGE_NAMES[l])}</option>`).join('');
langSwitch.addEventListener('change', () => { saveLanguage(langSwitch.value); location.reload(); });
translateStatic();
showSound();
me = await whoAmI();
showMe();
window.addEventListener('hashchange', route);
route();
