import { fromMarkdown } from 'mdast-util-from-markdown';

/** A reply's markdown cut into its top-level blocks: where each starts in `text`. */
export interface MarkdownBlocks {
  text: string;
  starts: number[];
}

/**
 * Definitions (`[id]: url`, footnotes `[^1]: note`) reach across blocks: a reply with one is kept whole, so each
 * reference still finds its definition.
 */
const DEFINITION = /^ {0,3}\[[^\]\n]+\]:/m;

/** Where each top-level block of `text` starts, offset by `at`. The first block starts at `at` itself. */
function blockStarts(text: string, at: number): number[] {
  const starts = fromMarkdown(text).children.map((node) => at + (node.position?.start.offset ?? 0));
  starts[0] = at;
  return starts;
}

/**
 * The blocks of `text`, reusing `previous` when `text` only grew from it (a streamed reply): every block but the
 * last is finished, since later text can only continue the last one or start new ones, so only the last block
 * and what came after it are lexed again. The work grows with the new text, not with the whole reply.
 * CommonMark's block boundaries are GFM's too (a table is one block either way), so each block rendered on its
 * own with GFM is what the whole reply rendered at once gives.
 */
export function splitBlocks(text: string, previous?: MarkdownBlocks): MarkdownBlocks {
  if (DEFINITION.test(text)) return { text, starts: [0] };
  if (!previous || !text.startsWith(previous.text) || previous.starts.length === 0)
    return { text, starts: blockStarts(text, 0) };
  if (text === previous.text) return previous;
  const last = previous.starts.at(-1)!;
  return { text, starts: [...previous.starts.slice(0, -1), ...blockStarts(text.slice(last), last)] };
}

/** The source of each block, its trailing blank lines included. */
export const blockSources = ({ text, starts }: MarkdownBlocks): string[] =>
  starts.map((start, i) => text.slice(start, starts[i + 1]));

/**
 * Offsets in the whole text (`ends`, where the support check's unsupported sentences end), each given to the block
 * it falls in and made relative to that block's start. An end at a block's start belongs to the block before it.
 */
export const offsetsByBlock = ({ starts }: MarkdownBlocks, ends: readonly number[]): number[][] =>
  starts.map((start, i) => {
    const next = starts[i + 1] ?? Number.POSITIVE_INFINITY;
    return ends.filter((end) => end > start && end <= next).map((end) => end - start);
  });
