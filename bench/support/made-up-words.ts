/** A seeded generator, so every run writes and asks the same. */
export function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ren', 'tu', 'sa', 'vor', 'el', 'qui', 'dan', 'fe', 'por', 'ny', 'zal', 'bri'];

/** Made-up words, so a bench's texts are words a tokenizer and a full-text index treat as such. */
const VOCABULARY = Array.from({ length: 5000 }, (_, i) => {
  let word = '';
  for (let n = i + 7; n > 0; n = Math.floor(n / SYLLABLES.length)) word += SYLLABLES[n % SYLLABLES.length];
  return word;
});

/** A word of VOCABULARY with a Zipf-like skew, as real prose repeats its common words. */
export const skewedWord = (rand: () => number) => VOCABULARY[Math.floor(VOCABULARY.length * rand() ** 3)]!;
