// Learning to play (issue 40): lessons and puzzles on the real boards.
//   #/learn                 the games, with the lessons done so far
//   #/learn/<game>[/<id>]   a game's lessons, one exercise at a time
//   #/puzzles/<game>        rated puzzles
// and a guided first game: a real game against the gentlest AI, with the
// guide of `guide.js` beside the board.
// The engine judges every answer (`POST /api/learn/check`,
// `/api/puzzles/check`); this browser keeps the stars and the puzzle
// rating in localStorage; an account's are kept by the server as well.
import { api, rememberSeat, playerName } from './api.js';
import { markGuided } from './guide.js';
import { BoardView } from './board.js';
import { boards } from './boards/index.js';
import { t, language } from './i18n.js';
import { esc, gameText, sideLabel } from './util.js';

const narrow = window.matchMedia('(max-width: 760px)');
const KEY = 'tabula.learn';
const NEW_RATING = { rating: 1500, rd: 350, volatility: 0.06, games: 0 };

/** What this browser has done: `{lessons: {id: stars}, puzzles: {game: {rating, done: {id: 1|0}}}}`. */
export function progress() {
  try {
    const p = JSON.parse(localStorage.getItem(KEY)) || {};
    return { lessons: p.lessons || {}, puzzles: p.puzzles || {} };
  } catch { return { lessons: {}, puzzles: {} }; }
}

function saveProgress(p) {
  localStorage.setItem(KEY, JSON.stringify(p));
}

/**
 * A signed-in player's progress is the server's (it records the engine's
 * verdicts): merged into this browser's, the best stars kept, the
 * server's puzzle ratings taken. A guest's stays as it is.
 */
async function syncProgress() {
  const server = await api('/api/learn/progress').catch(() => null);
  if (!server?.signed_in) return;
  const p = progress();
  for (const [id, n] of Object.entries(server.lessons)) p.lessons[id] = Math.max(p.lessons[id] || 0, n);
  Object.assign(p.puzzles, server.puzzles);
  saveProgress(p);
}

/** A lesson file's text in the page's language. */
const words = (text) => (text && (text[language()] || text.en)) || '';

const starText = (n) => '★'.repeat(n) + '☆'.repeat(3 - n);
const stars = (n) => `<span class="stars" role="img" aria-label="${esc(t('learn.stars', { count: n }))}">${starText(n)}</span>`;

let sides = null;
/** Each game's side names (`Gold`, `A`…), from the catalog, once. */
export async function sidesOf(game) {
  sides = sides || Object.fromEntries((await api('/api/catalog')).games.map((g) => [g.name, g.sides]));
  return sides[game] || [];
}

/** The title of a game in the page's language. */
export const title = (game) => gameText(game, 'title', game);

/** `#/learn`: each game with its lessons and puzzles. */
export async function learnHome(main, toast) {
  await syncProgress();
  const { games } = await api('/api/learn');
  const done = progress().lessons;
  const cards = games.map((g) => {
    const got = Object.entries(done).filter(([id]) => id.startsWith(`${g.game}/`));
    const earned = got.reduce((sum, [, n]) => sum + n, 0);
    const rating = progress().puzzles[g.game]?.rating;
    return `
    <article class="card learn-card" data-game="${esc(g.game)}">
      <h2>${esc(title(g.game))}</h2>
      <p>${esc(t('learn.lessonsDone', { done: got.length, count: g.lessons }))} · ${stars(Math.min(3, Math.round((3 * earned) / Math.max(1, 3 * g.lessons))))}</p>
      <p class="muted">${esc(t('learn.puzzleCount', { count: g.puzzles }))}${rating ? ` · ${esc(t('learn.yourRating', { rating: Math.round(rating.rating) }))}` : ''}</p>
      <div class="row">
        <a class="button" href="#/learn/${esc(g.game)}">${esc(t('learn.lessons'))}</a>
        ${g.puzzles ? `<a class="button ghost" href="#/puzzles/${esc(g.game)}">${esc(t('learn.puzzles'))}</a>` : ''}
      </div>
      <div class="row">${guidedButtons(g.game, 'ghost')}</div>
    </article>`;
  }).join('');
  main.innerHTML = `
    <section class="intro"><h1>${esc(t('learn.title'))}</h1><p>${esc(t('learn.intro'))}</p></section>
    <section class="cards">${cards}</section>`;
  wireGuided(main.querySelector('.cards'), toast);
}

