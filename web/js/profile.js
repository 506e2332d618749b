// A player's page: wins, draws and losses per game, games in progress and
// finished games (paged).
import { api } from './api.js';
import { esc, levelLabel, sideLabel, gameText } from './util.js';
import { specText, poolText } from './options.js';
import { t } from './i18n.js';

/** A seat's player as lists show them: whoever left it, the AI's level, the side, or the name. */
function seatName(g, p) {
  if ((g.left || []).includes(p.seat) && p.user) return p.user;
  if (p.kind === 'ai' && p.level) return levelLabel(p.level);
  return p.name === p.side ? sideLabel(g.game, p.side) : p.name;
}

/**
 * How finished game `g` went for account `user` (lowercase), from their
 * side: "won on time against bjorn", "left the game against …"; `null`
 * when they hold no seat in it.
 */
export function outcomeText(g, user) {
  const mine = g.players.filter((p) => p.user === user).map((p) => p.seat);
  if (!user || !mine.length) return null;
  const others = g.players.filter((p) => !mine.includes(p.seat)).map((p) => seatName(g, p)).join(', ');
  if (g.imported) return t('profile.outcome.imported');
  if (g.reason === 'aborted') return t('profile.outcome.aborted', { others });
  if (mine.some((s) => (g.left || []).includes(s))) return t('profile.outcome.left', { others });
  const [, kind, seats] = /^(win|draw) ([\d,]+)$/.exec(g.result || '') || [];
  if (!kind) return null;
  const top = seats.split(',').map((n) => Number(n) - 1);
  const outcome = !mine.some((s) => top.includes(s)) ? 'lost' : kind === 'draw' ? 'drew' : 'won';
  const how = t([`profile.outcome.how.${g.reason}`, 'profile.outcome.how.board']);
  return t(`profile.outcome.${outcome}`, { how, others });
}

/** A finished game's result in words: `win 2` (seats from 1, as in records) names the side. */
export function resultText(g) {
  const win = /^win (\d+)$/.exec(g.result || '');
  const side = win && g.players[Number(win[1]) - 1]?.side;
  if (side) return t('home.won', { side: sideLabel(g.game, side) });
  if (/^draw/.test(g.result || '')) return t('home.drawn');
  return t('home.over', { result: g.result });
}

/** Lines of a list of games; finished ones say how they went for `user`, if given. */
export function gameRows(games, user) {
  return games.map((g) => `
    <a class="gamerow" href="#/game/${g.id}">
      <strong>${esc(specText(g.spec))}</strong>
      <span>${g.players.map((p) => esc(seatName(g, p)) + (p.bot ? ` (${esc(t('players.bot'))})` : '')).join(' · ')}</span>
      <span class="muted">${esc(g.over ? outcomeText(g, user) ?? resultText(g) : t('moves.ply', { n: g.ply }))}</span>
    </a>`).join('');
}

/** A rating history as a small SVG line chart (no library). */
export function ratingChart(history) {
  if (history.length < 2) return '';
  const W = 320;
  const H = 90;
  const ts = history.map(([at]) => at);
  const rs = history.map(([, r]) => r);
  const [t0, t1] = [Math.min(...ts), Math.max(...ts)];
  const [r0, r1] = [Math.min(...rs) - 10, Math.max(...rs) + 10];
  const x = (at) => (t1 === t0 ? 0 : ((at - t0) / (t1 - t0)) * (W - 40)) + 35;
  const y = (r) => H - 10 - ((r - r0) / (r1 - r0)) * (H - 20);
  const points = history.map(([at, r]) => `${x(at).toFixed(1)},${y(r).toFixed(1)}`).join(' ');
  return `<svg class="ratingchart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(t('profile.history'))}">
    <text x="2" y="${y(r1 - 10) + 4}" font-size="10">${r1 - 10}</text><text x="2" y="${y(r0 + 10) + 4}" font-size="10">${r0 + 10}</text>
    <polyline fill="none" stroke="currentColor" stroke-width="2" points="${points}"/></svg>`;
}

