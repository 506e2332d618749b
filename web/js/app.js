// Tabula in the browser: a tiny hash router over four pages.
//   #/                 home: the games, new game, games in progress
//   #/new/<game>       new game: options, seats, AI level
//   #/game/<id>[?t=..] a game (a seat token in the link joins that seat)
//   #/rules/<game>     the rules (`#/rules/<game>/reference`: the full spec; `#/rules/reference`: shared conventions)
import { api, knownGames, playerName, setPlayerName, rememberSeat } from './api.js';
import { soundOn, setSound } from './sound.js';
import { boards } from './boards/index.js';
import { GamePage } from './game.js';
import { esc } from './util.js';

const main = document.getElementById('app');
let catalog = null;
let page = null;

function toast(text, bad = false) {
  const t = document.getElementById('toast');
  t.textContent = text;
  t.className = bad ? 'show bad' : 'show';
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.className = ''; }, 3500);
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
      <a class="pic" href="#/new/${g.name}" aria-label="New game of ${esc(g.title)}">${thumbnail(g)}</a>
      <h2>${esc(g.title)}</h2>
      <p>${esc(g.description)}</p>
      <p class="muted">${g.players} players: ${g.sides.map(esc).join(', ')}</p>
      <div class="row">
        <a class="button" href="#/new/${g.name}">New game</a>
        <a class="button ghost" href="#/rules/${g.name}">Rules</a>
      </div>
    </article>`).join('');
  main.innerHTML = `
    <section class="intro">
      <h1>Play</h1>
      <label class="name">Your name <input id="myname" maxlength="32" autocomplete="nickname" value="${esc(playerName())}" placeholder="Player"></label>
    </section>
    <section class="cards">${cards || '<p>No games are registered yet.</p>'}</section>
    <section>
      <h2>Games in progress</h2>
      <div id="games" class="list muted">Loading…</div>
      <details class="import">
        <summary>Import a record file</summary>
        <form id="import">
          <input type="file" id="recfile" accept=".txt,text/plain">
          <textarea id="rectext" rows="6" placeholder="[Tabula record]&#10;game: ..."></textarea>
          <label>Other seats <select id="impseats"><option value="human">people on this browser</option><option value="ai">the AI (level 3)</option></select></label>
          <button type="submit">Continue this game</button>
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
      const seats = info ? Array.from({ length: info.players }, (_, i) => (i > 0 && ai ? { type: 'ai', level: 'level3' } : { type: 'human' })) : [];
      const res = await api('/api/games/import', { record, seats });
      res.tokens.forEach((t) => rememberSeat(res.id, t.seat, t.token));
      location.hash = `#/game/${res.id}`;
    } catch (err) { toast(err.message, true); }
  });
  const list = await api('/api/games');
  const mine = new Set(knownGames());
  const rows = list.filter((g) => !g.over || mine.has(g.id))
    .sort((a, b) => Number(mine.has(b.id)) - Number(mine.has(a.id)))
    .slice(0, 30);
  document.getElementById('games').innerHTML = rows.length ? rows.map((g) => `
    <a class="gamerow" href="#/game/${g.id}">
      <strong>${esc(g.title)}</strong>
      <span>${g.players.map((p) => esc(p.name)).join(' · ')}</span>
      <span class="muted">${g.over ? `over (${esc(g.result)})` : `ply ${g.ply}`}${mine.has(g.id) ? ' · yours' : ''}</span>
    </a>`).join('') : 'No games yet: start one above.';
}

function optionField(o) {
  const id = `opt-${o.key}`;
  const values = o.values.split('|');
  const input = o.values === 'true|false'
    ? `<select id="${id}" data-key="${o.key}"><option${o.default === 'false' ? ' selected' : ''}>false</option><option${o.default === 'true' ? ' selected' : ''}>true</option></select>`
    : values.length > 1 && !/\.\./.test(o.values)
      ? `<select id="${id}" data-key="${o.key}">${values.map((v) => `<option${v === o.default ? ' selected' : ''}>${esc(v)}</option>`).join('')}</select>`
      : `<input id="${id}" data-key="${o.key}" value="${esc(o.default)}" title="${esc(o.values)}">`;
  return `<label title="${esc(o.help)}"><span>${esc(o.key.replaceAll('_', ' '))}</span>${input}<small>${esc(o.help)}</small></label>`;
}

