// A player's page: wins, draws and losses per game, games in progress and
// finished games (paged).
import { api } from './api.js';
import { esc } from './util.js';
import { t } from './i18n.js';

export function gameRows(games) {
  return games.map((g) => `
    <a class="gamerow" href="#/game/${g.id}">
      <strong>${esc(g.title)}</strong>
      <span>${g.players.map((p) => esc(p.name) + (p.bot ? ` (${esc(t('players.bot'))})` : '')).join(' · ')}</span>
      <span class="muted">${esc(g.over ? t('home.over', { result: g.result }) : t('moves.ply', { n: g.ply }))}</span>
    </a>`).join('');
}

export async function profilePage(main, name) {
  const p = await api(`/api/players/${encodeURIComponent(name)}`);
  const tally = Object.entries(p.record).map(([game, r]) => `
    <tr><th scope="row">${esc(game)}</th><td>${r.win}</td><td>${r.draw}</td><td>${r.loss}</td></tr>`).join('');
  main.innerHTML = `
    <section class="profile">
      <h1>${esc(p.username)}${p.bot ? ` <em>${esc(t('players.bot'))}</em>` : ''}</h1>
      <p class="muted">${esc(t('profile.since', { date: new Date(p.created).toLocaleDateString() }))}</p>
      <table class="tally">
        <thead><tr><th scope="col">${esc(t('profile.game'))}</th><th scope="col">${esc(t('profile.wins'))}</th><th scope="col">${esc(t('profile.draws'))}</th><th scope="col">${esc(t('profile.losses'))}</th></tr></thead>
        <tbody>${tally || `<tr><td colspan="4">${esc(t('profile.noneYet'))}</td></tr>`}</tbody>
      </table>
      <h2>${esc(t('profile.playing'))}</h2>
      <div class="list">${gameRows(p.playing) || esc(t('profile.noneYet'))}</div>
      <h2>${esc(t('profile.finished'))}</h2>
      <div class="list" id="finished">${gameRows(p.finished) || esc(t('profile.noneYet'))}</div>
      <button type="button" id="more" class="ghost"${p.finished.length < 20 ? ' hidden' : ''}>${esc(t('profile.more'))}</button>
    </section>`;
  let page = 0;
  const more = main.querySelector('#more');
  more.addEventListener('click', async () => {
    page += 1;
    const r = await api(`/api/players/${encodeURIComponent(name)}/games?page=${page}`);
    main.querySelector('#finished').insertAdjacentHTML('beforeend', gameRows(r.games));
    more.hidden = !r.more;
  });
}
