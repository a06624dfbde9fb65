import { afterAll, describe, expect, it } from 'vitest';
import { rankCopies, RERANK, SHORTLIST, signBits, type Copies } from './vector-ranking';
import { createVectorScan } from './vector-scan';

/**
 * The scan thread (decision 0073) ranks copies in shared memory as the event loop would, and a question is never
 * lost to it: a thread that ends, or never starts, leaves the ranking to this thread.
 */
const DIMS = 64;
const ROWS = SHORTLIST * 3;

let seed = 11;
const random = () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32 - 0.5;

function copiesOf(rows: number, shared: boolean): Copies {
  const words = DIMS / 32;
  const memory = <T>(
    Type: { new (length: number): T; new (buffer: SharedArrayBuffer): T },
    length: number,
    size: number,
  ) => (shared ? new Type(new SharedArrayBuffer(length * size)) : new Type(length));
  const copies: Copies = {
    dims: DIMS,
    words,
    mean: new Float32Array(DIMS),
    ids: memory(Float64Array, rows, 8),
    bits: memory(Uint32Array, rows * words, 4),
    bytes: memory(Int8Array, rows * DIMS, 1),
    scales: memory(Float32Array, rows, 4),
  };
  for (let row = 0; row < rows; row++) {
    const vector = Float32Array.from({ length: DIMS }, random);
    copies.ids[row] = 1000 + row;
    signBits(vector, copies.mean, copies.bits.subarray(row * words, (row + 1) * words));
    let norm = 0;
    for (const x of vector) norm += x * x;
    for (let i = 0; i < DIMS; i++) copies.bytes[row * DIMS + i] = Math.round(vector[i]! * 200);
    copies.scales[row] = 1 / (200 * Math.sqrt(norm));
  }
  return copies;
}

const questions = Array.from({ length: 5 }, () => Float32Array.from({ length: DIMS }, random));
const scan = createVectorScan();
afterAll(() => scan.close());

describe('the vector scan thread', () => {
  it('ranks copies in shared memory as this thread does, several questions at once', async () => {
    const copies = copiesOf(ROWS, true);
    const answers = await Promise.all(questions.map((question) => scan.rank(copies, question)));
    expect(answers).toEqual(questions.map((question) => rankCopies(copies, question)));
    expect(answers[0]).toHaveLength(RERANK);
  });

  it('sends copies in shared memory to the thread, and ranks others here', async () => {
    // A thread of the test's own, which answers every question alike.
    const marked = createVectorScan({
      script: `const { parentPort } = require('node:worker_threads');
        parentPort.on('message', ({ id }) => parentPort.postMessage({ id, ids: [-1] }));`,
      eval: true,
    });
    expect(await marked.rank(copiesOf(ROWS, true), questions[0]!)).toEqual([-1]);
    const plain = copiesOf(ROWS, false);
    expect(await marked.rank(plain, questions[0]!)).toEqual(rankCopies(plain, questions[0]!));
    await marked.close();
  });

  it('is started ahead of the first question', async () => {
    // A thread that answers with the time it started.
    const ahead = createVectorScan({
      script: `const { parentPort } = require('node:worker_threads');
        const started = Date.now();
        parentPort.on('message', ({ id }) => parentPort.postMessage({ id, ids: [started] }));`,
      eval: true,
    });
    ahead.prepare();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const asked = Date.now();
    const [started] = await ahead.rank(copiesOf(ROWS, true), questions[0]!);
    expect(started).toBeLessThan(asked);
    await ahead.close();
  });

  it('answers the questions of a thread that ends, or never starts, here', async () => {
    const copies = copiesOf(ROWS, true);
    const own = createVectorScan();
    const asked = questions.map((question) => own.rank(copies, question));
    await own.close();
    expect(await Promise.all(asked)).toEqual(questions.map((question) => rankCopies(copies, question)));
    // The next question starts another thread.
    expect(await own.rank(copies, questions[0]!)).toEqual(rankCopies(copies, questions[0]!));
    await own.close();

    const broken = createVectorScan({ script: 'throw new Error("no scan thread")', eval: true });
    expect(await broken.rank(copies, questions[1]!)).toEqual(rankCopies(copies, questions[1]!));
    await broken.close();
  });
});
