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
