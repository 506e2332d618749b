// The lobby: open challenges, live; post one, accept one with a tap, and
// the games awaiting this browser's move. A challenge lives while its
// creator keeps this page open.
import { api } from './api.js';
import { esc, levelLabel, gameText, sideLabel } from './util.js';
import { t } from './i18n.js';
import { watchYourTurn } from './yourturn.js';
import { clockOptions, clockValue } from './clock.js';
import { optionFields, wireOptions, specFrom, specText } from './options.js';

export class LobbyPage {
  constructor(main, catalog, toast, focus) {
    this.main = main;
    this.catalog = catalog;
    this.toast = toast;
    this.focus = focus; // a seek id from a shared link
    this.closed = false;
  }

  async open() {
    const games = this.catalog.games.map((g) => `<option value="${esc(g.name)}">${esc(gameText(g.name, 'title', g.title))}</option>`).join('');
    this.main.innerHTML = `
      <section class="lobby">
        <h1>${esc(t('lobby.title'))}</h1>
        <div id="yourturn"></div>
        <h2>${esc(t('lobby.open'))}</h2>
        <div id="seeks" class="list" aria-live="polite">${esc(t('app.loading'))}</div>
        <form id="seek" class="stack">
          <h2>${esc(t('lobby.post'))}</h2>
          <label>${esc(t('lobby.game'))} <select name="game">${games}</select></label>
          <details><summary>${esc(t('options.title'))}</summary><div class="options" id="seekoptions"></div></details>
          <div id="seekseats"></div>
          <label>${esc(t('clock.control'))} <select name="clock">${clockOptions()}</select></label>
          <label><input type="checkbox" name="hints"> ${esc(t('lobby.hints'))}</label>
          <label><input type="checkbox" name="rated"> ${esc(t('lobby.rated'))}</label>
          <label>${esc(t('lobby.to'))} <input name="to" maxlength="20" autocomplete="off" placeholder="${esc(t('lobby.toPlaceholder'))}"></label>
          <label><input type="checkbox" name="unlisted"> ${esc(t('lobby.unlisted'))}</label>
          <button type="submit">${esc(t('lobby.postButton'))}</button>
        </form>
      </section>`;
    const form = this.main.querySelector('#seek');
    const options = this.main.querySelector('#seekoptions');
    const seats = () => {
      const g = this.catalog.games.find((x) => x.name === form.game.value);
      options.innerHTML = optionFields(g);
      wireOptions(options);
      const levels = this.catalog.levels.map((l) => `<option value="ai:${esc(l)}">${esc(levelLabel(l))}</option>`).join('');
      this.main.querySelector('#seekseats').innerHTML = g.sides.map((side, i) => `
        <label>${esc(sideLabel(g.name, side))} <select data-seat="${i}">
          <option value="me"${i === 0 ? ' selected' : ''}>${esc(t('newGame.me'))}</option>
          <option value="open"${i > 0 ? ' selected' : ''}>${esc(t('lobby.openSeat'))}</option>
          ${levels}
        </select></label>`).join('');
    };
    form.game.addEventListener('change', seats);
    seats();
    form.addEventListener('submit', (e) => this.post(e, form));
    watchYourTurn(this.main.querySelector('#yourturn'), { ask: true });
    this.connect();
  }

  close() {
    this.closed = true;
    this.ws?.close();
  }

  connect() {
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${proto}://${location.host}/api/lobby/ws`);
    this.ws = ws;
    ws.onmessage = (e) => {
      const msg = JSON.parse(e.data);
      if (msg.type === 'seeks') this.show(msg.seeks);
    };
    ws.onclose = () => { if (!this.closed) setTimeout(() => !this.closed && this.connect(), 1000); };
  }

  async show(seeks) {
    if (this.focus && !seeks.some((s) => s.id === this.focus)) {
      // A challenge shared by link: not listed, but shown to whoever has it.
      const one = await api(`/api/seeks/${encodeURIComponent(this.focus)}`).catch(() => null);
      if (one) seeks = [one, ...seeks];
    }
    const started = seeks.find((s) => s.mine && s.game);
    if (started && !this.closed) { location.hash = `#/game/${started.game}`; return; }
    const box = this.main.querySelector('#seeks');
    box.innerHTML = seeks.length ? seeks.map((s) => this.row(s)).join('') : esc(t('lobby.none'));
    for (const b of box.querySelectorAll('button[data-accept]')) b.addEventListener('click', () => this.accept(b.dataset.accept));
    for (const b of box.querySelectorAll('button[data-cancel]')) b.addEventListener('click', () => this.cancel(b.dataset.cancel));
  }

  row(s) {
    const seats = s.seats.map((x) => (x.state === 'open' ? t('lobby.openSeat') : x.state === 'ai' ? levelLabel(x.level) : x.bot ? `${x.name} (${t('players.bot')})` : x.name)).join(' · ');
    const clock = s.clock ? ('days' in s.clock ? t('clock.days', { count: s.clock.days }) : `${s.clock.initial_s / 60}+${s.clock.increment_s}`) : t('clock.none');
    const tags = [clock, s.rated ? t('lobby.ratedTag') : s.hints ? t('lobby.withHints') : t('lobby.casual'), s.to ? t('lobby.forUser', { name: s.to }) : '', s.unlisted ? t('lobby.byLink') : '']
      .filter(Boolean).join(' · ');
    const action = s.mine
      ? `<button type="button" class="ghost" data-cancel="${esc(s.id)}">${esc(t('lobby.cancel'))}</button>`
      : `<button type="button" data-accept="${esc(s.id)}">${esc(t('lobby.accept'))}</button>`;
    return `<div class="seekrow" data-seek="${esc(s.id)}">
      <strong>${esc(specText(s.spec))}</strong>
      <span>${esc(t('lobby.by', { name: s.creator }))}: ${esc(seats)}</span>
      <span class="muted">${esc(tags)}</span> ${action}
      ${s.mine && (s.unlisted || s.to) ? `<input readonly class="link" aria-label="${esc(t('lobby.link'))}" value="${esc(`${location.origin}/#/lobby/${s.id}`)}">` : ''}
    </div>`;
  }

  async post(e, form) {
    e.preventDefault();
    const seats = [...this.main.querySelectorAll('#seekseats select')].map((sel) => {
      const v = sel.value;
      return v.startsWith('ai:') ? { type: 'ai', level: v.slice(3) } : { type: v };
    });
    const g = this.catalog.games.find((x) => x.name === form.game.value);
    const spec = specFrom(g, this.main.querySelector('#seekoptions'));
    const body = { spec, seats, hints: form.hints.checked, rated: form.rated.checked, unlisted: form.unlisted.checked, clock: clockValue(form.clock.value) };
    const to = form.to.value.trim();
    if (to) body.to = to;
    try {
      await api('/api/seeks', body);
      this.toast(t('lobby.posted'));
    } catch (err) { this.toast(err.message, true); }
  }

  async accept(id) {
    try {
      const r = await api(`/api/seeks/${encodeURIComponent(id)}/accept`, {});
      if (r.game) location.hash = `#/game/${r.game}`;
      else this.toast(t('lobby.waiting'));
    } catch (err) { this.toast(err.message, true); }
  }

  async cancel(id) {
    try { await api(`/api/seeks/${encodeURIComponent(id)}`, {}, 'DELETE'); } catch (err) { this.toast(err.message, true); }
  }
}
