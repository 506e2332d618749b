// Tournaments: the list (upcoming, running, finished) with a form to create
// one, and a tournament's page: join or withdraw, the pairings of every
// round with a link to each game (and to one's own game in progress), and
// the standings, polled every few seconds while the page is open.
import { api } from './api.js';
import { esc, gameText } from './util.js';
import { t } from './i18n.js';
import { optionFields, wireOptions, specFrom, specText } from './options.js';

/** How often an open tournament page asks again. */
const POLL_MS = 3000;
/** Real-time controls offered for tournaments: [seconds, increment]. */
const CLOCKS = [[60, 0], [180, 2], [300, 3], [600, 5], [900, 10]];

const clockText = (c) => (c && 'initial_s' in c ? `${c.initial_s / 60}+${c.increment_s}` : '');
const when = (ms) => new Date(ms).toLocaleString();

function summaryRow(s) {
  const length = s.format === 'arena' ? t('tournament.minutes', { count: s.minutes }) : t('tournament.rounds', { count: s.rounds_total });
  return `<a class="gamerow" href="#/tournament/${esc(s.id)}">
    <strong>${esc(s.name)}</strong>
    <span>${esc(specText(s.spec))} · ${esc(t(`tournament.formats.${s.format}`))} · ${esc(clockText(s.clock))} · ${esc(length)}</span>
    <span class="muted">${esc(t('tournament.players', { count: s.count }))} · ${esc(when(s.starts))} · ${esc(t('lobby.by', { name: s.creator }))}</span>
  </a>`;
}

/** Games an arena's page lists (the latest first). */
const ARENA_RECENT = 30;

export class TournamentsPage {
  constructor(main, catalog, toast, me) {
    Object.assign(this, { main, catalog, toast, me, closed: false });
  }

  async open() {
    const list = await api('/api/tournaments');
    const games = this.catalog.games
      .filter((g) => g.sides.length === 2 || g.sides.length === 3)
      .map((g) => `<option value="${esc(g.name)}" data-seats="${g.sides.length}">${esc(gameText(g.name, 'title', g.title))}</option>`).join('');
    const clocks = CLOCKS.map(([i, inc]) => `<option value="${i}:${inc}">${i / 60}+${inc}</option>`).join('');
    const section = (title, items) => `<h2>${esc(title)}</h2><div class="list">${items.length ? items.map(summaryRow).join('') : esc(t('tournament.none'))}</div>`;
    const form = this.me.username ? `
      <form id="newtourney" class="stack">
        <h2>${esc(t('tournament.create'))}</h2>
        <label>${esc(t('tournament.name'))} <input name="name" required maxlength="80"></label>
        <label>${esc(t('lobby.game'))} <select name="game">${games}</select></label>
        <details><summary>${esc(t('options.title'))}</summary><div class="options" id="tourneyoptions"></div></details>
        <label>${esc(t('tournament.format'))} <select name="format"></select></label>
        <label>${esc(t('clock.control'))} <select name="clock">${clocks}</select></label>
        <label>${esc(t('tournament.startIn'))} <input name="start" type="number" min="0" max="10080" value="5"></label>
        <label data-for="rounds">${esc(t('tournament.roundsLabel'))} <input name="rounds" type="number" min="1" max="30" value="3"></label>
        <label data-for="minutes">${esc(t('tournament.minutesLabel'))} <input name="minutes" type="number" min="1" max="1440" value="45"></label>
        <label data-for="tables">${esc(t('tournament.leftover'))} <select name="leftover">
          <option value="ai">${esc(t('tournament.leftoverAi'))}</option>
          <option value="bye">${esc(t('tournament.leftoverBye'))}</option></select></label>
        <label><input name="rated" type="checkbox" checked> ${esc(t('tournament.rated'))}</label>
        <label><input name="bots" type="checkbox"> ${esc(t('tournament.bots'))}</label>
        <button type="submit">${esc(t('tournament.createButton'))}</button>
      </form>` : `<p><a href="#/login">${esc(t('tournament.signInToCreate'))}</a></p>`;
    this.main.innerHTML = `<section class="lobby">
      <h1>${esc(t('tournament.title'))}</h1>
      ${section(t('tournament.running'), list.running)}
      ${section(t('tournament.upcoming'), list.upcoming)}
      ${form}
      ${section(t('tournament.finished'), list.finished)}
    </section>`;
    const f = this.main.querySelector('#newtourney');
    if (!f) return;
    const rules = f.querySelector('#tourneyoptions');
    const formats = () => {
      const g = this.catalog.games.find((x) => x.name === f.game.value);
      rules.innerHTML = optionFields(g);
      wireOptions(rules);
      const seats = Number(f.game.selectedOptions[0]?.dataset.seats || 2);
      const options = seats === 3 ? ['tables'] : ['swiss', 'arena'];
      f.format.innerHTML = options.map((o) => `<option value="${o}">${esc(t(`tournament.formats.${o}`))}</option>`).join('');
      shown();
    };
    const shown = () => {
      const arena = f.format.value === 'arena';
      f.querySelector('[data-for=rounds]').hidden = arena;
      f.querySelector('[data-for=minutes]').hidden = !arena;
      f.querySelector('[data-for=tables]').hidden = f.format.value !== 'tables';
    };
    f.game.addEventListener('change', formats);
    f.format.addEventListener('change', shown);
    formats();
    f.addEventListener('submit', (e) => this.create(e, f));
  }

