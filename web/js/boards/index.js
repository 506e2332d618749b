// The board module of each game, by registry name.
import dragonchess from './dragonchess.js';
import gildervaik from './gildervaik.js';
import phylde from './phylde.js';
import stelpur from './stelpur.js';
import generic from './generic.js';

export const boards = { dragonchess, gildervaik, phylde, stelpur };

export function boardFor(name) {
  return boards[name] || generic;
}