/** The specs of a game's guided first games: Gildervaik's two modes play differently. */
const GUIDED_SPECS = { gildervaik: ['gildervaik', 'gildervaik(mode=warrior)'] };
/** The gentlest AI level, the guided game's opponent. */
const GENTLE = 'level1';

/** The buttons that start a guided first game of `game`. */
function guidedButtons(game, cls = '') {
  return (GUIDED_SPECS[game] || [game]).map((spec) => {
    const label = spec.includes('mode=warrior') ? t('guide.startWarrior') : t('guide.start');
    return `<button type="button" class="${cls}" data-guided="${esc(spec)}">${esc(label)}</button>`;
  }).join(' ');
}

/**
 * Start a guided first game of `spec`: a normal game (the usual creation
 * API) with the first seat the player's and every other the gentlest AI,
 * remembered as guided in this browser, then opened.
 */
async function startGuided(spec, toast) {
  try {
    const game = spec.split('(')[0];
    const seats = (await sidesOf(game)).map((_, i) => (i === 0
      ? { type: 'human', name: playerName() || undefined }
      : { type: 'ai', level: GENTLE }));
    const res = await api('/api/games', { spec, seats });
    for (const s of res.tokens) rememberSeat(res.id, s.seat, s.token);
    markGuided(res.id);
    location.hash = `#/game/${res.id}`;
  } catch (err) { toast?.(err.message, true); }
}

/** Wire the guided-game buttons inside `el`. */
function wireGuided(el, toast) {
  el.addEventListener('click', (e) => {
    const spec = e.target.closest('[data-guided]')?.dataset.guided;
    if (spec) startGuided(spec, toast);
  });
}

/** Level tabs for Dragonchess on a phone: one level shown at a time. */
function levelTabs(el, module, shown, onPick, board) {
  if (!module.levels || !narrow.matches) { el.hidden = true; return; }
  el.hidden = false;
  el.innerHTML = module.levels.map((l) => `<button type="button" role="tab" data-level="${l.n}" aria-selected="${l.n === shown}" class="${l.n === shown ? 'on' : ''}">${l.n} ${esc(l.name)}</button>`).join('');
  markTargets(el, board);
  el.onclick = (e) => {
    const n = e.target.closest('button')?.dataset.level;
    if (n) onPick(Number(n));
  };
}

/**
 * A dot (class `targets`) on the tabs of the levels where the piece
 * selected on `board` can go: drawn over the tab, so that nothing moves
 * under the finger between the touch and its click.
 */
function markTargets(el, board) {
  const targets = new Set(board.targets(board.selected).map((m) => m.to[0]));
  for (const b of el.querySelectorAll('button[data-level]')) b.classList.toggle('targets', targets.has(b.dataset.level));
}

/**
 * One board for an exercise: the position and legal actions of a replay
 * state, the actions that have no cell as buttons, level tabs on a phone.
 * The analysis board uses it too, from whichever side is to move: there
 * `flip` fixes the board's side and `you` words the line over the board.
 */
export class Exercise {
  constructor(section, game, onPlay, names, { flip = null, you = (side) => t('learn.youPlay', { side }) } = {}) {
    this.section = section;
    this.game = game;
    this.names = names;
    this.flip = flip;
    this.you = you;
    this.module = boards[game];
    this.level = 2;
    this.board = new BoardView(section.querySelector('.board-host'), this.module, onPlay);
    this.onPlay = onPlay;
    section.querySelector('.board-host').addEventListener('selectionchange', () => markTargets(section.querySelector('.level-tabs'), this.board));
    section.querySelector('.buttons').addEventListener('click', (e) => {
      const a = e.target.closest('button')?.dataset.action;
      if (a) onPlay(a);
    });
  }

