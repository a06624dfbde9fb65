/**
 * Long conversations (issue 26, part 5): what a person feels opening and reading back through a chat of 20, 500
 * and 2,000 messages, in the system Chromium (playwright-core, 1280×800) on the real app (SQLite, the built
 * client: run `npx vite build` first, or set BENCH_CLIENT_DIR).
 *
 * Each conversation alternates questions and markdown replies of realistic length (paragraphs, lists, links,
 * code blocks), written through the chat's own repository. Each size is opened RUNS times, each time in a new
 * page of one browser context that has opened the app before (its assets cached, as for a returning person):
 * - open: navigation → the conversation's last line painted on screen (the app's start-up and its requests for
 *   the conversation included), read from the page's clock at the animation frame that first shows it;
 * - typing: keys pressed into the composer one every TYPING_DELAY_MS with the conversation open; each key's
 *   latency is its event time to the frame after it, printed beside the same keys typed into an empty page (the
 *   method's floor, which includes the wait for the next frame);
 * - scroll to the top: wheel events of WHEEL_PX over the messages, WHEEL_INTERVAL_MS apart (further when the
 *   page is slow to take them), until the first question is on screen (older pages loading on the way, when
 *   the app pages history): animation frame p95, frames over 50 ms, long tasks (PerformanceObserver 'longtask')
 *   and total blocking time.
 * Figures are the min / median / max of the runs; the median is set beside the 20-message conversation's and
 * beside issue 26's targets.
 */
import { availableParallelism, loadavg } from 'node:os';
import type { BrowserContext } from 'playwright-core';
import { insertConversation } from '../src/server/modules/chat/conversations.repository';
import { insertMessage } from '../src/server/modules/chat/messages.repository';
import { createBot } from '../tests/support/factories';
import { signUp, startTestAppWithModel, type TestApp } from '../tests/support/test-app';
import {
  builtClientDir,
  launchChromium,
  percentile,
  printTable,
  signedInContext,
  startRecording,
  stopRecording,
  totalBlockingTime,
  typeIntoEmptyPage,
  warnOfBrowserOwnPages,
} from './support/browser';

const SIZES = [20, 500, 2_000];
const RUNS = 3;
const TYPED = 'How would the same plan change for a team of five people?';
const TYPING_DELAY_MS = 40;
// A fast flick of a trackpad or wheel, 30,000 px a second, so 2,000 messages are read back in under a minute.
const WHEEL_PX = 1_500;
const WHEEL_INTERVAL_MS = 50;
/** The whole bench stops (with an error) past this, whatever the app does. */
const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_MS ?? 15 * 60_000);
const OPEN_TIMEOUT_MS = 30_000;
/**
 * Round-trip time Chromium adds to every request that reaches the server (BENCH_LATENCY_MS; none by default):
 * loopback hides the requests an opening waits on one after another, a person's network does not.
 */
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 0);
const SCROLL_TIMEOUT_MS = 120_000;
const TARGET = { openMs: 600, framesOver50: 0, longTasks: 0, typingP95: 16 };

const deadline = Date.now() + DEADLINE_MS;
setTimeout(() => {
  console.error(`long-conversations: not done within ${DEADLINE_MS / 1000} s; stopped`);
  process.exit(1);
}, DEADLINE_MS).unref();

// The text that marks a conversation's first question and last reply: plain words, so markdown keeps them whole.
const firstMarker = (size: number) => `Opening question of the ${size} message conversation`;
const lastMarker = (size: number) => `Closing line of the ${size} message conversation`;

const TOPICS = ['the deployment', 'the database migration', 'the onboarding guide', 'the search index', 'the billing'];
const LANGUAGES = ['ts', 'python', 'bash', 'sql'];

function question(i: number, size: number) {
  const topic = TOPICS[i % TOPICS.length]!;
  const opening = i === 0 ? `${firstMarker(size)}. ` : '';
  return `${opening}Could you walk me through ${topic} once more, step ${i}? I would like to know what to check first and what can wait until next week.`;
}