export async function profilePage(main, name) {
  const p = await api(`/api/players/${encodeURIComponent(name)}`);
  const user = p.username.toLowerCase();
  const tally = Object.entries(p.record).map(([game, r]) => `
    <tr><th scope="row">${esc(gameText(game, 'title', game))}</th><td>${r.win}</td><td>${r.draw}</td><td>${r.loss}</td></tr>`).join('');
  main.innerHTML = `
    <section class="profile">
      <h1>${esc(p.username)}${p.bot ? ` <em>${esc(t('players.bot'))}</em>` : ''}</h1>
      <p class="muted">${esc(t('profile.since', { date: new Date(p.created).toLocaleDateString() }))}</p>
      ${Object.keys(p.ratings).length ? `<h2>${esc(t('profile.ratings'))}</h2><table class="tally">
        <thead><tr><th scope="col">${esc(t('profile.pool'))}</th><th scope="col">${esc(t('profile.rating'))}</th><th scope="col">${esc(t('profile.games'))}</th></tr></thead>
        <tbody>${Object.entries(p.ratings).map(([pool, r]) => `<tr><th scope="row"><a href="#/leaderboard/${encodeURIComponent(pool)}">${esc(poolText(pool))}</a></th><td>${r.rating}${r.provisional ? '?' : ''}</td><td>${r.games}</td></tr>
          <tr><td colspan="3">${ratingChart(r.history)}</td></tr>`).join('')}</tbody></table>` : ''}
      <table class="tally">
        <thead><tr><th scope="col">${esc(t('profile.game'))}</th><th scope="col">${esc(t('profile.wins'))}</th><th scope="col">${esc(t('profile.draws'))}</th><th scope="col">${esc(t('profile.losses'))}</th></tr></thead>
        <tbody>${tally || `<tr><td colspan="4">${esc(t('profile.noneYet'))}</td></tr>`}</tbody>
      </table>
      <div id="yourturn"></div>
      <h2>${esc(t('profile.playing'))}</h2>
      <div class="list">${gameRows(p.playing) || esc(t('profile.noneYet'))}</div>
      <h2>${esc(t('profile.finished'))}</h2>
      <div class="list" id="finished">${gameRows(p.finished, user) || esc(t('profile.noneYet'))}</div>
      <button type="button" id="more" class="ghost"${p.finished.length < 20 ? ' hidden' : ''}>${esc(t('profile.more'))}</button>
    </section>`;
  let page = 0;
  const more = main.querySelector('#more');
  more.addEventListener('click', async () => {
    page += 1;
    const r = await api(`/api/players/${encodeURIComponent(name)}/games?page=${page}`);
    main.querySelector('#finished').insertAdjacentHTML('beforeend', gameRows(r.games, user));
    more.hidden = !r.more;
  });
}

/** `#/leaderboard/<pool>`: the best established ratings of a pool. */
export async function leaderboardPage(main, pool) {
  const rows = await api(`/api/leaderboard?pool=${encodeURIComponent(pool)}`);
  main.innerHTML = `
    <section class="profile">
      <h1>${esc(t('profile.leaderboard', { pool: poolText(pool) }))}</h1>
      <table class="tally"><thead><tr><th scope="col">#</th><th scope="col">${esc(t('account.username'))}</th><th scope="col">${esc(t('profile.rating'))}</th><th scope="col">${esc(t('profile.games'))}</th></tr></thead>
      <tbody>${rows.map((r, i) => `<tr><td>${i + 1}</td><td><a href="#/@/${esc(r.username)}">${esc(r.username)}</a></td><td>${r.rating}</td><td>${r.games}</td></tr>`).join('') || `<tr><td colspan="4">${esc(t('profile.noneYet'))}</td></tr>`}</tbody></table>
    </section>`;
}
