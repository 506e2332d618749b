// The pictures of Dragonchess's 15 pieces, drawn for this project: one
// silhouette per kind letter on a 20x20 box, filled with the side's colour
// and outlined (style.css), so that each reads at a phone's cell size. `d`
// is path data, or a list of it drawn in order (each part over the last);
// `tube`, drawn first, is a centreline stroked thick and outlined (the
// Basilisk's body); `holes`: the subpaths after the first are cut out
// (even-odd filling).

export const PIECE_ART = {
  // Sylph: a butterfly-winged air spirit (round wings, antennae).
  S: {
    d: [
      'M10 8C7.5 3 1.5 1.5 1.5 6.5C1.5 9.5 4.5 11 7.5 10.3C5 12.5 4.5 17 7 17C8.7 17 9.6 14.8 10 12.5C10.4 14.8 11.3 17 13 17C15.5 17 15 12.5 12.5 10.3C15.5 11 18.5 9.5 18.5 6.5C18.5 1.5 12.5 3 10 8Z',
      'M10 1.8A2.1 2.1 0 1 1 9.99 1.8ZM10 7C11.4 7 11.8 11 11.6 13.6C11.4 15.8 10.7 18 10 18C9.3 18 8.6 15.8 8.4 13.6C8.2 11 8.6 7 10 7Z',
    ],
  },
  // Griffin: an eagle's head, hooked beak, feathered nape.
  G: {
    holes: true,
    d: 'M15.6 19L19 16.3L15.7 15.3L19 12.8L15.4 11.3L18.5 9.3L14.5 8C13.5 4.5 11 2.5 8 2.5C5.5 2.5 3.5 3.8 2.5 6C2 7.2 1.8 8.5 2.2 10.5C2.8 9.2 3.7 8.7 4.6 9.1C5.2 9.7 6.2 9.9 7.2 9.4C7.6 12.5 6.5 16 4.5 19Z'
      + 'M9.6 5.7A1.2 1.2 0 1 0 9.61 5.7Z',
  },
  // Dragon: bat wings spread, horned head, curled tail.
  R: {
    d: [
      'M10 9.5C12 6.5 15.5 3 19.8 2C19 5.2 19.2 8.5 19.8 11.5C18.3 10.5 16.8 10.8 16.2 12.5C15.2 11.3 13.4 11.5 12.6 13.1L10 11.5L7.4 13.1C6.6 11.5 4.8 11.3 3.8 12.5C3.2 10.8 1.7 10.5 0.2 11.5C0.8 8.5 1 5.2 0.2 2C4.5 3 8 6.5 10 9.5Z',
      'M10 2.4L11.1 3.3L12.6 1.2L12.4 4.4C12.1 6 12.3 7.6 12.6 9.4C13 12.2 13.4 14.6 15.2 15.8C16.2 16.6 17.6 16.4 18.4 15.6C18.3 18.3 15.8 19.7 13.2 19.1C10.5 18.5 9.2 16.3 8.5 13.8C7.9 11.8 7.4 10 7.5 8.2C7.6 6.8 7.9 5.8 7.6 4.4L7.4 1.2L8.9 3.3Z',
    ],
  },
  // Warrior: the foot soldier, a pawn in a helmet.
  W: {
    d: 'M10 2C12.2 2 13.4 3.6 13.4 5.6C13.4 6.8 12.9 7.8 12.2 8.5H7.8C7.1 7.8 6.6 6.8 6.6 5.6C6.6 3.6 7.8 2 10 2Z'
      + 'M6 8.5H14V10H6Z'
      + 'M7.6 10H12.4L14.6 16.5H5.4Z'
      + 'M3.5 16.5H16.5V19H3.5Z',
  },
  // Oliphant: an elephant, trunk down, big ear.
  O: {
    holes: true,
    d: 'M18.5 9.5C18.5 6 16.5 4 13 4H8.5C5 4 3 6 3 9.5V14.5C3 15.8 2.3 16.8 1.3 17.3L2.2 18.6C4.2 18 5.2 16.5 5.2 14.5V12.5H6V18.8H8.8V14H14V18.8H16.8V13C18 12.2 18.5 11 18.5 9.5Z'
      + 'M6.8 5.8C9.8 5.6 11 7.5 10.4 10.5C9 11.5 7.2 10.8 6.6 9.4Z',
  },
  // Unicorn: a horse's head, as a chess knight, with a horn.
  U: {
    d: 'M5.5 19H17C17 15 16.3 12 15.3 9C14.3 6 12.2 4.2 9.6 3.8L8.6 2.2L7.6 4.2C5.8 5 4.4 6.8 3.4 8.8L2.4 11.2C2.2 12.3 3 13 4 12.7L6.4 11.3C7.5 11.5 8.5 10.8 9.1 10.2C9.2 12.8 7.2 14.6 6.2 16.2Z'
      + 'M5.2 5.4L0.6 0.6L6.9 4.2Z',
  },
  // Hero: an upright sword.
  H: {
    d: 'M10 0.5L12.4 3.4V12.2H7.6V3.4Z'
      + 'M3.2 12.2H16.8V15H3.2Z'
      + 'M8.6 15H11.4V16.8H8.6Z'
      + 'M10 16A1.9 1.9 0 1 1 9.99 16Z',
  },
  // Thief: a domino mask.
  T: {
    holes: true,
    d: 'M1 7.5C4 4.8 8 5.5 10 7.3C12 5.5 16 4.8 19 7.5C19.3 11.8 16.5 14.6 13 14.2C11.6 14 10.9 12.4 10 12.4C9.1 12.4 8.4 14 7 14.2C3.5 14.6 0.7 11.8 1 7.5Z'
      + 'M3.6 9.6C4.6 8 7.4 8.1 8.3 9.9C7.2 11.4 4.6 11.4 3.6 9.6Z'
      + 'M16.4 9.6C15.4 8 12.6 8.1 11.7 9.9C12.8 11.4 15.4 11.4 16.4 9.6Z',
  },
  // Cleric: an ankh, a holy symbol.
  C: {
    holes: true,
    d: 'M10 0.8C13 0.8 14.6 3.3 14.6 5.8C14.6 7.8 13.4 9.5 12.2 10.6H17.4V13.2H11.4V19.2H8.6V13.2H2.6V10.6H7.8C6.6 9.5 5.4 7.8 5.4 5.8C5.4 3.3 7 0.8 10 0.8Z'
      + 'M10 3.2C8.6 3.2 7.9 4.4 7.9 5.8C7.9 7.4 8.8 8.8 10 9.8C11.2 8.8 12.1 7.4 12.1 5.8C12.1 4.4 11.4 3.2 10 3.2Z',
  },
  // Mage: a wizard's hat, its tip bent.
  M: {
    d: 'M1.5 17.2C6 15.3 14 15.3 18.5 17.2V19C14 17.6 6 17.6 1.5 19Z'
      + 'M5.2 16L8.8 6.2C10 3 12.8 1.3 16.8 2.4C13.8 3.3 12.4 5.3 12.8 7.8L14.8 16C11.6 15.4 8.4 15.4 5.2 16Z',
  },
  // King: a crown.
  K: {
    d: 'M3 15.8L1.8 6.2L6.4 10.2L10 3.6L13.6 10.2L18.2 6.2L17 15.8Z'
      + 'M3 16.8H17V19.2H3Z'
      + 'M1.8 3.6A1.3 1.3 0 1 1 1.79 3.6ZM10 1A1.3 1.3 0 1 1 9.99 1ZM18.2 3.6A1.3 1.3 0 1 1 18.19 3.6Z',
  },
  // Paladin: a shield with a cross.
  P: {
    holes: true,
    d: 'M3 2.2H17V9C17 14 13.5 17 10 19.2C6.5 17 3 14 3 9Z'
      + 'M8.8 4.5H11.2V7.6H14.2V10H11.2V15H8.8V10H5.8V7.6H8.8Z',
  },
  // Dwarf: a miner's pick.
  D: {
    d: 'M1.8 16.8L11.8 6.8L14.2 9.2L4.2 19.2Z'
      + 'M4.5 3.2C10.5 0 17.5 3 19.5 10.5C17.5 8.4 15.2 7.6 13.2 8.4L11.6 6.8C11.6 5 8.5 3.4 4.5 3.2Z',
  },
  // Basilisk: a crowned serpent rearing up.
  B: {
    tube: 'M12 6.5C14 9.5 8.5 10 6 11.8C3.2 13.8 4.6 17.2 8.2 17.4C11 17.6 14.2 16.4 17.6 17.8',
    d: [
      'M9.9 4.1L10.1 1L11.4 3L12.6 0.6L13.3 3L14.8 1.2L14.6 4.2Z',
      'M7.6 5.2C8.4 3.4 12 2.8 14.4 3.8C16.6 4.8 16.2 7.2 14 7.9L9.4 8.2C7.6 7.6 7 6.5 7.6 5.2Z',
    ],
  },
  // Elemental: a flame.
  E: {
    holes: true,
    d: 'M10 0.8C12 4.5 16.3 7 16.3 12.2C16.3 16.2 13.6 19.2 10 19.2C6.4 19.2 3.7 16.2 3.7 12.6C3.7 9.6 5.6 7.8 6.4 5.2C7.8 6.8 8.4 8.4 8.4 10C10.4 7.8 10.6 4.4 10 0.8Z'
      + 'M10 10.6C11.2 12.6 13 13.8 13 16C13 17.6 11.6 18.2 10 18.2C8.4 18.2 7.1 17.4 7.1 15.9C7.1 14 9.1 12.8 10 10.6Z',
  },
};

/** The parts of a picture, in drawing order. */
const parts = (art) => [].concat(art.d);

/**
 * SVG of piece `kind` of `side` (0 Gold, 1 Scarlet) in a `size` box at
 * (x, y): a `<g>` whose `<title>` names it for screen readers. `attrs` go
 * on the outer group (which carries no transform, so it can be animated).
 */
export function pieceSvg(kind, side, x, y, size, title, attrs = '') {
  const art = PIECE_ART[kind];
  const s = (size / 20).toFixed(4);
  const inner = art
    ? `${art.tube ? `<path class="tube-o" d="${art.tube}"/><path class="tube-i" d="${art.tube}"/>` : ''}${parts(art).map((d) => `<path class="art"${art.holes ? ' fill-rule="evenodd"' : ''} d="${d}"/>`).join('')}`
    : `<text x="10" y="14">${kind}</text>`;
  return `<g class="piece p${side}${kind === 'K' ? ' king' : ''}" data-kind="${kind}"${attrs}>${title ? `<title>${title}</title>` : ''}<g transform="translate(${x} ${y}) scale(${s})">${inner}</g></g>`;
}
