// The guide of a first game (issue 40): beside a real game against the
// gentlest AI, it names what was just played and suggests what to look at
// next. It reads only the server's facts: each history entry's `capture`,
// `check`, `mate` and `route`, the state's `legal` and `captures` (the
// legal actions that take a piece), the result's `how`. The notation is
// read only for where a piece went (a level, a cell), never for what the
// move did. No DOM and no strings here: notes are keys with variables,
// worded by `words` with the page's `t`, so node tests the logic.

/** The games started as guided ones in this browser (their ids, newest last). */
const GUIDED = 'tabula.guided';
/** The player switched the guide off (for every game). */
const OFF = 'tabula.guide.off';
/** Guided games remembered: enough for anyone's first games. */
const KEEP = 20;

/** Ad Elta Stelpur's rune corners: the corners of each half of the track. */
const RUNES = new Set([1, 6, 7, 12, 13, 18, 19, 24]);

/** Remember that game `id` is a guided one (`store`: localStorage or a stand-in). */
export function markGuided(id, store = globalThis.localStorage) {
  const ids = guidedIds(store).filter((g) => g !== id);
  ids.push(id);
  store.setItem(GUIDED, JSON.stringify(ids.slice(-KEEP)));
}

function guidedIds(store) {
  try {
    const ids = JSON.parse(store.getItem(GUIDED));
    return Array.isArray(ids) ? ids.filter((x) => typeof x === 'string') : [];
  } catch { return []; }
}

export const isGuided = (id, store = globalThis.localStorage) => guidedIds(store).includes(id);
export const guideOn = (store = globalThis.localStorage) => store.getItem(OFF) !== '1';
export function setGuideOn(on, store = globalThis.localStorage) {
  if (on) store.removeItem(OFF); else store.setItem(OFF, '1');
}

/** The level of a Dragonchess square's action end: `R3f5x2f4` goes from 3 to 2. */
function levels(action) {
  const m = /^[A-Z]([1-3])[a-l][1-8][-x]([1-3])[a-l][1-8]/.exec(action);
  return m ? [Number(m[1]), Number(m[2])] : null;
}

/** The cell an Ad Elta Stelpur action lands on: `6:6-12` lands on 12. */
function stelpurCell(action) {
  const m = /^\d:\d+-(\d+)$/.exec(action);
  return m ? Number(m[1]) : null;
}

/**
 * The entries to tell about: from the player's own last turn on (their
 * move and everything since), so a reload tells the same. Nothing before
 * the player has moved but the openings of the others.
 */
export function recent(history, mine) {
  let end = history.length;
  // Skip back over the others' entries (and rolls) since the player's last turn.
  while (end > 0 && !mine.has(history[end - 1].actor)) end -= 1;
  let start = end;
  while (start > 0 && mine.has(history[start - 1].actor)) start -= 1;
  // The roll that opened the player's own turn belongs to it.
  if (start > 0 && start < end && history[start - 1].actor === null) start -= 1;
  return history.slice(start);
}

/**
 * What the entries did, one note a turn of a seat (a roll is its own
 * note): `{key, seat, vars}`. Keys: `roll`, `rollNothing`, `moved`,
 * `took`, `chain`, `check`, `mate`, `level`, `rune`.
 */
