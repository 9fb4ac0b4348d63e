// @ts-check
// Glicko-2, the published algorithm (Glickman, "Example of the Glicko-2 system", 2022):
// the browser's copy of src/trashcards/players/glicko2.py, step for step, checked
// against it by tests/web/test_js_profile.py. One match is one rating period.

export const SCALE = 173.7178;
export const TAU = 0.5;
const EPSILON = 0.000001;

/** A rating on the Glicko scale: its value, deviation and volatility.
 *  @typedef {{rating: number, rd: number, volatility: number}} Rating */
/** One result of a rating period: the opponent's rating and the score (1, 0.5 or 0).
 *  @typedef {[Rating, number]} Result */

/** A rating on the Glicko scale: {rating, rd, volatility}.
 *  @param {number} [r] @param {number} [rd] @param {number} [volatility]
 *  @returns {Rating} */
export function rating(r = 1500, rd = 350, volatility = 0.06) {
  return { rating: r, rd, volatility };
}

/** @param {number} phi @returns {number} */
const g = (phi) => 1 / Math.sqrt(1 + (3 * phi * phi) / (Math.PI * Math.PI));
/** @param {number} mu @param {number} muJ @param {number} gJ @returns {number} */
const expected = (mu, muJ, gJ) => 1 / (1 + Math.exp(-gJ * (mu - muJ)));

/** `player` after one rating period with `results`: [[opponent, score], …].
 *  @param {Rating} player @param {Result[]} results @param {number} [tau]
 *  @returns {Rating} */
export function update(player, results, tau = TAU) {
  let mu = (player.rating - 1500) / SCALE;
  let phi = player.rd / SCALE;
  let sigma = player.volatility;
  if (!results.length) {
    return rating(player.rating, Math.sqrt(phi * phi + sigma * sigma) * SCALE, sigma);
  }
  let info = 0;
  let gain = 0;
  for (const [opponent, score] of results) {
    const gJ = g(opponent.rd / SCALE);
    const eJ = expected(mu, (opponent.rating - 1500) / SCALE, gJ);
    info += gJ * gJ * eJ * (1 - eJ);
    gain += gJ * (score - eJ);
  }
  const v = 1 / info;
  const delta = v * gain;
  sigma = volatility(phi, sigma, v, delta, tau);
  const phiStar = Math.sqrt(phi * phi + sigma * sigma);
  phi = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  mu += phi * phi * gain;
  return rating(1500 + SCALE * mu, SCALE * phi, sigma);
}

/** The new volatility (the paper's step 5, the Illinois algorithm).
 *  @param {number} phi @param {number} sigma @param {number} v @param {number} delta
 *  @param {number} tau @returns {number} */
function volatility(phi, sigma, v, delta, tau) {
  const a = Math.log(sigma * sigma);
  /** @param {number} x @returns {number} */
  const f = (x) => {
    const ex = Math.exp(x);
    return (ex * (delta * delta - phi * phi - v - ex)) / (2 * (phi * phi + v + ex) ** 2)
      - (x - a) / (tau * tau);
  };
  let bigA = a;
  let bigB;
  if (delta * delta > phi * phi + v) {
    bigB = Math.log(delta * delta - phi * phi - v);
  } else {
    let k = 1;
    while (f(a - k * tau) < 0) k += 1;
    bigB = a - k * tau;
  }
  let fA = f(bigA);
  let fB = f(bigB);
  while (Math.abs(bigB - bigA) > EPSILON) {
    const bigC = bigA + ((bigA - bigB) * fA) / (fB - fA);
    const fC = f(bigC);
    if (fC * fB <= 0) {
      bigA = bigB;
      fA = fB;
    } else {
      fA /= 2;
    }
    bigB = bigC;
    fB = fC;
  }
  return Math.exp(bigA / 2);
}

/** `player` after `periods` periods without a game (the deviation grows, at most to
 *  `ceiling`). @param {Rating} player @param {number} periods @param {number} [ceiling]
 *  @returns {Rating} */
export function idle(player, periods, ceiling = 350) {
  if (periods <= 0) return player;
  const phi = player.rd / SCALE;
  const rd = Math.sqrt(phi * phi + periods * player.volatility ** 2) * SCALE;
  return rating(player.rating, Math.min(rd, ceiling), player.volatility);
}
