// Every string the user reads goes through `t`. The strings live in
// i18next-style JSON files, one per language (`/locales/<lang>.json`):
// nested keys addressed with dots, `{{name}}` placeholders, and plural
// forms `key_one`/`key_other` (the CLDR categories of Intl.PluralRules)
// picked by the `count` variable. English is loaded as the fallback of
// every other language. `t` returns plain text: callers escape it when
// they build HTML.

/** The languages with a file in /locales, English first. */
export const LANGUAGES = ['en', 'fr'];
/** Each language's name in itself, for the switch. */
export const LANGUAGE_NAMES = { en: 'English', fr: 'Français' };
const SAVED = 'tabula.lang';
const FALLBACK = 'en';

let lang = FALLBACK;
let tables = []; // the chosen language first, then the fallback
let plurals = new Intl.PluralRules(FALLBACK);

async function fetchTable(code) {
  const res = await fetch(`/locales/${code}.json`);
  if (!res.ok) throw new Error(`cannot load the ${code} strings: ${res.status}`);
  return res.json();
}

/** The user's language: a saved choice, else the browser's, else English. */
export function preferredLanguage() {
  const saved = localStorage.getItem(SAVED);
  if (LANGUAGES.includes(saved)) return saved;
  for (const l of navigator.languages || [navigator.language]) {
    const code = String(l || '').toLowerCase().split('-')[0];
    if (LANGUAGES.includes(code)) return code;
  }
  return FALLBACK;
}

/**
 * Load the strings once, before the first page is drawn. Without the
 * English file the pages still work, showing keys (and the error).
 */
export async function initI18n(code = preferredLanguage()) {
  let fallback = {};
  try {
    fallback = await fetchTable(FALLBACK);
  } catch (err) {
    console.error(`i18n: ${err.message}`);
  }
  tables = [fallback];
  lang = FALLBACK;
  if (code !== FALLBACK && LANGUAGES.includes(code)) {
    try {
      tables = [await fetchTable(code), fallback];
      lang = code;
    } catch (err) {
      console.warn(`i18n: ${err.message}; using English`);
    }
  }
  plurals = new Intl.PluralRules(lang);
  document.documentElement.lang = lang;
}

export function language() { return lang; }

/** Keep the user's choice of language (the page reloads to apply it). */
export function saveLanguage(code) {
  if (LANGUAGES.includes(code)) localStorage.setItem(SAVED, code);
}

/**
 * Elision: in French a word like "de" or "le" before a value that starts
 * with a vowel loses its vowel ("partie de {{game}}" with "Échecs…" gives
 * "partie d'Échecs…"). Per language: the words that elide, before a
 * placeholder. An h is left alone (its elision depends on the word).
 */
const ELIDING = { fr: /(^|[\s(])(de|je|ne|se|que|le|la) $/i };
const VOWEL = /^[aeiouyàâäéèêëîïôöûüù]/i;

function fill(text, vars) {
  const elide = ELIDING[lang];
  let out = '';
  let rest = text;
  for (const m of text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)) {
    const at = m.index - (text.length - rest.length);
    let before = rest.slice(0, at);
    const value = m[1] in vars ? String(vars[m[1]]) : m[0];
    if (elide && m[1] in vars && VOWEL.test(value) && elide.test(before)) before = `${before.slice(0, -2)}'`;
    out += before + value;
    rest = rest.slice(at + m[0].length);
  }
  return out + rest;
}

function find(key) {
  for (const table of tables) {
    const value = key.split('.').reduce((node, part) => (node && typeof node === 'object' ? node[part] : undefined), table);
    if (typeof value === 'string') return value;
  }
  return undefined;
}

function lookup(key, vars) {
  if (typeof vars.count === 'number') {
    const plural = find(`${key}_${plurals.select(vars.count)}`) ?? find(`${key}_other`);
    if (plural !== undefined) return plural;
  }
  return find(key);
}

/** Whether `key` has a string (for texts that fall back to the server's words). */
export function hasKey(key) {
  return lookup(key, {}) !== undefined;
}

/**
 * The text of `key` with `{{name}}` replaced by `vars.name`. `key` may be
 * a list: the first key that exists is used (a specific string, then a
 * general one). A missing key gives the key itself and a console warning.
 */
export function t(key, vars = {}) {
  const keys = Array.isArray(key) ? key : [key];
  let text;
  for (const k of keys) {
    text = lookup(k, vars);
    if (text !== undefined) break;
  }
  if (text === undefined) {
    console.warn(`i18n: missing translation ${keys.join(' | ')}`);
    return keys[keys.length - 1];
  }
  return fill(text, vars);
}

/**
 * Static markup: `data-i18n="key"` sets an element's text, and
 * `data-i18n-attr="title:key;aria-label:key"` its attributes.
 */
export function translateStatic(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-attr]')) {
    for (const pair of el.dataset.i18nAttr.split(';')) {
      const [attr, key] = pair.split(':').map((s) => s.trim());
      if (attr && key) el.setAttribute(attr, t(key));
    }
  }
}