export function happened(game, entries) {
  const notes = [];
  let run = null;
  entries.forEach((e, i) => {
    if (e.actor === null) {
      run = null;
      // A roll no action follows before the next roll or the end moved nothing.
      const next = entries[i + 1];
      const passes = next !== undefined && next.actor === null;
      notes.push({ key: passes ? 'rollNothing' : 'roll', seat: null, vars: { roll: e.text } });
      return;
    }
    if (!run || run.seat !== e.actor) {
      run = { seat: e.actor, actions: [], took: 0, checks: false, mate: false, jumps: 0, level: null, runes: [] };
      notes.push(run);
    }
    run.actions.push(e.text);
    if (e.capture) run.took += 1;
    if (e.check) run.checks = true;
    if (e.mate) run.mate = true;
    // A chain: a conquest jump's route, or a warrior capture's landings (`e5xe7xf9`).
    const hops = e.route?.length > 2 ? e.route.length - 1 : game === 'gildervaik' ? e.text.split('x').length - 1 : 0;
    if (hops > 1) run.jumps = Math.max(run.jumps, hops);
    const lv = game === 'dragonchess' ? levels(e.text) : null;
    if (lv && lv[0] !== lv[1]) run.level = { from: lv[0], to: lv[1] };
    const cell = game === 'stelpur' ? stelpurCell(e.text) : null;
    if (cell !== null && RUNES.has(cell)) run.runes.push(cell);
  });
  return notes.flatMap((n) => {
    if (!n.actions) return [n];
    const out = [{ key: 'moved', seat: n.seat, vars: { actions: n.actions } }];
    if (n.jumps) out.push({ key: 'chain', seat: n.seat, vars: { count: n.jumps } });
    if (n.took) out.push({ key: 'took', seat: n.seat, vars: { count: n.took } });
    if (n.level) out.push({ key: 'level', seat: n.seat, vars: n.level });
    if (n.runes.length) out.push({ key: 'rune', seat: n.seat, vars: { cells: n.runes.join(', ') } });
    if (n.mate) out.push({ key: 'mate', seat: n.seat, vars: {} });
    else if (n.checks) out.push({ key: 'check', seat: n.seat, vars: {} });
    return out;
  });
}

/**
 * What to look at now: `{key, vars}`. On the player's turn: a check to
 * answer, captures to make (all of them compulsory when every legal
 * action takes), the dice a roll gives, else a tip of the game's, which
 * changes with the turn (`tip`, `vars.n`). Otherwise: wait, or the end.
 */
export function suggest(game, { history, state }, mine) {
  if (state.result) {
    const won = !state.result.draw && state.result.winners.some((w) => mine.has(w));
    return { key: state.result.draw ? 'overDraw' : won ? 'overWon' : 'overLost', vars: {} };
  }
  const turn = state.turn;
  if (turn.kind !== 'player' || !mine.has(turn.seat)) return { key: 'wait', vars: {} };
  const last = history[history.length - 1];
  if (last?.check && !mine.has(last.actor)) return { key: 'answerCheck', vars: { count: state.legal.length } };
  const captures = state.captures || [];
  if (captures.length && captures.length === state.legal.length) {
    return { key: 'compulsory', vars: { count: captures.length } };
  }
  if (captures.length) return { key: 'capture', vars: { count: captures.length, action: captures[0] } };
  if (game === 'stelpur') {
    const dice = [...new Set(state.legal.map((a) => a.split(':')[0]))].sort().reverse();
    if (dice.length) return { key: 'dice', vars: { dice: dice.join(', '), count: dice.length } };
  }
  const turns = history.filter((e) => mine.has(e.actor)).length;
  return { key: 'tip', vars: { n: turns % TIPS } };
}

/** Each game has this many general tips (`guide.tips.<game>.<n>`). */
export const TIPS = 4;

/**
 * The notes and the suggestion as text: `t` the page's translation,
 * `side(seat)` a seat's name, `describe(action)` an action in words (the
 * board module's, when it has them). `mine` words the player's own turns
 * as "You".
 */
export function words(game, notes, tip, { t, side, level, mine, describe = (a) => a }) {
  const said = notes.map((n) => {
    const who = n.seat === null ? '' : mine.has(n.seat) ? t('guide.you') : side(n.seat);
    const vars = { ...n.vars, side: who };
    if (n.key === 'moved') vars.actions = n.vars.actions.map(describe).join(', ');
    if (n.key === 'level') Object.assign(vars, { from: level(n.vars.from), to: level(n.vars.to) });
    return t(`guide.said.${n.key}`, vars);
  });
  const look = tip.key === 'tip' ? t(`guide.tips.${game}.${tip.vars.n}`) : t(`guide.look.${tip.key}`, tip.vars);
  return { said, look };
}
