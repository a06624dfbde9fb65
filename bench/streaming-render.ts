/**
 * Streaming render (issue 26, part 1): what the browser's main thread pays while a long markdown reply streams.
 *
 * The real app (SQLite, the last `vite build` of the client) answered by the fake model of tests/support, which
 * streams a TOKENS-token markdown reply (headings, lists, code blocks, tables), one token every TOKEN_MS. The
 * system Chromium (playwright-core, 1280×800) opens the chat, sends a question and, while the reply streams,
 * types into the composer. Figures: frames a second and frame p95 (requestAnimationFrame intervals), long tasks
 * (> 50 ms) and total blocking time (each long task's time over 50 ms), and typing latency p95 (a key's event
 * time to the frame after it; and the browser's own Event Timing duration, key to next paint, as Interaction to
 * Next Paint counts it, with the share of keys it showed within 16 ms), a key's own main-thread work (its keydown to
 * its input event handled), the renderer's main thread busy and its CPU
 * time (Chromium's counters; CPU time is the steadiest figure to compare two builds by), beside the baseline
 * measured before the reply was rendered in blocks, and the same keys typed into an empty page. Then the same for a
 * reply that is one long list, a block that grows to its end, beside its figures before a growing block's parsing
 * was spaced out.
 * Run `npx vite build` first (or set BENCH_CLIENT_DIR to a build).
 */
import { writeFileSync } from 'node:fs';
import { createBot } from '../tests/support/factories';
import { signUp, startTestAppWithModel } from '../tests/support/test-app';
import {
  builtClientDir,
  launchChromium,
  percentile,
  printTable,
  signedInContext,
  startRecording,
  stopRecording,
  keyToPaintP95,
  totalBlockingTime,
  typeIntoEmptyPage,
  shownWithin16Ms,
  warnOfBrowserOwnPages,
} from './support/browser';

const TOKENS = 5_000;
const TOKEN_MS = 2;
/** Issue 26's figures for the code before this bench's change (each delta re-parsed the whole reply). */
const BASELINE = {
  fps: 14,
  frameP95: 167,
  longTasks: 71,
  tbt: 1400,
  typingP95: 51,
  keyToPaintP95: NaN,
  shownWithin16: NaN,
  keyWork: NaN,
  busy: NaN,
  script: NaN,
  mainCpu: NaN,
  rendererCpu: NaN,
};
/** The list's figures before its growing block was parsed at most once in four times its last parse (session 25). */
const LIST_BASELINE = {
  fps: 44,
  frameP95: 66.6,
  longTasks: 49,
  tbt: 1089,
  typingP95: 74.4,
  keyToPaintP95: 80,
  shownWithin16: 0.64,
  keyWork: NaN,
  busy: NaN,
  script: NaN,
  mainCpu: NaN,
  rendererCpu: NaN,
};
const TARGET = {
  fps: 60,
  frameP95: 16.7,
  longTasks: 0,
  tbt: 0,
  typingP95: 16,
  keyToPaintP95: 15.9,
  shownWithin16: 0.95,
  keyWork: NaN,
  busy: NaN,
  script: NaN,
  mainCpu: NaN,
  rendererCpu: NaN,
};

/** A reply of TOKENS tokens (a token: a word with the space or line break after it), cycling through sections. */
function markdownTokens(): string[] {
  const sections = [
    (n: number) =>
      `## Section ${n}\n\nThis part explains step ${n} of the plan in plain words, with **bold** and _italic_ text and \`inline code\` too.\n\n`,
    (n: number) =>
      `- First point of list ${n}\n- Second point, a little longer than the first\n- Third point with a [link](https://example.com/${n})\n\n`,
    (n: number) =>
      `\`\`\`ts\nfunction step${n}(input: number): number {\n  const doubled = input * 2;\n  return doubled + ${n};\n}\n\`\`\`\n\n`,
    (n: number) =>
      `| Name | Value | Note |\n|---|---|---|\n| alpha${n} | ${n} | first row |\n| beta${n} | ${n * 2} | second row |\n\n`,
    (n: number) => `> A quoted remark number ${n}, to close the section.\n\n1. One\n2. Two\n3. Three\n\n`,
  ];
  const tokens: string[] = [];
  for (let n = 0; tokens.length < TOKENS; n += 1) {
    tokens.push(...(sections[n % sections.length]!(n).match(/\S+\s*|\s+/g) ?? []));
  }
  return tokens.slice(0, TOKENS);
}

