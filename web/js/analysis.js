// A game's analysis under the replay board (issue 41, docs/analysis.md):
// an SVG chart of every seat's expected score, one line per player, the
// shown ply marked, the inaccuracies, mistakes and blunders marked; a
// click on a point asks for that ply. Pure functions of the analysis.

import { t } from './i18n.js';
import { esc } from './util.js';

/** The marks of the move list and the chart, by class. */
export const MARKS = { inaccuracy: '?!', mistake: '?', blunder: '??' };

const W = 320;
const H = 120;
const PAD = 6;

/**
 * The chart as SVG markup: `analysis` as the API answers it, `ply` the
 * shown ply (the position after `ply` actions), `names[seat]` the sides,
 * `actors[i]` the seat of action `i` (`null` for a roll). Each action is
 * a point at its index (the position before it, where its player chose),
 * the end a last point; clickable points carry `data-ply`.
 */
export function chart(analysis, ply, names, actors) {
  const points = [...analysis.plies.map((p) => p.values), analysis.end];
  const n = points.length;
  const x = (i) => PAD + (n > 1 ? (i * (W - 2 * PAD)) / (n - 1) : 0);
  const y = (v) => PAD + (1 - v) * (H - 2 * PAD);
  const seats = analysis.end.length;
  const lines = [];
  for (let s = 0; s < seats; s++) {
    const d = points.map((v, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(v[s]).toFixed(1)}`).join('');
    lines.push(`<path class="line p${s}" d="${d}"><title>${esc(names[s] ?? '')}</title></path>`);
  }
  const marks = analysis.plies.map((p, i) => {
    if (!p.class) return '';
    const mover = actors[i] ?? 0;
    const label = t(`analysis.class.${p.class}`);
    return `<circle class="mark ${p.class}" data-ply="${i}" cx="${x(i).toFixed(1)}" cy="${y(p.values[mover] ?? 0.5).toFixed(1)}" r="5" tabindex="0" role="button" aria-label="${esc(t('analysis.jump', { n: i + 1, what: label }))}"></circle>`;
  }).join('');
  // Wide invisible columns: a tap anywhere near a ply jumps there.
  const step = n > 1 ? (W - 2 * PAD) / (n - 1) : W;
  const hits = points.map((_, i) => `<rect class="hit" data-ply="${i}" x="${(x(i) - step / 2).toFixed(1)}" y="0" width="${step.toFixed(1)}" height="${H}"></rect>`).join('');
  const at = Math.min(ply, n - 1);
  return `<svg class="analysis-chart" viewBox="0 0 ${W} ${H}" role="group" aria-label="${esc(t('analysis.chart'))}">
    <line class="even" x1="${PAD}" x2="${W - PAD}" y1="${y(1 / seats)}" y2="${y(1 / seats)}"></line>
    ${hits}${lines.join('')}
    <line class="at" x1="${x(at).toFixed(1)}" x2="${x(at).toFixed(1)}" y1="0" y2="${H}"></line>
    ${marks}
  </svg>`;
}

/** Each player's accuracy (and with dice skill and luck), as a line of text. */
export function summary(analysis, names) {
  return analysis.accuracy.map((a, s) => {
    const parts = [t('analysis.accuracy', { n: a === null ? '–' : a.toFixed(1) })];
    if (analysis.luck) {
      parts.push(t('analysis.skill', { n: analysis.skill[s].toFixed(3) }));
      parts.push(t('analysis.luck', { n: analysis.luck[s].toFixed(3) }));
    }
    return `<li class="p${s}"><span class="who">${esc(names[s] ?? '')}</span> ${esc(parts.join(' · '))}</li>`;
  }).join('');
}
