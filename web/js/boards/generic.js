// Any other game: the position as text; every action is a button. The
// other board modules start from these defaults (see index.js).
import { esc } from '../util.js';

export default {
  parse(pos) { return { pos }; },
  locate() { return null; },
  /** The text of an action's button: the game's notation by default. */
  label(action) { return action; },
  draw(model) {
    return `<pre class="board generic">${esc(model.pos)}</pre>`;
  },
  extra() { return ''; },
  /**
   * Why `action` is not among `legal` in position `model`, in words, when
   * the game can tell (a compulsory capture...); null: the server's words.
   */
  explain() { return null; },
};
