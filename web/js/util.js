// Small helpers shared by the pages.
import { t } from './i18n.js';

export const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The name of an AI level of the catalog (`random`, `level3`). */
export const levelLabel = (id) => t([`levels.${id}`, 'levels.other'], { level: id });
