// What a hint's value means, in words. The AI gives the mover's expected
// score in [0, 1] (a win 1, a shared result in between); an even game is
// worth a fair share, 1/2 with two players but 1/3 with three, so a bare
// percentage misleads (and the alternatives an alpha-beta search cut off
// carry bounds, not values: only the best move's value is shown).

/** The verdict on a position worth `value` to the mover among `players`:
 * one of the keys of `hint.verdict` in the locale files. */
export function verdict(value, players) {
  const fair = 1 / Math.max(2, players);
  // -1 (sure loss) .. 0 (a fair share) .. 1 (sure win)
  const edge = value >= fair ? (value - fair) / (1 - fair) : (value - fair) / fair;
  if (edge >= 0.8) return 'winning';
  if (edge >= 0.3) return 'better';
  if (edge >= 0.1) return 'slightlyBetter';
  if (edge > -0.1) return 'even';
  if (edge > -0.3) return 'slightlyWorse';
  if (edge > -0.8) return 'worse';
  return 'losing';
}