  /**
   * Show `state` (a replay) from `seat`'s side; `steps` slide in and are
   * marked as the last move (`marked`, when that differs: the analysis
   * board marks the move that led here, sliding or not); `over`: nothing
   * more to play.
   */
  show(state, seat, steps = [], over = false, marked = steps) {
    const mine = !over && state.to_move === seat ? state.legal : [];
    // On a phone, the level where a piece can move first.
    if (this.module.levels && steps.length === 0) {
      const first = mine.map((a) => this.module.locate(a)).find(Boolean);
      if (first) this.level = Number(first.from[0]);
    }
    const last = state.steps.slice(-1)[0];
    const render = () => {
      this.board.show({
        pos: state.position,
        legal: mine,
        last: marked.map((s) => s.action),
        check: !!last?.facts?.check,
        view: { flip: this.flip ?? seat === 1, level: this.module.levels && narrow.matches ? this.level : 0, narrow: narrow.matches, turn: seat },
        steps: steps.map((s) => s.action),
      });
      levelTabs(this.section.querySelector('.level-tabs'), this.module, this.level, (n) => { this.level = n; render(); }, this.board);
    };
    render();
    let model = null;
    try { model = this.module.parse(state.position); } catch { /* drawn as is */ }
    const sideOf = (i) => sideLabel(this.game, this.names[i] || String(i + 1));
    this.section.querySelector('.you').textContent = seat === null ? '' : this.you(sideOf(seat));
    this.section.querySelector('.extra').innerHTML = model ? this.module.extra(model, state.spec, sideOf) : '';
    const free = mine.filter((a) => !this.module.locate(a));
    this.section.querySelector('.buttons').innerHTML = free.length > 12 ? '' : free
      .map((a) => `<button type="button" data-action="${esc(a)}">${esc(this.module.label(a))}</button>`).join('');
  }
}

/** The verdict under the board: `html` (escaped by the caller) of `kind` going, done, refused or hint. */
function say(section, html, kind) {
  const el = section.querySelector('.verdict');
  el.className = `verdict ${kind}`;
  el.dataset.kind = kind;
  el.innerHTML = html;
}

/** The skeleton of an exercise page. */
export function exerciseHtml({ kind, game, crumbs, heading, text }) {
  return `
    <section class="learn ${kind}${boards[game]?.wide ? ' wide' : ''}" data-game="${esc(game)}">
      <p class="crumbs">${crumbs}</p>
      <h1>${heading}</h1>
      <p class="lesson-text">${text}</p>
      <div class="level-tabs" role="tablist" hidden></div>
      <p class="you muted"></p>
      <div class="board-host" id="board"></div>
      <div class="extra"></div>
      <div class="buttons row"></div>
      <p class="verdict" role="status" aria-live="polite"></p>
      <div class="row controls"></div>
      <div class="more"></div>
    </section>`;
}

/** `#/learn/<game>[/<id>]`: one lesson, and the list of the game's lessons. */
export class LessonPage {
  constructor(main, game, id, toast) {
    Object.assign(this, { main, game, id, toast });
  }

  close() {}