function code(i: number) {
  const language = LANGUAGES[i % LANGUAGES.length]!;
  switch (language) {
    case 'ts':
      return `\`\`\`ts\nexport async function step${i}(items: Item[]): Promise<Summary> {\n  const ready = items.filter((item) => item.status === 'ready');\n  const total = ready.reduce((sum, item) => sum + item.size, 0);\n  if (total > LIMIT) throw new Error(\`too large: \${total}\`);\n  return { count: ready.length, total, checkedAt: new Date().toISOString() };\n}\n\`\`\``;
    case 'python':
      return `\`\`\`python\ndef step_${i}(rows):\n    """Group the rows by owner and keep the newest of each."""\n    newest = {}\n    for row in sorted(rows, key=lambda r: r["updated_at"]):\n        newest[row["owner"]] = row\n    return list(newest.values())\n\`\`\``;
    case 'bash':
      return `\`\`\`bash\nset -euo pipefail\nexport RELEASE="v1.${i}.0"\ngit fetch --tags && git checkout "$RELEASE"\nnpm ci && npm run build\nsystemctl restart botty && curl -fsS http://127.0.0.1:5000/api/health\n\`\`\``;
    default:
      return `\`\`\`sql\nselect owner, count(*) as items, max(updated_at) as last_change\nfrom items\nwhere status = 'ready' and batch = ${i}\ngroup by owner\norder by items desc\nlimit 20;\n\`\`\``;
  }
}

/**
 * A reply: always a paragraph and a list; a code block, a numbered list or a quote in some, as replies vary. No
 * block is the same in two replies (each names its step), as in a real conversation: the client keeps rendered
 * blocks by their text, and repeated ones would flatter scrolling back.
 */
function reply(i: number, size: number, last: boolean) {
  const topic = TOPICS[i % TOPICS.length]!;
  return [
    `Here is how I would approach **${topic}** (step ${i}). The short version: check what is already in place, change one thing at a time, and keep a way back. The details follow the order I would work in, with the \`config\` values you mentioned.`,
    `### What to check first for step ${i}`,
    `- Make sure the current state is written down, including the [release notes](https://example.com/notes/${i}) and any open incidents.\n- Confirm that backups ran in the last 24 hours and that one of them was restored somewhere to prove it works.\n- Read the [runbook](https://example.com/runbook/${i}#checks) once end to end before starting.`,
    ...(i % 2 === 0
      ? [`A small script keeps the checks of step ${i} repeatable, so the second run looks like the first:`, code(i)]
      : []),
    ...(i % 3 === 0
      ? [
          `### What can wait after step ${i}`,
          `1. Tidying the naming of the older items of step ${i}: it is cosmetic and touches many files.\n2. The dashboard changes, until the numbers have been stable for a week.\n3. Removing the fallback path, once nobody has needed it for a full release cycle.`,
        ]
      : []),
    ...(i % 4 === 1
      ? [
          `> If anything in step ${i} looks different from what the runbook describes, stop and compare before going on.`,
        ]
      : []),
    last
      ? `That covers it. ${lastMarker(size)}.`
      : `Let me know how the first check of step ${i} goes and I can help with the next part, or go deeper into any point above.`,
  ].join('\n\n');
}

/** A conversation of `size` messages, questions and replies in turn, each after the one before it. */
async function seedConversation(app: TestApp, userId: number, botId: number, size: number) {
  const start = Date.parse('2025-01-01T09:00:00.000Z');
  return app.db.kysely.transaction().execute(async (trx) => {
    const conversation = await insertConversation(
      trx,
      { botId, userId, title: `${size} messages`, titleSource: 'user' },
      new Date(start).toISOString(),
    );
    let parentId: number | null = null;
    for (let i = 0; i < size; i += 1) {
      const role = i % 2 === 0 ? 'user' : 'assistant';
      const content = role === 'user' ? question(i / 2, size) : reply((i - 1) / 2, size, i === size - 1);
      const row = await insertMessage(
        trx,
        { conversationId: conversation.id, parentId, role, content, status: 'complete' },
        new Date(start + i * 30_000).toISOString(),
      );
      parentId = row.id;
    }
    return conversation.id;
  });
}

/**
 * In the page: the page's clock when the text `marker` is on screen (its first line inside the viewport and
 * what is painted at its middle), else false. A function without inner functions, which tsx's transform would
 * name with a helper the page lacks; not a string, which the app's content security policy would not evaluate.
 */
const onScreenAt = (marker: string) => {
  const node = document.evaluate(
    `//body//text()[contains(., "${marker}")]`,
    document,
    null,
    XPathResult.FIRST_ORDERED_NODE_TYPE,
    null,
  ).singleNodeValue;
  if (!node?.parentElement) return false;
  const range = document.createRange();
  range.selectNodeContents(node);
  const line = range.getClientRects()[0];
  if (!line || line.height === 0 || line.top < 0 || line.bottom > innerHeight) return false;
  const hit = document.elementFromPoint(line.left + line.width / 2, line.top + line.height / 2);
  return hit && node.parentElement.contains(hit) ? performance.now() : false;
};

