// Ad Elta Stelpur: a 2x12 board, cells 1..24 round one circuit, rune
// corners, two dice. Position: `<p1 cells>/<p2 cells> <to move> <dice> ...`
// with dice `-` or `a-b:v,v[@cell][x]`. Actions `6:6-12`, `1:9x13`, `pass`.
//
//   North  24 23 22 21 20 19 | 18 17 16 15 14 13
//   South   1  2  3  4  5  6 |  7  8  9 10 11 12
import { cell } from '../board.js';
import { t } from '../i18n.js';
import { esc } from '../util.js';

// The rune of each corner (Elder Futhark, as the CLI and the rules print
// them), drawn as strokes in a unit box so that no font is needed:
// fehu, uruz, thurisaz, ansuz, raidho, kaunan, gebo, wunjo.
const RUNE_OF = {
  1: ['ᚠ', 'M.35 .1V.9M.35 .5L.7 .25M.35 .3L.7 .08'],
  6: ['ᚢ', 'M.3 .9V.1L.7 .35V.9'],
  7: ['ᚦ', 'M.35 .1V.9M.35 .3L.65 .5L.35 .7'],
  12: ['ᚨ', 'M.35 .1V.9M.35 .1L.7 .3M.35 .35L.7 .55'],
  13: ['ᚱ', 'M.35 .9V.1L.65 .3L.35 .5L.65 .9'],
  18: ['ᚲ', 'M.65 .2L.35 .5L.65 .8'],
  19: ['ᚷ', 'M.3 .2L.7 .8M.7 .2L.3 .8'],
  24: ['ᚹ', 'M.35 .9V.1L.65 .3L.35 .5'],
};
const RUNES = Object.fromEntries(Object.entries(RUNE_OF).map(([c, [, d]]) => [c, d]));
const GLYPHS = Object.fromEntries(Object.values(RUNE_OF));

/** `html` with each rune letter drawn as an inline SVG (the rules pages:
 * few systems have a font with the Runic block). */
export function drawRunes(html) {
  return html.replace(/[\u16A0-\u16FF]/g, (ch) => (GLYPHS[ch]
    ? `<svg class="runetext" viewBox="0 0 1 1" role="img" aria-label="${ch}"><path d="${GLYPHS[ch]}"/></svg>`
    : ch));
}
const U = 10;

function cells(list) {
  return list ? list.split(',').filter(Boolean).map(Number) : [];
}

export function parseDice(field) {
  if (!field || field === '-') return null;
  const m = /^(\d+)-(\d+)(?::([\d,]*))?(?:@(\d+))?(x?)$/.exec(field);
  if (!m) return null;
  return {
    roll: [Number(m[1]), Number(m[2])],
    left: m[3] ? m[3].split(',').filter(Boolean).map(Number) : [],
    at: m[4] ? Number(m[4]) : null,
  };
}

/** Top-left corner of cell `c`; `tall` = the board turned upright (phones). */
function xy(c, flip, tall) {
  let col = c <= 12 ? c : 25 - c; // 1..12
  let row = c <= 12 ? 1 : 0; // 0 = North (top)
  if (flip) { col = 13 - col; row = 1 - row; }
  const along = (col - 1) * U + (col > 6 ? 2 : 0);
  return tall ? [row * U, along] : [along, row * U];
}

function pips(n, x, y, s) {
  const spots = {
    1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]],
    4: [[0, 0], [2, 0], [0, 2], [2, 2]], 5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
    6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]],
  }[n] || [];
  return spots.map(([i, j]) => `<circle cx="${x + s * (0.25 + 0.25 * i)}" cy="${y + s * (0.25 + 0.25 * j)}" r="${s * 0.09}"/>`).join('');
}

/** Two dice as SVG, the used ones dimmed. */
export function diceSvg(dice) {
  if (!dice) return '';
  const left = [...dice.left];
  const faces = dice.roll.map((d) => {
    const i = left.indexOf(d);
    const live = i >= 0 || (d === dice.roll[0] && d === dice.roll[1] && left.length > 0);
    if (i >= 0) left.splice(i, 1);
    return { d, live };
  });
  return `<svg class="dice" viewBox="0 0 46 22" role="img" aria-label="${esc(t('stelpur.roll', { dice: dice.roll.join('-') }))}">${faces
    .map((f, i) => `<g class="die${f.live ? '' : ' used'}"><rect x="${1 + i * 24}" y="1" width="20" height="20" rx="4"/><g class="pips">${pips(f.d, 1 + i * 24, 1, 20)}</g></g>`)
    .join('')}</svg>`;
}

