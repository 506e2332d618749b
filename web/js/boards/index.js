// The board module of each game, by registry name. Each module owns its
// game's drawing and notation (`locate`, `label`); what a module leaves
// out comes from the generic one.
import dragonchess from './dragonchess.js';
import gildervaik from './gildervaik.js';
import phylde from './phylde.js';
import stelpur from './stelpur.js';
import generic from './generic.js';

const withDefaults = (module) => ({ ...generic, ...module });

export const boards = Object.fromEntries(
  Object.entries({ dragonchess, gildervaik, phylde, stelpur }).map(([name, m]) => [name, withDefaults(m)]),
);

export function boardFor(name) {
  return boards[name] || generic;
}
