import type { Source, SupportSentence } from '@shared/contracts/chat';

/** A sentence of an answer and where it is in the text. */
export type AnswerSentence = Pick<SupportSentence, 'text' | 'start' | 'end'>;

/** `[1]`, `[1, 2]`, as answers cite their sources. */
const CITATIONS = /\[\d{1,3}(?:\s*,\s*\d{1,3})*\]/g;
const LEADING_CITATIONS = /^(?:\[\d{1,3}(?:\s*,\s*\d{1,3})*\]\s*)+/;

/**
 * The answer's sentences, by the platform's sentence rules (Intl.Segmenter), trimmed, with the offsets of the
 * trimmed text. A citation the segmenter put at the start of the next sentence (`… days. [1] Then …`) belongs to
 * the sentence before it.
 */
export function sentencesOf(answer: string): AnswerSentence[] {
  const sentences: AnswerSentence[] = [];
  const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
  for (const { segment, index } of segmenter.segment(answer)) {
    let start = index + (segment.length - segment.trimStart().length);
    const end = index + segment.trimEnd().length;
    const previous = sentences.at(-1);
    const lead = LEADING_CITATIONS.exec(answer.slice(start, end))?.[0];
    if (lead && previous) {
      previous.end = start + lead.trimEnd().length;
      previous.text = answer.slice(previous.start, previous.end);
      start += lead.length;
    }
    if (start < end) sentences.push({ text: answer.slice(start, end), start, end });
  }
  return sentences;
}

/** The spans of fenced code blocks: code is not a claim to check. */
function codeSpans(answer: string): [number, number][] {
  return [...answer.matchAll(/^ {0,3}(```|~~~)[^\n]*\n[\s\S]*?(?:^ {0,3}\1[^\n]*$|(?![\s\S]))/gm)].map((m) => [
    m.index,
    m.index + m[0].length,
  ]);
}

/** A sentence's words without markdown, list markers or citations. */
export function plainText(sentence: string): string {
  return sentence
    .replace(CITATIONS, ' ')
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '')
    .replace(/[*_`~>|#]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * What states nothing to check, whichever way it is checked: a heading, a question, a lead-in ending in a colon,
 * code, or no words at all.
 */
export function isStructural(sentence: AnswerSentence, code: readonly [number, number][]): boolean {
  if (code.some(([from, to]) => sentence.start < to && sentence.end > from)) return true;
  if (/^\s{0,3}#{1,6}\s/.test(sentence.text)) return true;
  const plain = plainText(sentence.text);
  return !/[\p{L}\p{N}]/u.test(plain) || /[?:]$/.test(plain);
}

/** Each sentence with whether it is structural, for either check. */
export function structuralSentences(answer: string): (AnswerSentence & { structural: boolean })[] {
  const code = codeSpans(answer);
  return sentencesOf(answer).map((s) => ({ ...s, structural: isStructural(s, code) }));
}

// Words too common to say whether a passage backs a sentence (English; other languages lean on length alone).
const STOP_WORDS = new Set(
  (
    'a an the and or but if then than so as of to in on at by for with from into onto about over under after before ' +
    'is are was were be been being am do does did done has have had having can could will would shall should may ' +
    'might must it its it’s this that these those there here their they them he she his her him we our us you your ' +
    'i me my not no yes also just only very more most some any all each every other such own same too what which who ' +
    'whom whose when where why how up down out off again further once both few many much per via while during'
  ).split(' '),
);

/** A rough stem, so `refunds`, `refunded` and `refund` meet, and `policies` meets `policy`. */
function stem(word: string): string {
  if (word.length <= 4) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  return word.replace(/(?:ing|ed|es|s|ly)$/, '');
}

/** The content words of a text, stemmed: lower-cased words and numbers, without the most common words. */
export function contentWords(text: string): Set<string> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’.][\p{L}\p{N}]+)*/gu) ?? [];
  return new Set(words.filter((w) => !STOP_WORDS.has(w) && (w.length > 1 || /\d/.test(w))).map(stem));
}

/** Fewer content words than this: too short to be a claim the word-overlap check can judge ("I hope this helps."). */
export const LEXICAL_MIN_WORDS = 3;
/** The share of a sentence's content words a source must contain to count as backing it. */
export const LEXICAL_THRESHOLD = 0.5;

/**
 * The word-overlap check (no judge model, or the judge failed): a source supports a sentence when it contains at
 * least half of the sentence's content words, and at least two of them. Crude, and said to be (method `lexical`).
 */
export function lexicalSupport(
  answer: string,
  sources: readonly Pick<Source, 'n' | 'title' | 'snippet'>[],
): SupportSentence[] {
  const sourceWords = sources.map((s) => ({ n: s.n, words: contentWords(`${s.title} ${s.snippet}`) }));
  return structuralSentences(answer).map(({ structural, ...sentence }) => {
    const words = contentWords(plainText(sentence.text));
    const checkable = !structural && words.size >= LEXICAL_MIN_WORDS;
    const backing = checkable
      ? sourceWords
          .filter((source) => {
            const shared = [...words].filter((w) => source.words.has(w)).length;
            return shared >= 2 && shared / words.size >= LEXICAL_THRESHOLD;
          })
          .map((source) => source.n)
      : [];
    return { ...sentence, sources: backing, checkable, supported: backing.length > 0 };
  });
}