  async open() {
    await syncProgress();
    const { lessons } = await api(`/api/learn/${encodeURIComponent(this.game)}`);
    const done = progress().lessons;
    const full = (id) => (id && !id.includes('/') ? `${this.game}/${id}` : id);
    this.lesson = lessons.find((l) => l.id === full(this.id)) || lessons.find((l) => !done[l.id]) || lessons[0];
    if (!this.lesson) throw new Error(t('learn.noLessons'));
    const at = lessons.indexOf(this.lesson);
    this.next = lessons[at + 1];
    const list = lessons.map((l, i) => `<li><a href="#/learn/${esc(l.id)}"${l === this.lesson ? ' aria-current="page"' : ''}>${i + 1}. ${esc(words(l.title))}</a> ${done[l.id] ? stars(done[l.id]) : ''}</li>`).join('');
    this.main.innerHTML = exerciseHtml({
      kind: 'lesson',
      game: this.game,
      crumbs: `<a href="#/learn">${esc(t('learn.allGames'))}</a> · <a href="#/rules/${esc(this.game)}">${esc(t('home.rules'))}</a> · <a href="#/puzzles/${esc(this.game)}">${esc(t('learn.puzzles'))}</a>`,
      heading: `${esc(title(this.game))} · ${at + 1}/${lessons.length} · ${esc(words(this.lesson.title))}`,
      text: esc(words(this.lesson.text)),
    });
    const section = this.main.querySelector('section.learn');
    section.dataset.lesson = this.lesson.id;
    section.querySelector('.more').innerHTML = `<details class="lesson-list"><summary>${esc(t('learn.allLessons'))}</summary><ol>${list}</ol></details>
      <div class="guided"><h2>${esc(t('guide.title'))}</h2><p>${esc(t('guide.intro'))}</p><div class="row">${guidedButtons(this.game)}</div></div>`;
    wireGuided(section.querySelector('.guided'), this.toast);
    section.querySelector('.controls').innerHTML = `
      <button type="button" class="ghost" data-do="hint">${esc(t('learn.hint'))}</button>
      <button type="button" class="ghost" data-do="retry">${esc(t('learn.retry'))}</button>
      ${this.next ? `<a class="button" data-do="next" hidden href="#/learn/${esc(this.next.id)}">${esc(t('learn.next'))}</a>` : `<a class="button" data-do="next" hidden href="#/learn">${esc(t('learn.allGames'))}</a>`}`;
    section.querySelector('.controls').addEventListener('click', (e) => {
      const what = e.target.closest('[data-do]')?.dataset.do;
      if (what === 'hint') this.hint();
      if (what === 'retry') this.start();
    });
    this.section = section;
    this.exercise = new Exercise(section, this.game, (a) => this.play(a), await sidesOf(this.game));
    this.hints = 0;
    await this.start();
  }

  async start() {
    this.actions = [];
    this.over = false;
    this.shown = 0;
    this.section.querySelector('[data-do="next"]').hidden = true;
    this.say('', '');
    const run = await api('/api/learn/check', { lesson: this.lesson.id, actions: [] });
    this.seat = run.state.to_move;
    this.exercise.show(run.state, this.seat);
  }

  hint() {
    const hints = this.lesson.hints;
    const text = hints.length ? words(hints[this.hints % hints.length]) : t('learn.noHint');
    this.hints += 1;
    this.say(text, 'hint');
  }

  say(text, kind) { say(this.section, text, kind); }

  async play(action) {
    if (this.over) return;
    this.actions.push(action);
    let run;
    try {
      run = await api('/api/learn/check', { lesson: this.lesson.id, actions: this.actions });
    } catch (err) {
      this.actions.pop();
      this.toast(err.message, true);
      return;
    }
    if (run.status === 'refused') {
      this.actions.pop();
      const why = run.why.text ? words(run.why.text) : t(`learn.why.${run.why.key.replace(/^learn\.why\./, '')}`);
      this.say(`<strong>${esc(t('learn.notThat'))}</strong> ${esc(why)}`, 'refused');
      this.exercise.show(run.state, this.seat);
      return;
    }
    const fresh = run.state.steps.slice(this.shown);
    this.shown = run.state.steps.length;
    this.exercise.show(run.state, this.seat, fresh, run.status === 'done');
    if (run.status === 'done') {
      this.over = true;
      const p = progress();
      p.lessons[this.lesson.id] = Math.max(p.lessons[this.lesson.id] || 0, run.stars);
      saveProgress(p);
      this.say(`${stars(run.stars)} <strong>${esc(words(this.lesson.success))}</strong> ${esc(t('learn.movesUsed', { count: run.moves, par: this.lesson.par }))}`, 'done');
      this.section.querySelector('[data-do="next"]').hidden = false;
    } else {
      this.say(esc(t('learn.goOn', { count: run.moves, limit: this.lesson.limit })), 'going');
    }
  }
}

/** `#/puzzles/<game>`: the puzzle nearest the player's rating not yet tried. */
export class PuzzlePage {
  constructor(main, game, toast) {
    Object.assign(this, { main, game, toast });
  }

  close() {}