  close() { this.closed = true; }

  async create(e, f) {
    e.preventDefault();
    const [initial, inc] = f.clock.value.split(':').map(Number);
    const minutesAhead = Number(f.start.value) || 0;
    const body = {
      name: f.name.value.trim(),
      spec: specFrom(this.catalog.games.find((x) => x.name === f.game.value), f.querySelector('#tourneyoptions')),
      format: f.format.value,
      clock: { initial_s: initial, increment_s: inc },
      starts: minutesAhead ? Date.now() + minutesAhead * 60_000 : 'now',
      rated: f.rated.checked,
      bots: f.bots.checked,
    };
    if (body.format === 'arena') body.minutes = Number(f.minutes.value);
    else body.rounds = Number(f.rounds.value);
    if (body.format === 'tables') body.leftover = f.leftover.value === 'bye' ? 'bye' : { ai: { level: 3 } };
    try {
      const { id } = await api('/api/tournaments', body);
      location.hash = `#/tournament/${id}`;
    } catch (err) { this.toast(err.message, true); }
  }
}

export class TournamentPage {
  constructor(main, id, toast, me) {
    Object.assign(this, { main, id, toast, me, closed: false, timer: null });
  }

  async open() {
    this.listening = new AbortController();
    this.main.addEventListener('click', (e) => {
      const b = e.target.closest('button[data-act]');
      if (b) this.act(b.dataset.act);
    }, { signal: this.listening.signal });
    await this.refresh();
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    this.listening?.abort();
  }

  async refresh() {
    clearTimeout(this.timer);
    try {
      const v = await api(`/api/tournaments/${encodeURIComponent(this.id)}`);
      if (this.closed) return;
      this.show(v);
    } catch (err) {
      if (this.closed) return;
      this.toast(err.message, true);
    }
    if (!this.closed) this.timer = setTimeout(() => this.refresh(), POLL_MS);
  }

  async act(verb) {
    try {
      await api(`/api/tournaments/${encodeURIComponent(this.id)}/${verb}`, {});
      await this.refresh();
    } catch (err) { this.toast(err.message, true); }
  }

