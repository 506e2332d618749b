// Small helpers shared by the pages.
import { t, hasKey } from './i18n.js';

export const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The name of an AI level of the catalog (`random`, `level3`). */
export const levelLabel = (id) => t([`levels.${id}`, 'levels.other'], { level: id });

/**
 * A text of the catalog in the user's language: `games.<game>.<path>` when
 * the strings have it (`title`, `description`, `sides.Gold`, `options.mode`),
 * else the server's own (English) words.
 */
export function gameText(game, path, fallback) {
  const key = `games.${game}.${path}`;
  return hasKey(key) ? t(`games.${game}.${path}`) : fallback;
}

/** A side's name (`Gold`, `South`) in the user's language. */
export const sideLabel = (game, side) => gameText(game, `sides.${side}`, side);

/**
 * The replay step a key asks for (`prev`, `next`, `first`, `last`), or
 * null: never while typing, nor on a board's cell (whose arrows move).
 */
export function replayKey(e) {
  if (e.target.closest?.('input, textarea, select, [data-key]')) return null;
  return { ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last' }[e.key] ?? null;
}
