// The rule options of a game as form controls, built from the catalog's
// option kinds, and the spec string they give. One module for every form
// that starts games (the new-game page, the lobby's seek, the tournament
// form), so they offer the same choices and write the same specs.
import { esc, gameText } from './util.js';
import { t, hasKey } from './i18n.js';

/** An option's name in the user's words (`chain_jumps`: "chain jumps"). */
export const optionName = (key) => (hasKey(`optionNames.${key}`) ? t(`optionNames.${key}`) : key.replaceAll('_', ' '));
/** A value of an option in the user's words (`warrior`: "guerrier"). */
export const valueText = (value) => (hasKey(`optionValues.${value}`) ? t(`optionValues.${value}`) : value);

/**
 * A spec string (`gildervaik(mode=warrior)`) in the user's words: the
 * game's title, then each option off its default, named and valued.
 */
export function specText(spec) {
  const [, name = spec, opts = ''] = /^([a-z_]+)(?:\((.*)\))?$/.exec(spec || '') || [];
  const title = gameText(name, 'title', name);
  const words = opts.split(',').filter(Boolean).map((pair) => {
    const [key, value = ''] = pair.split('=');
    return t('options.pair', { name: optionName(key.trim()), value: valueText(value.trim()) });
  });
  return words.length ? `${title} (${words.join(', ')})` : title;
}

/** A rating pool (`gildervaik(mode=warrior)/correspondence`) in the user's words. */
export function poolText(pool) {
  const [spec, speed] = String(pool).split('/');
  return speed === 'correspondence' ? t('options.correspondencePool', { game: specText(spec) }) : specText(spec);
}

/** The control of one rule option, built from its kind (catalog data). */
function optionInput(o) {
  const id = `opt-${esc(o.key)}`;
  const key = `data-key="${esc(o.key)}"`;
  const kind = o.kind;
  const select = (choices) => `<select id="${id}" ${key}>${choices
    .map((c) => `<option value="${esc(c)}"${c === o.default ? ' selected' : ''}>${esc(valueText(c))}</option>`).join('')}</select>`;
  const number = (value, extra = '') => `<input id="${id}" ${key} type="number" step="1" min="${kind.min}" max="${kind.max}" value="${esc(value)}" required${extra}>`;
  switch (kind.type) {
    case 'bool': return `<input id="${id}" ${key} type="checkbox"${o.default === 'true' ? ' checked' : ''}>`;
    case 'choice': return select(kind.choices);
    case 'int': return number(o.default);
    case 'int_or_none': {
      const none = o.default === 'none';
      return `<span class="intornone">${number(none ? kind.min : o.default, none ? ' disabled' : '')}
        <label class="none"><input type="checkbox" data-none="${esc(o.key)}"${none ? ' checked' : ''}> ${esc(t('options.none'))}</label></span>`;
    }
    default: return `<input id="${id}" ${key} value="${esc(o.default)}">`;
  }
}

function optionField(game, o) {
  const help = gameText(game, `options.${o.key}`, o.help);
  return `<div class="opt" title="${esc(help)}"><label for="opt-${esc(o.key)}">${esc(optionName(o.key))}</label>${optionInput(o)}<small>${esc(help)}</small></div>`;
}

/** The controls of every option of catalog game `g` (or a line saying it has none). */
export function optionFields(g) {
  return g.options.map((o) => optionField(g.name, o)).join('') || `<p>${esc(t('options.empty'))}</p>`;
}

/** Make the controls drawn in `box` live: "none" turns an int_or_none option's number off. */
export function wireOptions(box) {
  for (const check of box.querySelectorAll('[data-none]')) {
    check.addEventListener('change', () => { box.querySelector(`#opt-${CSS.escape(check.dataset.none)}`).disabled = check.checked; });
  }
}

/** The value of an option's control as the spec string writes it. */
function optionValue(box, el, o) {
  if (o.kind.type === 'bool') return String(el.checked);
  if (o.kind.type === 'int_or_none' && box.querySelector(`[data-none="${CSS.escape(o.key)}"]`)?.checked) return 'none';
  return el.value.trim();
}

/** The spec string of game `g` with the options chosen in `box`: only those off their defaults. */
export function specFrom(g, box) {
  const opts = [];
  for (const el of box.querySelectorAll('[data-key]')) {
    const o = g.options.find((x) => x.key === el.dataset.key);
    if (!o) continue;
    const value = optionValue(box, el, o);
    if (value !== o.default) opts.push(`${o.key}=${value}`);
  }
  return opts.length ? `${g.name}(${opts.join(',')})` : g.name;
}