  show(v) {
    const status = t(`tournament.status.${v.status}`);
    const length = v.format === 'arena'
      ? t('tournament.until', { time: when(v.ends) })
      : t('tournament.rounds', { count: v.rounds_total });
    let action = '';
    if (v.status !== 'finished' && this.me.username) {
      action = v.joined
        ? `<button type="button" class="ghost" data-act="withdraw">${esc(t('tournament.withdraw'))}</button>`
        : `<button type="button" data-act="join">${esc(t('tournament.join'))}</button>`;
    } else if (v.status !== 'finished') action = `<a href="#/login">${esc(t('tournament.signInToJoin'))}</a>`;
    const mine = v.my_game
      ? `<p class="yourgame"><a class="button" href="#/game/${esc(v.my_game)}">${esc(t('tournament.myGame'))}</a></p>` : '';
    const head = (v.tiebreaks || []).map((k) => `<th>${esc(t(`tournament.tiebreaks.${k}`))}</th>`).join('');
    const rows = v.standings.map((s) => `<tr${s.withdrawn ? ' class="muted"' : ''}>
      <td>${s.rank}</td><td><a href="#/@/${esc(encodeURIComponent(s.name))}">${esc(s.name)}</a>${s.withdrawn ? ` (${esc(t('tournament.withdrawn'))})` : ''}</td>
      <td>${s.rating}</td>      <td>${esc(points(s.score))}</td>${s.tiebreaks.map((x) => `<td>${esc(points(x))}</td>`).join('')}<td>${s.played}</td></tr>`).join('');
    // An arena pairs a wave whenever players come free: its many waves are
    // shown as one list of the latest games.
    const recent = v.rounds.flatMap((r) => r.games).reverse().slice(0, ARENA_RECENT);
    const rounds = v.format === 'arena' ? (recent.length ? `<h3>${esc(t('tournament.recent'))}</h3>
      <div class="list">${recent.map((g) => gameRow(g)).join('')}</div>` : '') : [...v.rounds].reverse().map((r) => `<h3>${esc(t('tournament.round', { number: r.number }))}</h3>
      <div class="list">${r.games.map((g) => gameRow(g)).join('')}
      ${r.byes.length ? `<p class="muted">${esc(t('tournament.byes', { names: r.byes.join(', ') }))}</p>` : ''}</div>`).join('');
    const html = `<section class="lobby tournament">
      <p><a href="#/tournaments">${esc(t('tournament.all'))}</a></p>
      <h1>${esc(v.name)}</h1>
      <p>${esc(specText(v.spec))} · ${esc(t(`tournament.formats.${v.format}`))} · ${esc(clockText(v.clock))} · ${esc(length)} · ${esc(v.rated ? t('tournament.ratedTag') : t('tournament.casualTag'))}${v.bots ? ` · ${esc(t('tournament.botsTag'))}` : ''}</p>
      <p><strong>${esc(status)}</strong> · ${esc(v.status === 'upcoming' ? t('tournament.starts', { time: when(v.starts) }) : t('tournament.started', { time: when(v.starts) }))} · ${esc(t('tournament.players', { count: v.count }))} ${action}</p>
      ${mine}
      <h2>${esc(t('tournament.standings'))}</h2>
      <div class="scroll"><table class="standings" aria-live="polite"><thead><tr><th>#</th><th>${esc(t('tournament.player'))}</th>
        <th>${esc(t('tournament.seed'))}</th><th>${esc(t('tournament.score'))}</th>${head}<th>${esc(t('tournament.played'))}</th></tr></thead>
        <tbody>${rows}</tbody></table></div>
      <h2>${esc(t('tournament.pairings'))}</h2>
      ${rounds || `<p>${esc(t('tournament.notPaired'))}</p>`}
    </section>`;
    // Redrawn only when something changed: a button being pressed stays put.
    if (html !== this.shown) this.main.innerHTML = html;
    this.shown = html;
  }
}

/** A score in points, at most two decimals. */
function points(x) {
  return String(Math.round(x * 100) / 100);
}

function gameRow(g) {
  // A place, not points: "ana (2nd place)", in words.
  const seat = (s, i) => {
    const name = s.name ?? t('tournament.ai', { level: s.ai });
    return g.places ? t('tournament.placed', { name, count: g.places[i] + 1 }) : name;
  };
  const seats = g.seats.map(seat).join(' · ');
  const state = g.places ? t('tournament.over') : t('tournament.playing');
  return `<a class="gamerow" href="#/game/${esc(g.id)}"><span>${esc(seats)}</span> <span class="muted">${esc(state)}</span></a>`;
}