interface Run {
  openMs: number;
  typingP95: number;
  frameP95: number;
  framesOver50: number;
  longTasks: number;
  tbt: number;
  /** What the page fetched of the conversation's messages while it opened. */
  messageRequests: number;
  messageBytes: number;
  wheels: number;
  scrollMs: number;
  reachedTop: boolean;
}

const remaining = (limit: number) => Math.max(1_000, Math.min(limit, deadline - Date.now()));

async function measure(context: BrowserContext, path: string, size: number): Promise<Run> {
  const page = await context.newPage();
  try {
    if (LATENCY_MS > 0)
      await (
        await context.newCDPSession(page)
      ).send('Network.emulateNetworkConditions', {
        offline: false,
        latency: LATENCY_MS,
        downloadThroughput: -1,
        uploadThroughput: -1,
      });
    let messageRequests = 0;
    let messageBytes = 0;
    const opening = (response: { url: () => string; body: () => Promise<Buffer> }) => {
      if (!/\/api\/conversations\/\d+\/messages/.test(response.url())) return;
      messageRequests += 1;
      void response.body().then((body) => (messageBytes += body.length));
    };
    page.on('response', opening);
    await page.goto(path, { waitUntil: 'commit' });
    const openMs = (await (
      await page.waitForFunction(onScreenAt, lastMarker(size), {
        polling: 'raf',
        timeout: remaining(OPEN_TIMEOUT_MS),
      })
    ).jsonValue()) as number;
    page.off('response', opening);
    // Whatever the app does just after showing the conversation is not the typing's or the scroll's.
    await page.waitForTimeout(500);

    const composer = page.getByRole('textbox', { name: 'Message' });
    await composer.click();
    await startRecording(page);
    await composer.pressSequentially(TYPED, { delay: TYPING_DELAY_MS });
    await page.waitForTimeout(100);
    const typing = await stopRecording(page);
    // Cleared, so no draft of it is kept for the next run.
    await composer.fill('');

    const box = await page.getByRole('log', { name: 'Messages' }).boundingBox();
    if (!box) throw new Error('the messages are not on screen');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await startRecording(page);
    const started = Date.now();
    const stopAt = started + remaining(SCROLL_TIMEOUT_MS);
    let wheels = 0;
    let reachedTop = false;
    while (Date.now() < stopAt) {
      await page.mouse.wheel(0, -WHEEL_PX);
      wheels += 1;
      await page.waitForTimeout(WHEEL_INTERVAL_MS);
      if (await page.evaluate(onScreenAt, firstMarker(size))) {
        reachedTop = true;
        break;
      }
    }
    const scrollMs = Date.now() - started;
    const scroll = await stopRecording(page);
    return {
      openMs,
      typingP95: percentile(typing.typing, 95),
      frameP95: percentile(scroll.frames, 95),
      framesOver50: scroll.frames.filter((frame) => frame > 50).length,
      longTasks: scroll.longTasks.length,
      tbt: totalBlockingTime(scroll.longTasks),
      messageRequests,
      messageBytes,
      wheels,
      scrollMs,
      reachedTop,
    };
  } finally {
    await page.close();
  }
}

type Figure = 'openMs' | 'frameP95' | 'framesOver50' | 'longTasks' | 'tbt' | 'typingP95';
const FIGURES: {
  label: string;
  key: Figure;
  format: (n: number) => string;
  target?: string;
  met?: (n: number) => boolean;
}[] = [
  {
    label: 'open: navigation → last message on screen',
    key: 'openMs',
    format: (n) => `${n.toFixed(0)} ms`,
    target: `< ${TARGET.openMs} ms`,
    met: (n) => n < TARGET.openMs,
  },
  { label: 'scroll to the top: frame p95', key: 'frameP95', format: (n) => `${n.toFixed(1)} ms` },
  {
    label: 'scroll to the top: frames over 50 ms',
    key: 'framesOver50',
    format: (n) => n.toFixed(0),
    target: 'none',
    met: (n) => n <= TARGET.framesOver50,
  },
  {
    label: 'scroll to the top: long tasks',
    key: 'longTasks',
    format: (n) => n.toFixed(0),
    target: 'none',
    met: (n) => n <= TARGET.longTasks,
  },
  { label: 'scroll to the top: total blocking time', key: 'tbt', format: (n) => `${n.toFixed(0)} ms` },
  {
    label: 'typing p95 (conversation open)',
    key: 'typingP95',
    format: (n) => `${n.toFixed(1)} ms`,
    target: `< ${TARGET.typingP95} ms`,
    met: (n) => n < TARGET.typingP95,
  },
];

