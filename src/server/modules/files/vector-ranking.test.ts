import { describe, expect, it } from 'vitest';
import { rankCopies, RERANK, SHORTLIST, signBits, type Copies } from './vector-ranking';

/**
 * The copies' ranking beside a plain one (a bit counted at a time, floating-point dot products): its word-parallel
 * bit counts and integer dot products (decision 0075) keep the same passages, at every width of vector, including
 * those whose bits do not fill whole steps.
 */
let seed = 7;
const random = () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32 - 0.5;

function copiesOf(rows: number, dims: number): Copies {
  const words = Math.ceil(dims / 32);
  const copies: Copies = {
    dims,
    words,
    mean: Float32Array.from({ length: dims }, () => random() / 10),
    ids: Float64Array.from({ length: rows }, (_, row) => 1000 + row),
    bits: new Uint32Array(rows * words),
    bytes: new Int8Array(rows * dims),
    scales: new Float32Array(rows),
  };
  for (let row = 0; row < rows; row++) {
    const vector = Float32Array.from({ length: dims }, random);
    signBits(vector, copies.mean, copies.bits.subarray(row * words, (row + 1) * words));
    let norm = 0;
    let largest = 0;
    for (const x of vector) {
      norm += x * x;
      largest = Math.max(largest, Math.abs(x));
    }
    for (let i = 0; i < dims; i++) copies.bytes[row * dims + i] = Math.round((vector[i]! / largest) * 127);
    copies.scales[row] = largest / 127 / Math.sqrt(norm);
  }
  return copies;
}

/** The plain ranking: each row's Hamming distance bit by bit, its bytes' cosine in floating point. */
function plainScores(copies: Copies, question: Float32Array) {
  const { dims, words } = copies;
  const rows = copies.ids.length;
  const q = new Uint32Array(words);
  signBits(question, copies.mean, q);
  const distances = Array.from({ length: rows }, (_, row) => {
    let d = 0;
    for (let w = 0; w < words; w++) {
      const x = q[w]! ^ copies.bits[row * words + w]!;
      for (let b = 0; b < 32; b++) d += (x >>> b) & 1;
    }
    return d;
  });
  const limit = [...distances].sort((a, b) => a - b)[SHORTLIST - 1]!;
  const cosine = new Map<number, number>();
  for (let row = 0; row < rows; row++) {
    if (distances[row]! > limit) continue;
    let dot = 0;
    for (let i = 0; i < dims; i++) dot += question[i]! * copies.bytes[row * dims + i]!;
    cosine.set(copies.ids[row]!, dot * copies.scales[row]!);
  }
  return cosine;
}

describe('the copies’ ranking', () => {
  it.each([64, 96, 300, 1536])('keeps the passages a plain ranking keeps, at %i dimensions', (dims) => {
    const copies = copiesOf(SHORTLIST + 1000, dims);
    for (let n = 0; n < 3; n++) {
      const question = Float32Array.from({ length: dims }, random);
      const ranked = rankCopies(copies, question);
      expect(ranked).toHaveLength(RERANK);
      const plain = plainScores(copies, question);
      // The RERANK best of the plain ranking's shortlist; a near tie at the last place may go either way.
      const cut = [...plain.values()].sort((a, b) => b - a)[RERANK - 1]!;
      for (const id of ranked) {
        expect(plain.has(id), `passage ${id} in the plain shortlist`).toBe(true);
        expect(plain.get(id)!).toBeGreaterThanOrEqual(cut - 1e-6);
      }
    }
  });
});
