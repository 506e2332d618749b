// Any other game: the position as text; every action is a button.
import { esc } from '../util.js';

export default {
  parse(pos) { return { pos }; },
  locate() { return null; },
  draw(model) {
    return `<pre class="board generic">${esc(model.pos)}</pre>`;
  },
  extra() { return ''; },
};