function report(results: Map<number, Run[]>) {
  const median = (runs: Run[], key: Figure) =>
    percentile(
      runs.map((run) => run[key]),
      50,
    );
  const baseline = results.get(SIZES[0]!)!;
  const table = [['', 'messages', 'min', 'median', 'max', `× ${SIZES[0]}`, 'target', '']];
  for (const { label, key, format, target, met } of FIGURES) {
    for (const [size, runs] of results) {
      const values = runs.map((run) => run[key]).sort((a, b) => a - b);
      const mid = median(runs, key);
      const base = median(baseline, key);
      table.push([
        size === SIZES[0] ? label : '',
        size.toLocaleString('en'),
        format(values[0]!),
        format(mid),
        format(values.at(-1)!),
        base > 0 ? `${(mid / base).toFixed(2)}×` : '–',
        target ?? '',
        met ? (met(mid) ? 'MET' : 'MISSED') : '',
      ]);
    }
  }
  printTable(table);
  for (const [size, runs] of results) {
    const run = runs[0]!;
    const missed = runs.filter((r) => !r.reachedTop).length;
    console.log(
      `${size.toLocaleString('en')} messages: opening fetched ${run.messageRequests} page(s) of messages, ` +
        `${(run.messageBytes / 1024).toFixed(0)} KiB; the top took ${run.wheels} wheel events, ${(run.scrollMs / 1000).toFixed(1)} s` +
        (missed ? `; the first message was NOT reached within ${SCROLL_TIMEOUT_MS / 1000} s in ${missed} run(s)` : ''),
    );
  }
  console.log(
    `(median of ${RUNS} runs against the targets; ratios of medians${LATENCY_MS > 0 ? `; ${LATENCY_MS} ms added to every request` : ''})`,
  );
}

const startLoad = loadavg()[0]!;
const app = await startTestAppWithModel({ clientRoot: builtClientDir() });
const browser = await launchChromium();
try {
  const account = await signUp(app);
  const bot = await createBot(app, account.token, { name: 'Bench' });
  const seeding = performance.now();
  const conversations = new Map<number, number>();
  for (const size of SIZES) conversations.set(size, await seedConversation(app, account.user.id, bot.id, size));
  console.log(`seeded ${SIZES.join(', ')} messages in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);

  const context = await signedInContext(browser, app.url, account.token);
  await warnOfBrowserOwnPages(context);
  const path = (size: number) => `/chat/${bot.id}?c=${conversations.get(size)}`;
  // Once unmeasured: the app's assets and the chat's lazy chunks in the browser's cache.
  await measure(context, path(SIZES[0]!), SIZES[0]!);
  const results = new Map<number, Run[]>();
  for (const size of SIZES) {
    const runs: Run[] = [];
    for (let run = 0; run < RUNS; run += 1) runs.push(await measure(context, path(size), size));
    results.set(size, runs);
  }
  report(results);
  const floors: number[] = [];
  for (let run = 0; run < RUNS; run += 1)
    floors.push(percentile((await typeIntoEmptyPage(browser, TYPED, TYPING_DELAY_MS)).typing, 95));
  const floor = percentile(floors, 50);
  const appTyping = SIZES.map(
    (size) =>
      percentile(
        results.get(size)!.map((r) => r.typingP95),
        50,
      ) - floor,
  );
  console.log(
    `typing p95 of an empty page's textarea, the same keys (the method's floor: a key waits for the next frame): ` +
      `${floors.map((f) => `${f.toFixed(1)} ms`).join(' / ')}; the app's medians above it: ` +
      `${appTyping.map((d) => `${d >= 0 ? '+' : ''}${d.toFixed(1)} ms`).join(' / ')} (${SIZES.join(' / ')} messages)`,
  );
  // The browser, the server and the bench share the machine's cores with whatever else runs on it.
  console.log(
    `machine: ${availableParallelism()} cores; load average ${startLoad.toFixed(1)} at the start, ` +
      `${loadavg()[0]!.toFixed(1)} at the end (figures are noisy when it is above the cores)`,
  );
  await context.close();
} finally {
  await browser.close();
  await app.close();
}
