/**
 * The ranking of a bot's passages by their compact copies (decision 0048), apart from how the copies are kept:
 * it runs on the vector scan thread (vector-scan.ts), or here when that thread is unavailable.
 */

/** Passages the bits hand on to the bytes. */
export const SHORTLIST = 2000;
/**
 * Passages the bytes hand on to exact cosine, read from the database: above the 40 the fusion takes (retrieval.ts
 * CANDIDATES). 50, not 100, since decision 0073: half the vectors read (on PostgreSQL the vector ranking at
 * 100,000 passages p50 40–43 → 31 ms), the top five still those of the exact ranking on the retrieval bench.
 */
export const RERANK = 50;

/** A bot's copies, row by row; on the scan thread, views of the same shared memory. */
export interface Copies {
  dims: number;
  /** 32-bit words of bits per passage. */
  words: number;
  /** Subtracted before taking signs, so a model whose vectors share an offset still spreads its bits. */
  mean: Float32Array;
  /** Passage ids, row by row. */
  ids: Float64Array;
  bits: Uint32Array;
  bytes: Int8Array;
  /** Per row: what turns the dot product of its bytes with a unit question's into a cosine. */
  scales: Float32Array;
}

export function signBits(vector: Float32Array, mean: Float32Array, out: Uint32Array) {
  for (let i = 0; i < vector.length; i++) {
    if (vector[i]! > mean[i]!) out[i >>> 5]! |= 1 << (i & 31);
  }
}

/** Set bits of one word. */
function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/**
 * Hamming distances of every row's bits to `q`'s. Four words a step, their 2-bit counts added in pairs before the
 * 4-bit step, and byte counts summed over up to 28 words before they are folded (each byte gains at most 32 a step,
 * 224 in all): 9.5 → 7 ms for 100,000 rows of 48 words with two words a step, against one count folded per word,
 * and 12.0–17.5 → 9.8–10.6 ms with four on a slower machine (decision 0075).
 */
function hammingDistances(q: Uint32Array, bits: Uint32Array, words: number, rows: number): Uint16Array {
  const distances = new Uint16Array(rows);
  const quads = words & ~3;
  for (let row = 0, at = 0; row < rows; row++, at += words) {
    let d = 0;
    for (let w = 0; w < quads;) {
      const end = Math.min(quads, w + 28);
      let lanes = 0;
      for (; w < end; w += 4) {
        let x = q[w]! ^ bits[at + w]!;
        let y = q[w + 1]! ^ bits[at + w + 1]!;
        let u = q[w + 2]! ^ bits[at + w + 2]!;
        let v = q[w + 3]! ^ bits[at + w + 3]!;
        x -= (x >>> 1) & 0x55555555;
        y -= (y >>> 1) & 0x55555555;
        u -= (u >>> 1) & 0x55555555;
        v -= (v >>> 1) & 0x55555555;
        x = (x & 0x33333333) + ((x >>> 2) & 0x33333333) + (y & 0x33333333) + ((y >>> 2) & 0x33333333);
        u = (u & 0x33333333) + ((u >>> 2) & 0x33333333) + (v & 0x33333333) + ((v >>> 2) & 0x33333333);
        lanes = (lanes + (x & 0x0f0f0f0f) + ((x >>> 4) & 0x0f0f0f0f) + (u & 0x0f0f0f0f) + ((u >>> 4) & 0x0f0f0f0f)) | 0;
      }
      lanes = (lanes & 0x00ff00ff) + ((lanes >>> 8) & 0x00ff00ff);
      d += (lanes & 0xffff) + (lanes >>> 16);
    }
    for (let w = quads; w < words; w++) d += popcount(q[w]! ^ bits[at + w]!);
    distances[row] = d;
  }
  return distances;
}

/** Rows of up to about `count` passages whose bits are closest to the question's by Hamming distance. */
function closestBits(copies: Copies, question: Float32Array, count: number): number[] {
  const n = copies.ids.length;
  if (n <= count) return Array.from({ length: n }, (_, row) => row);
  const q = new Uint32Array(copies.words);
  signBits(question, copies.mean, q);
  const distances = hammingDistances(q, copies.bits, copies.words, n);
  const histogram = new Uint32Array(copies.dims + 1);
  for (const d of distances) histogram[d]!++;
  // The smallest distance that, with all closer ones, reaches `count` passages; ties at it all come along.
  let limit = 0;
  for (let seen = histogram[0]!; seen < count; seen += histogram[limit]!) limit++;
  const rows: number[] = [];
  for (let row = 0; row < n; row++) if (distances[row]! <= limit) rows.push(row);
  return rows;
}

/**
 * Ids of the `count` passages of `rows` whose bytes make the highest cosine with the question. The question is
 * scaled to integers (up to 32,767, less where a row's sum could leave 32 bits), so the products and sums stay in
 * 32-bit integer arithmetic: 7.9–8.3 → 4.0–6.9 ms for 2,000 passages of 1,536 dimensions (decision 0075), against
 * a Float64Array question (itself three times faster than a Float32Array one). Four running sums, so the loop's
 * multiplications do not wait on each other.
 */
function closestBytes(copies: Copies, question: Float32Array, rows: number[], count: number): number[] {
  if (rows.length <= count) return rows.map((row) => copies.ids[row]!);
  const { dims, bytes, scales } = copies;
  let largest = 0;
  for (const x of question) largest = Math.max(largest, Math.abs(x));
  // Each of the four sums adds a quarter of the dimensions (the first also the up to three left over), each product
  // at most 128 times the scaled question.
  const scale = Math.min(32_767, Math.floor(0x7fffffff / (128 * (Math.floor(dims / 4) + 3)))) / (largest || 1);
  const q = Int32Array.from(question, (x) => Math.round(x * scale));
  const scores = new Float64Array(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const at = rows[r]! * dims;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let i = 0;
    for (; i + 3 < dims; i += 4) {
      s0 = (s0 + Math.imul(q[i]!, bytes[at + i]!)) | 0;
      s1 = (s1 + Math.imul(q[i + 1]!, bytes[at + i + 1]!)) | 0;
      s2 = (s2 + Math.imul(q[i + 2]!, bytes[at + i + 2]!)) | 0;
      s3 = (s3 + Math.imul(q[i + 3]!, bytes[at + i + 3]!)) | 0;
    }
    for (; i < dims; i++) s0 = (s0 + Math.imul(q[i]!, bytes[at + i]!)) | 0;
    scores[r] = ((s0 + s1 + s2 + s3) / scale) * scales[rows[r]!]!;
  }
  return rows
    .map((_, r) => r)
    .sort((x, y) => scores[y]! - scores[x]!)
    .slice(0, count)
    .map((r) => copies.ids[rows[r]!]!);
}

/**
 * Ids of the RERANK passages the copies put closest to the question: the bits' SHORTLIST, ranked by their bytes.
 * The exact cosine of these, read from the database, orders them in the end.
 */
export const rankCopies = (copies: Copies, question: Float32Array): number[] =>
  closestBytes(copies, question, closestBits(copies, question, SHORTLIST), RERANK);
