// The analysis board (issue 41, docs/analysis.md):
//   #/analysis/<game>[?spec=<spec>][&position=<position>][&m=<action>…][&at=<n>]
// Any position of any game, from the start, pasted, or from a ply of a
// game's replay; whoever is to move plays (and at a chance node the
// player picks the roll); back and forward through the moves made; after
// each, the engine's best lines (`POST /api/position/lines`) worded with
// the hints' verdicts. The link carries the board, so it shares it and a
// reload restores it. The server holds no state: every view is a replay
// (`POST /api/position`) of the start and the moves up to the one shown.
import { api } from './api.js';
import { boards } from './boards/index.js';
import { verdict } from './hint.js';
import { t } from './i18n.js';
import { Exercise, exerciseHtml, sidesOf, title } from './learn.js';
import { esc, replayKey, sideLabel } from './util.js';

/** Lines asked for: a hint's three. */
const LINES = 3;

/**
 * The hash of a board: the game `spec` (its options in `spec=` when it has
 * some), the `position` it starts from (`null`: the game's start), the
 * `moves` played from it, and `at`, how many of them are shown.
 */
export function boardLink(spec, position, moves = [], at = moves.length) {
  const game = spec.split('(')[0];
  const q = new URLSearchParams();
  if (spec !== game) q.set('spec', spec);
  if (position) q.set('position', position);
  for (const m of moves) q.append('m', m);
  if (at !== moves.length) q.set('at', String(at));
  const query = q.toString();
  return `#/analysis/${encodeURIComponent(game)}${query ? `?${query}` : ''}`;
}

/** `#/analysis/<game>`: one board, its moves and the engine's lines. */
export class AnalysisBoardPage {
  constructor(main, game, query, toast) {
    const q = new URLSearchParams(query);
    Object.assign(this, { main, game, toast });
    this.spec = q.get('spec') || game;
    this.start = q.get('position') || null;
    this.moves = q.getAll('m');
    const at = Number(q.get('at') ?? this.moves.length);
    this.at = Number.isInteger(at) && at >= 0 && at <= this.moves.length ? at : this.moves.length;
    // The latest view asked for: an answer for an earlier one is dropped.
    this.asked = 0;
    // Lines already searched, by request: going back and forth asks once.
    this.known = new Map();
    this.onKey = (e) => {
      const step = replayKey(e);
      if (step) { e.preventDefault(); this.nav(step); }
    };
  }

  close() {
    this.closed = true;
    document.removeEventListener('keydown', this.onKey);
  }

  async open() {
    if (!boards[this.game]) throw new Error(t('analysis.board.noGame', { game: this.game }));
    this.main.innerHTML = exerciseHtml({
      kind: 'analysis-board',
      game: this.game,
      crumbs: `<a href="#/rules/${esc(this.game)}">${esc(t('home.rules'))}</a> · <a href="#/learn/${esc(this.game)}">${esc(t('home.learn'))}</a>`,
      heading: esc(t('analysis.board.heading', { game: title(this.game) })),
      text: esc(t('analysis.board.intro')),
    });
    const section = this.main.querySelector('section.learn');
    this.section = section;
    this.el = (sel) => section.querySelector(sel);
    this.el('.controls').innerHTML = `
      <div class="replay row">
        <button type="button" data-nav="first" title="${esc(t('replay.first'))}" aria-label="${esc(t('replay.first'))}">|◀</button>
        <button type="button" data-nav="prev" title="${esc(t('replay.prev'))}" aria-label="${esc(t('replay.prev'))}">◀</button>
        <span class="plyinfo"></span>
        <button type="button" data-nav="next" title="${esc(t('replay.next'))}" aria-label="${esc(t('replay.next'))}">▶</button>
        <button type="button" data-nav="last" title="${esc(t('replay.last'))}" aria-label="${esc(t('replay.last'))}">▶|</button>
      </div>
      <button type="button" class="ghost" data-do="flip">${esc(t('controls.flip'))}</button>`;
    this.el('.more').innerHTML = `
      <div class="board-moves" role="group" aria-label="${esc(t('moves.label'))}"></div>
      <section class="lines-host" aria-labelledby="lines-title">
        <h2 id="lines-title">${esc(t('analysis.board.lines'))}</h2>
        <p class="lines-status" aria-live="polite"></p>
        <ol class="lines"></ol>
      </section>
      <form class="setup">
        <label>${esc(t('analysis.board.position'))}<textarea name="position" rows="2" spellcheck="false" autocomplete="off"></textarea></label>
        <div class="row">
          <button type="submit">${esc(t('analysis.board.setUp'))}</button>
          <button type="button" class="ghost" data-do="startpos">${esc(t('analysis.board.startPosition'))}</button>
        </div>
      </form>
      <div class="links"><label>${esc(t('analysis.board.share'))} <input class="share" readonly></label></div>`;
    this.el('.controls').addEventListener('click', (e) => {
      const nav = e.target.closest('[data-nav]')?.dataset.nav;
      if (nav) this.nav(nav);
      if (e.target.closest('[data-do="flip"]')) {
        this.exercise.flip = !this.exercise.flip;
        this.view();
      }
    });
    this.el('.board-moves').addEventListener('click', (e) => {
      const at = e.target.closest('[data-at]')?.dataset.at;
      if (at !== undefined) this.goTo(Number(at));
    });
    this.el('.lines').addEventListener('click', (e) => {
      const a = e.target.closest('[data-action]')?.dataset.action;
      if (a) this.play(a);
    });
    this.el('.setup').addEventListener('submit', (e) => {
      e.preventDefault();
      this.setUp(this.el('.setup textarea').value.trim() || null);
    });
    this.el('[data-do="startpos"]').addEventListener('click', () => this.setUp(null));
    this.el('.links').addEventListener('click', (e) => {
      if (e.target.matches('input[readonly]')) e.target.select();
    });
    const names = await sidesOf(this.game);
    this.sideOf = (i) => sideLabel(this.game, names[i] || String(i + 1));
    this.exercise = new Exercise(section, this.game, (a) => this.play(a), names, {
      flip: false,
      you: (side) => t('analysis.board.toMove', { side }),
    });
    document.addEventListener('keydown', this.onKey);
    await this.view();
  }