  mine() {
    const p = progress();
    return p.puzzles[this.game] || { rating: { ...NEW_RATING }, done: {} };
  }

  async open() {
    await syncProgress();
    const { puzzles } = await api(`/api/puzzles/${encodeURIComponent(this.game)}`);
    if (!puzzles.length) throw new Error(t('learn.noPuzzles'));
    const me = this.mine();
    const fresh = puzzles.filter((p) => !(p.id in me.done));
    const pool = fresh.length ? fresh : puzzles;
    const near = (p) => Math.abs(p.rating - me.rating.rating);
    this.puzzle = pool.reduce((best, p) => (near(p) < near(best) ? p : best), pool[0]);
    this.main.innerHTML = exerciseHtml({
      kind: 'puzzle',
      game: this.game,
      crumbs: `<a href="#/learn">${esc(t('learn.allGames'))}</a> · <a href="#/learn/${esc(this.game)}">${esc(t('learn.lessons'))}</a>`,
      heading: `${esc(title(this.game))} · ${esc(t('learn.puzzle'))} <span class="muted">${esc(this.puzzle.id)}</span>`,
      text: `${esc(t([`learn.theme.${this.game}.${this.puzzle.theme}`, `learn.theme.${this.puzzle.theme}`]))} <span class="rating">${esc(t('learn.yourRating', { rating: Math.round(me.rating.rating) }))}</span> · ${esc(t('learn.puzzleRating', { rating: Math.round(this.puzzle.rating) }))}`,
    });
    this.section = this.main.querySelector('section.learn');
    this.section.dataset.puzzle = this.puzzle.id;
    this.section.querySelector('.controls').innerHTML = `<button type="button" data-do="next" hidden>${esc(t('learn.nextPuzzle'))}</button>`;
    this.section.querySelector('[data-do="next"]').addEventListener('click', () => this.open());
    this.exercise = new Exercise(this.section, this.game, (a) => this.play(a), await sidesOf(this.game));
    this.actions = [];
    this.over = false;
    this.shown = 0;
    const run = await this.check();
    this.seat = run.state.to_move;
    this.exercise.show(run.state, this.seat);
    this.say(esc(t('learn.findBest')), 'going');
  }

  check() {
    return api('/api/puzzles/check', { game: this.game, id: this.puzzle.id, actions: this.actions, rating: this.mine().rating });
  }

  say(text, kind) { say(this.section, text, kind); }

  async play(action) {
    if (this.over) return;
    this.actions.push(action);
    let run;
    try { run = await this.check(); } catch (err) { this.actions.pop(); this.toast(err.message, true); return; }
    const fresh = run.state.steps.slice(this.shown);
    this.shown = run.state.steps.length;
    this.section.dataset.steps = String(this.shown);
    if (run.status === 'going') {
      this.exercise.show(run.state, this.seat, fresh);
      // A longer puzzle: the reply was played, the solver goes on.
      if (run.state.to_move === this.seat) this.say(esc(t('learn.goodGoOn')), 'going');
      return;
    }
    this.over = true;
    const me = this.mine();
    const before = Math.round(me.rating.rating);
    const after = run.rating ? Math.round(run.rating.rating) : before;
    const p = progress();
    p.puzzles[this.game] = { rating: run.rating || me.rating, done: { ...me.done, [this.puzzle.id]: run.status === 'solved' ? 1 : 0 } };
    saveProgress(p);
    const delta = `${after >= before ? '+' : '−'}${Math.abs(after - before)}`;
    const rating = `<span class="rating-change">${esc(t('learn.ratingNow', { rating: after, delta }))}</span>`;
    this.exercise.show(run.state, this.seat, fresh, true);
    if (run.status === 'solved') this.say(`<strong>${esc(t('learn.solved'))}</strong> ${rating}`, 'done');
    else this.say(`<strong>${esc(t('learn.notThat'))}</strong> ${esc(t('learn.solution', { line: run.line.join(', ') }))} ${rating}`, 'refused');
    this.section.querySelector('.rating').textContent = t('learn.yourRating', { rating: after });
    this.section.querySelector('[data-do="next"]').hidden = false;
  }
}