async function newGame(name) {
  const cat = await getCatalog();
  const g = cat.games.find((x) => x.name === name);
  if (!g) { main.innerHTML = `<p>Unknown game ${esc(name)}.</p>`; return; }
  const levels = cat.levels.map((l) => `<option value="${l}"${l === 'level3' ? ' selected' : ''}>${l === 'random' ? 'random moves' : l.replace('level', 'AI level ')}</option>`).join('');
  const seatRows = g.sides.map((side, i) => `
    <div class="seat">
      <span class="chip p${i}">${esc(side)}</span>
      <select data-seat="${i}" class="seatkind" aria-label="${esc(side)} is played by">
        <option value="me"${i === 0 ? ' selected' : ''}>me (this browser)</option>
        <option value="ai"${i > 0 ? ' selected' : ''}>the AI</option>
        <option value="friend">a friend (invite link)</option>
      </select>
      <select data-level="${i}" class="level" aria-label="AI level for ${esc(side)}">${levels}</select>
    </div>`).join('');
  main.innerHTML = `
    <section class="newgame">
      <h1>New game of ${esc(g.title)}</h1>
      <div class="pic big">${thumbnail(g)}</div>
      <form id="new">
        <fieldset><legend>Seats</legend>${seatRows}</fieldset>
        <details><summary>Rule options</summary><div class="options">${g.options.map(optionField).join('') || '<p>No options.</p>'}
          <label><span>start position</span><input id="startpos" placeholder="standard start" autocomplete="off"><small>A position string to start from (the game's format), e.g. a free placement.</small></label>
        </div></details>
        <button type="submit" id="start">Start the game</button>
        <a href="#/rules/${g.name}">Read the rules</a>
      </form>
    </section>`;
  const sync = () => {
    for (const s of main.querySelectorAll('.seatkind')) {
      main.querySelector(`[data-level="${s.dataset.seat}"]`).hidden = s.value !== 'ai';
    }
  };
  main.querySelectorAll('.seatkind').forEach((s) => s.addEventListener('change', sync));
  sync();
  document.getElementById('new').addEventListener('submit', async (e) => {
    e.preventDefault();
    const opts = [];
    for (const el of main.querySelectorAll('.options [data-key]')) {
      const o = g.options.find((x) => x.key === el.dataset.key);
      if (el.value.trim() !== o.default) opts.push(`${o.key}=${el.value.trim()}`);
    }
    const spec = opts.length ? `${g.name}(${opts.join(',')})` : g.name;
    const kinds = [...main.querySelectorAll('.seatkind')].map((s) => s.value);
    const seats = kinds.map((k, i) => (k === 'ai'
      ? { type: 'ai', level: main.querySelector(`[data-level="${i}"]`).value }
      : { type: 'human', invite: k === 'friend', name: k === 'me' ? playerName() || undefined : undefined }));
    try {
      const position = document.getElementById('startpos').value.trim() || undefined;
      const res = await api('/api/games', { spec, seats, position });
      for (const t of res.tokens) rememberSeat(res.id, t.seat, t.token, kinds[t.seat] === 'friend');
      location.hash = `#/game/${res.id}`;
    } catch (err) { toast(err.message, true); }
  });
}

/** A rules page: a game's (`reference` set: its full spec), or `reference`, the shared conventions. */
async function rules(name, reference) {
  main.innerHTML = '<p class="muted">Loading…</p>';
  const r = await api(`/api/rules/${encodeURIComponent(name)}${reference ? '/reference' : ''}`);
  const links = r.game ? ` · <a href="#/rules/${esc(r.game)}">Rules</a> · <a href="#/new/${esc(r.game)}">New game</a>` : '';
  main.innerHTML = `<article class="rules"><p><a href="#/">← Games</a>${links}</p>${r.html}</article>`;
  window.scrollTo(0, 0);
}

async function route() {
  page?.close();
  page = null;
  const [path, query = ''] = location.hash.replace(/^#/, '').split('?');
  const parts = path.split('/').filter(Boolean);
  try {
    if (parts[0] === 'new' && parts[1]) await newGame(parts[1]);
    else if (parts[0] === 'rules' && parts[1]) await rules(parts[1], parts[2] === 'reference');
    else if (parts[0] === 'game' && parts[1]) {
      const token = new URLSearchParams(query).get('t');
      page = new GamePage(main, parts[1], token, toast);
      await page.open();
    } else await home();
    main.focus({ preventScroll: true });
  } catch (err) {
    main.innerHTML = `<p class="error">${esc(err.message)}</p><p><a href="#/">Back to the games</a></p>`;
  }
}

const soundButton = document.getElementById('sound-toggle');
const showSound = () => {
  soundButton.textContent = soundOn() ? 'Sound on' : 'Sound off';
  soundButton.setAttribute('aria-pressed', String(soundOn()));
};
soundButton.addEventListener('click', () => { setSound(!soundOn()); showSound(); });
showSound();
window.addEventListener('hashchange', route);
route();