export default {
  parse(pos) {
    const [board = '/', toMove = '1', dice = '-'] = pos.split(' ');
    const [a, b] = board.split('/');
    return { p: [cells(a), cells(b)], toMove: Number(toMove) - 1, dice: parseDice(dice) };
  },

  locate(action) {
    const m = /^(\d+):(\d+)([-x])(\d+)$/.exec(action);
    if (!m) return null;
    const vars = { die: m[1], from: m[2], to: m[4] };
    return { from: m[2], to: m[4], label: m[3] === 'x' ? t('stelpur.captureLabel', vars) : t('stelpur.moveLabel', vars) };
  },

  label(action) {
    return action === 'pass' ? t('stelpur.pass') : action;
  },

  /** A last pawn (Hornaskella) moves from rune corner to rune corner. */
  explain(action, legal, model) {
    if (!model || model.p[model.toMove]?.length !== 1 || !/\d-\d|x/.test(action)) return null;
    return t('stelpur.lastPawn');
  },

  draw(model, view) {
    const flip = view.flip;
    const tall = !!view.narrow;
    const [w, h] = tall ? [20, 122] : [122, 20];
    let out = `<svg class="board stelpur${tall ? ' tall' : ''}" viewBox="-2 -2 ${w + 4} ${h + 4}" role="img" aria-label="${esc(t('stelpur.boardLabel'))}">`;
    out += `<rect class="frame" x="-2" y="-2" width="${w + 4}" height="${h + 4}" rx="2"/>`;
    out += tall
      ? `<line class="mid" x1="-1" y1="${6 * U + 1}" x2="21" y2="${6 * U + 1}"/>`
      : `<line class="mid" x1="${6 * U + 1}" y1="-1" x2="${6 * U + 1}" y2="21"/>`;
    for (let c = 1; c <= 24; c++) {
      const [x, y] = xy(c, flip, tall);
      const rune = RUNES[c];
      const shape = `<rect class="sq${rune ? ' rune' : ''}" x="${x + 0.4}" y="${y + 0.4}" width="${U - 0.8}" height="${U - 0.8}" rx="1.2"/>` +
        (rune ? `<path class="runeglyph" transform="translate(${x + 1.5} ${y + 1.5}) scale(7)" d="${rune}"/>` : '') +
        `<text class="num" x="${x + 0.9}" y="${y + 2.3}">${c}</text>`;
      out += cell(String(c), shape, x + U / 2, y + U / 2, 1.6);
    }
    model.p.forEach((list, side) => {
      for (const c of list) {
        const [x, y] = xy(c, flip, tall);
        out += `<circle class="pawn p${side}" data-at="${c}" cx="${x + U / 2 + 0.4}" cy="${y + U / 2 + 0.6}" r="3.1"/>`;
      }
    });
    return out + '</svg>';
  },

  /**
   * Under the board: whose roll, the dice and what is left of them, a side
   * down to its last pawn, and the way the pawns run. `side(i)` names seat i.
   */
  extra(model, spec, side = (i) => String(i + 1)) {
    const who = side(model.toMove);
    const lastPawn = model.p.map((list, i) => (list.length === 1
      ? ` <span class="chip p${i}">${esc(t('stelpur.lastPawnMode', { side: side(i) }))}</span>` : '')).join('');
    const way = `<span class="muted">${esc(t('stelpur.direction'))}</span>`;
    if (!model.dice) return `<span>${esc(t('stelpur.toRoll', { side: who }))}</span>${lastPawn} ${way}`;
    const roll = t('stelpur.whoseRoll', { side: who, dice: model.dice.roll.join('-') });
    const left = model.dice.left.length ? t('stelpur.left', { dice: model.dice.left.join(', ') }) : t('stelpur.noneLeft');
    return `${diceSvg(model.dice)} <span>${esc(roll)} · ${esc(left)}</span>${lastPawn} ${way}`;
  },
};