  /** Play `action` after the move shown: the moves after it are dropped. */
  async play(action) {
    const before = { moves: this.moves, at: this.at };
    this.moves = [...this.moves.slice(0, this.at), action];
    this.at += 1;
    if (!(await this.view(true))) Object.assign(this, before);
  }

  nav(where) {
    const to = { first: 0, prev: this.at - 1, next: this.at + 1, last: this.moves.length }[where];
    this.goTo(to);
  }

  goTo(at) {
    if (at < 0 || at > this.moves.length || at === this.at) return;
    const forward = at === this.at + 1;
    this.at = at;
    this.view(forward);
  }

  /** A new start: a pasted position, or the game's own (`null`). */
  async setUp(position) {
    const before = { start: this.start, moves: this.moves, at: this.at };
    Object.assign(this, { start: position, moves: [], at: 0 });
    if (!(await this.view())) Object.assign(this, before);
  }

  /**
   * Show the position after the first `at` moves (the last one sliding in
   * when `slide`), then ask for its lines. False when the server refused
   * it (a bad pasted position, a link with an illegal move): said on the
   * page, nothing changed.
   */
  async view(slide = false) {
    const n = ++this.asked;
    const actions = this.moves.slice(0, this.at);
    const at = { spec: this.spec, position: this.start ?? undefined, actions };
    let state;
    try {
      state = await api('/api/position', at);
    } catch (err) {
      if (n === this.asked) this.say(err.message, 'refused');
      return false;
    }
    if (n !== this.asked || this.closed) return true;
    this.state = state;
    this.spec = state.spec;
    const over = state.turn === 'over';
    const last = state.steps.slice(-1);
    this.exercise.show(state, state.to_move, slide ? last : [], over, last);
    if (state.turn === 'chance') {
      // The player throws: each roll the dice can give is a button.
      this.el('.buttons').innerHTML = state.chance
        .map(([roll]) => `<button type="button" data-action="${esc(roll)}">${esc(t('moves.roll', { dice: roll }))}</button>`).join('');
    }
    this.say(over ? t('analysis.board.over') : state.turn === 'chance' ? t('analysis.board.roll') : '', over ? 'done' : 'going');
    this.section.dataset.position = state.position;
    this.section.dataset.ply = String(this.at);
    this.el('.plyinfo').textContent = t('moves.plyOf', { ply: this.at, n: this.moves.length });
    this.el('.board-moves').innerHTML = this.moves
      .map((m, i) => `<button type="button" class="act ghost${i + 1 === this.at ? ' at' : ''}" data-at="${i + 1}"${i + 1 === this.at ? ' aria-current="step"' : ''}>${esc(m)}</button>`).join(' ');
    const textarea = this.el('.setup textarea');
    if (document.activeElement !== textarea) textarea.value = state.position;
    const link = boardLink(this.spec, this.start, this.moves, this.at);
    // The address follows the board (no hashchange: the page stays), so a reload restores it.
    history.replaceState(null, '', link);
    this.el('.share').value = `${location.origin}${location.pathname}${link}`;
    this.lines(n, at, state);
    return true;
  }

  /** The engine's lines for view `n` (`at` its request, `state` its replay). */
  async lines(n, at, state) {
    const list = this.el('.lines');
    const status = this.el('.lines-status');
    list.innerHTML = '';
    this.section.dataset.lines = 'waiting';
    if (state.turn !== 'player') {
      status.textContent = state.turn === 'chance' ? t('analysis.board.noLinesRoll') : t('analysis.board.noLinesOver');
      this.section.dataset.lines = state.turn;
      return;
    }
    status.textContent = t('analysis.board.thinking');
    const key = JSON.stringify(at);
    let got = this.known.get(key);
    try {
      got = got || await api('/api/position/lines', { ...at, lines: LINES });
      this.known.set(key, got);
    } catch (err) {
      if (n !== this.asked) return;
      status.textContent = err.message;
      this.section.dataset.lines = 'refused';
      return;
    }
    if (n !== this.asked || this.closed) return;
    status.textContent = t('analysis.board.linesFor', { side: this.sideOf(got.to_move) });
    list.innerHTML = got.lines.map((l) => {
      const words = t(`hint.verdict.${verdict(l.value, got.players)}`);
      // The line after the move: its first action is the move itself.
      const after = (l.pv || []).slice(1);
      const pv = after.length ? `<span class="pv muted">${esc(t('analysis.board.pv', { line: after.join(' ') }))}</span>` : '';
      return `<li><button type="button" class="ghost" data-action="${esc(l.action)}">${esc(l.action)}</button> <span class="words">${esc(words)}</span> ${pv}</li>`;
    }).join('');
    // The best move drawn on the board, as a hint's.
    if (got.lines[0]) this.exercise.board.mark(got.lines[0].action, 'hint');
    this.section.dataset.lines = 'ready';
    this.section.dataset.linesPly = String(this.at);
  }

  say(text, kind) {
    const el = this.el('.verdict');
    el.className = `verdict ${kind}`;
    el.dataset.kind = kind;
    el.textContent = text;
  }
}
