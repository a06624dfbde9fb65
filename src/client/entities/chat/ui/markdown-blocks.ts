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
  if (onLettersLine(previous.text, text)) return { text, starts: previous.starts };
  const last = previous.starts.at(-1)!;
  return { text, starts: [...previous.starts.slice(0, -1), ...lastBlockStarts(text, last)] };
}

const LETTER = /\p{L}/u;

/**
 * Whether `text` only added to a last line of `previous` that starts with a letter: such a line starts no block, and
 * nothing added to it moves a block's start. CommonMark decides a line's blocks from its first characters (a marker,
 * a fence, `#`, `>`, `<`, indentation), and the lines that reshape others (a setext underline, a thematic break, a
 * table's delimiter row, a closing fence) start with other characters; an ended HTML block shows only at the next
 * line. Most of a stream's text is such words, so most of its frames lex nothing.
 */
function onLettersLine(previous: string, text: string) {
  const lineStart = previous.lastIndexOf('\n') + 1;
  return LETTER.test(previous.charAt(lineStart)) && !text.includes('\n', previous.length);
}

/**
 * The starts of the last block, from `last`, and of the blocks after it. A list is one block, and lexing all of it
 * again grew with its items: when the last block is a list, only its last item is lexed again (what follows a list
 * depends on its last item alone), and the list goes on from `last` while that lexing starts with a list.
 */
function lastBlockStarts(text: string, last: number): number[] {
  const items = listParts(text.slice(last), 1);
  const from = items ? last + items.starts.at(-1)! : last;
  if (from > last) {
    const nodes = fromMarkdown(text.slice(from)).children;
    if (nodes[0]?.type === 'list') return [last, ...nodes.slice(1).map((node) => from + node.position!.start.offset!)];
  }
  return blockStarts(text.slice(last), last);
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

/** A list item's marker at the start of a line: its indent and the marker (a bullet, or a number and `.` or `)`). */
const ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])(?=[ \t]|$)/gm;
/** The same at the very start of a text: whether it is a list at all, found without reading the rest of it. */
const FIRST_ITEM = new RegExp(ITEM.source);
/** The marker of the list item `source` starts with, its indent included; undefined when it starts none. */
export const itemMarker = (source: string) => FIRST_ITEM.exec(source)?.[0];
/** `- - -`, `***`: a thematic break, which ends a list rather than adding to it. */
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
/** The same kind of marker continues the list: the same bullet, or a number with the same delimiter. */
const markerKind = (marker: string) => (/\d/.test(marker) ? marker.at(-1)! : marker);

/**
 * A block that is one list, cut into parts of `perPart` items each, or undefined when `source` is not a list or has
 * no more items than that. Its items are the lines that start with the first item's kind of marker at its indent
 * (an item's own lines are indented under it; a line that is not ends it and begins the next, as here). Each part is
 * itself a list (an ordered one starts at its first item's number), so a growing list can be drawn a part at a time.
 */
export function listParts(source: string, perPart: number): MarkdownBlocks | undefined {
  const first = FIRST_ITEM.exec(source);
  if (!first) return undefined;
  const [, indent, marker] = first;
  const starts: number[] = [];
  for (const match of source.matchAll(ITEM)) {
    if (match[1] !== indent || markerKind(match[2]!) !== markerKind(marker!)) continue;
    const lineEnd = source.indexOf('\n', match.index);
    if (THEMATIC_BREAK.test(source.slice(match.index, lineEnd === -1 ? undefined : lineEnd))) continue;
    starts.push(match.index);
  }
  if (starts.length <= perPart) return undefined;
  return { text: source, starts: starts.filter((_, i) => i % perPart === 0) };
}