const LIST_POINTS = 400;

/** A reply that is one list: LIST_POINTS points with bold text and a link each, a block that grows to the end. */
function listTokens(): string[] {
  const text = Array.from(
    { length: LIST_POINTS },
    (_, i) => `- Point ${i + 1} of the list, with **bold** words and a [link](https://example.com/${i + 1}) in it\n`,
  ).join('');
  return text.match(/\S+\s*|\s+/g) ?? [];
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples?: number[];
  timeDeltas?: number[];
}

/**
 * BENCH_PROFILE=1: the page's functions that took the most main-thread time while the markdown reply streamed
 * (BENCH_STREAM=list: the list), on their own (self) and with what they called (total; a build without minifying,
 * BENCH_CLIENT_DIR, names them). BENCH_TRACE=<file> writes a Chromium trace of that stream instead (DevTools'
 * Performance panel opens it): where the main thread's time went, task by task.
 */
function printProfile(profile: CpuProfile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const nameOf = (id: number) => {
    const frame = byId.get(id)!.callFrame;
    return `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop()}:${frame.lineNumber}`;
  };
  const selfById = new Map<number, number>();
  profile.samples?.forEach((id, i) =>
    selfById.set(id, (selfById.get(id) ?? 0) + (profile.timeDeltas?.[i] ?? 0) / 1000),
  );
  const self = new Map<string, number>();
  for (const [id, ms] of selfById) self.set(nameOf(id), (self.get(nameOf(id)) ?? 0) + ms);
  // A function's total counts once however deep it recurses.
  const total = new Map<string, number>();
  const open = new Set<string>();
  const walk = (id: number): number => {
    const name = nameOf(id);
    const outermost = !open.has(name);
    open.add(name);
    const ms = (byId.get(id)!.children ?? []).reduce((sum, child) => sum + walk(child), selfById.get(id) ?? 0);
    if (outermost) {
      open.delete(name);
      total.set(name, (total.get(name) ?? 0) + ms);
    }
    return ms;
  };
  walk(profile.nodes[0]!.id);
  for (const [label, times] of [
    ['self', self],
    ['total', total],
  ] as const) {
    console.log(`${label}:`);
    for (const [name, ms] of [...times].sort((x, y) => y[1] - x[1]).slice(0, 25))
      console.log(`${ms.toFixed(0).padStart(7)} ms  ${name}`);
  }
}

interface Figures {
  fps: number;
  frameP95: number;
  longTasks: number;
  tbt: number;
  typingP95: number;
  keyToPaintP95: number;
  /** The share of keys shown in the frame after them (Event Timing ≤ 16 ms); p95 under 16 ms means 95 %. */
  shownWithin16: number;
  /**
   * A key's own main-thread work, its keydown to its input event handled (median, ms): what the page makes a key
   * cost, which the stream's frames then wait behind. Steady between runs, unlike the latencies.
   */
  keyWork: number;
  /**
   * The renderer's main thread busy, all tasks, and running script, as shares of the stream's time (Chromium's own
   * counters): steadier between runs than the figures above, which move with what else the machine's two cores do.
   */
  busy: number;
  script: number;
  /**
   * CPU time, not wall time, as shares of the stream's time: the renderer's main thread, and the renderer process
   * (its compositor and raster threads too). They count the page's work, not how long it waited for a core, so they
   * move least when the machine is busy with other things: the figures to compare two builds by.
   */
  mainCpu: number;
  rendererCpu: number;
}

