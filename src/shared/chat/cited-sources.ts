import type { Support } from '../contracts/chat';

/** `[2]`, and lists such as `[1, 3]`, as models write them. */
const CITATION = /\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g;

/** The source numbers a reply's text cites with `[n]` markers. */
export function citedNumbers(text: string): Set<number> {
  const cited = new Set<number>();
  for (const match of text.matchAll(CITATION)) for (const n of match[1]!.split(',')) cited.add(Number(n.trim()));
  return cited;
}

export interface SplitSources<S> {
  /** What the answer cites, by `[n]` or because its support check found it backs a sentence. */
  cited: S[];
  /** The other retrieved sources: read, not used. */
  consulted: S[];
}

/**
 * A reply's sources split into those the answer used and those only consulted (decision 0044). Worked out from the
 * text, so replies saved before support checks split too. A reply that cites nothing and was never checked cannot be
 * told apart: all its sources are listed as cited, as they always were.
 */
export function splitSources<S extends { n: number }>(
  text: string,
  sources: readonly S[],
  support?: Pick<Support, 'sentences'> | null,
): SplitSources<S> {
  const cited = citedNumbers(text);
  for (const sentence of support?.sentences ?? [])
    if (sentence.supported) sentence.sources.forEach((n) => cited.add(n));
  const used = sources.filter((s) => cited.has(s.n));
  if (!used.length && !support) return { cited: [...sources], consulted: [] };
  return { cited: used, consulted: sources.filter((s) => !cited.has(s.n)) };
}

/** Supported sentences over the sentences that state something; null when none does (nothing to check). */
export function faithfulnessOf(support: Pick<Support, 'sentences'>): number | null {
  const checkable = support.sentences.filter((s) => s.checkable);
  return checkable.length ? checkable.filter((s) => s.supported).length / checkable.length : null;
}

/** Where a reply's text gets a mark: the end offsets of the sentences that state something no source supports. */
export const unsupportedEnds = (support: Pick<Support, 'sentences'>): number[] =>
  support.sentences.filter((s) => s.checkable && !s.supported).map((s) => s.end);

/** "4 of 5 sentences supported", for under a reply; null when there was nothing to check. */
export function supportSummary(support: Pick<Support, 'sentences'>): string | null {
  const checkable = support.sentences.filter((s) => s.checkable);
  if (!checkable.length) return null;
  const supported = checkable.filter((s) => s.supported).length;
  return `${supported} of ${checkable.length} ${checkable.length === 1 ? 'sentence' : 'sentences'} supported`;
}

export const SUPPORT_METHOD_LABELS: Record<Support['method'], string> = {
  judge: 'Checked by the judge',
  lexical: 'Checked by word overlap (offline)',
};

/**
 * The check runs after `done` (decision 0044) and no event announces it: a client fetches a reply again after
 * each of these waits until it comes, then gives up (the judge gives up after 45 s).
 */
export const SUPPORT_REFETCH_DELAYS_MS = [3_000, 6_000, 12_000, 24_000] as const;

/** A reply whose support check may still come: it ended with text and sources and has none yet. */
export const awaitsSupport = (message: {
  role: string;
  content: string;
  status: string;
  sources: readonly unknown[];
  support?: Support | null;
}) =>
  message.role === 'assistant' &&
  message.content !== '' &&
  message.sources.length > 0 &&
  message.support == null &&
  (message.status === 'complete' || message.status === 'stopped');
