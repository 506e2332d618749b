// The games awaiting this browser's move (home, lobby, one's own profile):
// their list, their count in the tab title, refreshed while the page shows
// them (a correspondence opponent may move at any time), and a browser
// notification for a game that newly awaits while the page is hidden, if
// the player allowed them.
import { api } from './api.js';
import { esc, gameText } from './util.js';
import { t } from './i18n.js';
import { gameRows } from './profile.js';

/** How often the list is asked again. */
export const REFRESH_MS = 20_000;

/** The tab title with `n` games awaiting this browser. */
export function titleFor(n) {
  return n ? `(${n}) ${t('app.title')}` : t('app.title');
}

/** The games of `games` whose id is not in `before`. */
export function newlyAwaiting(before, games) {
  const seen = new Set(before);
  return games.filter((g) => !seen.has(g.id));
}

function notify(games) {
  if (!('Notification' in window) || Notification.permission !== 'granted') return;
  for (const g of games) {
    try { new Notification(t('app.title'), { body: t('notify.yourTurn', { game: gameText(g.game, 'title', g.title) }), tag: g.id }); } catch { /* not here */ }
  }
}

/**
 * Show the games awaiting this browser in `box` until it leaves the page;
 * `ask`: offer to turn notifications on.
 */
export function watchYourTurn(box, { ask = false } = {}) {
  let known = null;
  const show = async () => {
    const mine = await api('/api/me/games').catch(() => null);
    if (!box.isConnected) return false;
    if (!mine) return true;
    const games = mine.your_turn;
    document.title = titleFor(games.length);
    if (known && document.hidden) notify(newlyAwaiting(known, games));
    known = games.map((g) => g.id);
    const offer = ask && 'Notification' in window && Notification.permission === 'default'
      ? `<button type="button" class="ghost notify">${esc(t('lobby.notify'))}</button>` : '';
    box.innerHTML = (games.length
      ? `<h2>${esc(t('lobby.yourTurn'))}</h2><div class="list">${gameRows(games)}</div>` : '') + offer;
    box.querySelector('.notify')?.addEventListener('click', () => Notification.requestPermission());
    return true;
  };
  const loop = async () => {
    if (await show()) setTimeout(loop, REFRESH_MS);
  };
  loop();
}