const app = await startTestAppWithModel({ clientRoot: builtClientDir() });
const browser = await launchChromium();
try {
  const account = await signUp(app);
  const bot = await createBot(app, account.token, { name: 'Bench' });
  const context = await signedInContext(browser, app.url, account.token);
  await warnOfBrowserOwnPages(context);
  const page = await context.newPage();
  await page.goto(`/chat/${bot.id}`);
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.waitFor();
  await page.waitForFunction(() => new URL(location.href).searchParams.get('c'));
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  /** Chromium's counters for the page's renderer (durations in seconds), by name. */
  const rendererCounters = async () =>
    new Map((await cdp.send('Performance.getMetrics')).metrics.map(({ name, value }) => [name, value]));

  // A short reply first: the chat's lazy chunks (markdown, highlighting) are loaded and warm before measuring.
  app.fake.enqueue('Warm-up reply with `code` and **bold**.');
  await input.fill('Warm up');
  await input.press('Enter');
  await page.getByText('Warm-up reply with').waitFor();
  await page.getByRole('button', { name: 'Stop generating' }).waitFor({ state: 'detached' });

  /**
   * Streams `tokens` as the reply to `question` and types into the composer while it streams, as a person writing
   * the next question would, from the moment `firstText` is on screen until the reply ends.
   */
  const streamWhileTyping = async (tokens: string[], question: string, firstText: string) => {
    app.fake.enqueue({ text: tokens.join(''), chunks: tokens, chunkDelayMs: TOKEN_MS });
    await startRecording(page);
    const countersBefore = await rendererCounters();
    const started = Date.now();
    await input.fill(question);
    await input.press('Enter');
    await page.getByRole('button', { name: 'Stop generating' }).waitFor();
    await page.getByText(firstText).first().waitFor();
    // While it streams, nothing of Playwright's runs in the page but the keys: a locator's role and name queries
    // walk the whole page on its main thread (several milliseconds with a long reply on it), in the keys' way.
    const composer = (await input.elementHandle())!;
    const streaming = () => page.evaluate(`document.querySelector('button[aria-label="Stop generating"]') !== null`);
    while ((await streaming()) && Date.now() - started < 120_000) {
      await page.keyboard.type('next question ', { delay: 40 });
      await composer.fill('');
    }
    await composer.dispose();
    const elapsedMs = Date.now() - started;
    const counters = await rendererCounters();
    const raw = await stopRecording(page);
    const share = (name: string) => (counters.get(name)! - countersBefore.get(name)!) / (elapsedMs / 1000);
    const frameTotal = raw.frames.reduce((sum, frame) => sum + frame, 0);
    const figures: Figures = {
      fps: (raw.frames.length / frameTotal) * 1000,
      frameP95: percentile(raw.frames, 95),
      longTasks: raw.longTasks.length,
      tbt: totalBlockingTime(raw.longTasks),
      typingP95: percentile(raw.typing, 95),
      keyToPaintP95: keyToPaintP95(raw),
      shownWithin16: shownWithin16Ms(raw),
      keyWork: percentile(raw.keyWork, 50),
      busy: share('TaskDuration'),
      script: share('ScriptDuration'),
      mainCpu: share('ThreadTime'),
      rendererCpu: share('ProcessTime'),
    };
    return { figures, summary: `${(elapsedMs / 1000).toFixed(1)} s, ${raw.typing.length} keys typed` };
  };

  /**
   * Runs one stream; the one BENCH_STREAM names (markdown unless `list`) under the profiler (BENCH_PROFILE) or
   * recorded in a Chromium trace (BENCH_TRACE).
   */
  const measured = async (name: 'markdown' | 'list', run: () => ReturnType<typeof streamWhileTyping>) => {
    if ((process.env.BENCH_STREAM === 'list') !== (name === 'list')) return run();
    const traceFile = process.env.BENCH_TRACE;
    if (traceFile) {
      await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
      const result = await run();
      writeFileSync(traceFile, await browser.stopTracing());
      console.log(`trace of the ${name} stream: ${traceFile}`);
      return result;
    }
    if (!process.env.BENCH_PROFILE) return run();
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.start');
    const before = await rendererCounters();
    const result = await run();
    printProfile((await cdp.send('Profiler.stop')).profile);
    // The renderer's own split of the time (seconds): script, style, layout, and the rest (paint among it).
    for (const [counter, value] of await rendererCounters())
      if (/Duration$/.test(counter)) console.log(`  ${counter}: ${(value - (before.get(counter) ?? 0)).toFixed(2)} s`);
    return result;
  };
  const mixed = await measured('markdown', () =>
    streamWhileTyping(markdownTokens(), 'Write the long plan', 'This part explains step 0'),
  );
  const list = await measured('list', () => streamWhileTyping(listTokens(), 'List the points', 'Point 1 of'));

  console.log(`streaming ${TOKENS} markdown tokens, ${TOKEN_MS} ms a token: ${mixed.summary}`);
  const rows: [string, keyof Figures, (n: number) => string][] = [
    ['frames a second', 'fps', (n) => n.toFixed(0)],
    ['frame p95', 'frameP95', (n) => `${n.toFixed(1)} ms`],
    ['long tasks (> 50 ms)', 'longTasks', (n) => n.toFixed(0)],
    ['total blocking time', 'tbt', (n) => `${n.toFixed(0)} ms`],
    ['typing p95', 'typingP95', (n) => `${n.toFixed(1)} ms`],
    ['key to paint p95 (Event Timing)', 'keyToPaintP95', (n) => (n < 16 ? '< 16 ms' : `${n.toFixed(0)} ms`)],
    ['keys shown within 16 ms', 'shownWithin16', (n) => `${(n * 100).toFixed(0)} %`],
    ["a key's own work (median)", 'keyWork', (n) => `${n.toFixed(2)} ms`],
    ['main thread busy', 'busy', (n) => `${(n * 100).toFixed(0)} %`],
    ['of it running script', 'script', (n) => `${(n * 100).toFixed(0)} %`],
    ['main thread CPU', 'mainCpu', (n) => `${(n * 100).toFixed(0)} %`],
    ['renderer process CPU', 'rendererCpu', (n) => `${(n * 100).toFixed(0)} %`],
  ];
  const tableOf = (baseline: Figures, now: Figures) => [
    ['', 'baseline', 'now', 'target'],
    ...rows.map(([label, key, format]) => [
      label,
      ...[baseline[key], now[key], TARGET[key]].map((n) => (Number.isNaN(n) ? '—' : format(n))),
    ]),
  ];
  printTable(tableOf(BASELINE, mixed.figures));
  console.log(`\none list of ${LIST_POINTS} points, one block growing to the end of the reply: ${list.summary}`);
  printTable(tableOf(LIST_BASELINE, list.figures));
  // The same keys into an empty page, eight times over for a steadier p95 than one question's keys would give.
  const empty = await typeIntoEmptyPage(browser, 'next question '.repeat(8), 40);
  const floor = percentile(empty.typing, 95);
  console.log(
    `an empty page's textarea, the same keys (the method's floor: a key waits for the next frame): typing p95 ` +
      `${floor.toFixed(1)} ms, keys shown within 16 ms ${(shownWithin16Ms(empty) * 100).toFixed(0)} %, ` +
      `a key's own work ${percentile(empty.keyWork, 50).toFixed(2)} ms; ` +
      `the app while it streams: ${mixed.figures.typingP95 - floor >= 0 ? '+' : ''}${(mixed.figures.typingP95 - floor).toFixed(1)} ms above it`,
  );
  await context.close();
} finally {
  await browser.close();
  await app.close();
}
