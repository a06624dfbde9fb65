import { generateObject } from 'ai';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { faithfulnessOf } from '@shared/chat/cited-sources';
import type { Source, Support, SupportSentence } from '@shared/contracts/chat';
import { shortTaskSettings } from '../model-capabilities';
import { withBusyRetries } from '../model-retry';
import type { Ai } from '../providers';
import { extractJsonObject } from './generate-prompt';
import { lexicalSupport, structuralSentences } from './support-sentences';

export { faithfulnessOf };

/** One short call after the reply; past this the word-overlap check answers instead. */
export const SUPPORT_TIMEOUT_MS = 30_000;
/** Longer answers are checked by word overlap: one judge call would not map them reliably. */
const JUDGE_MAX_SENTENCES = 60;

export const SUPPORT_INSTRUCTIONS = `You check an AI assistant's answer against the numbered sources it was given.
Reply with one JSON object and nothing else, exactly of this shape:
{"sentences": [{"i": 1, "claim": true, "sources": [2]}]}
- One entry per numbered sentence of the answer, with its number as i.
- claim: false when the sentence states nothing that could be true or false (a greeting, an offer to help, a question), else true.
- sources: the numbers of the sources whose text supports what the sentence says; [] when none does. A source the sentence cites that does not say it does not count. Use only the numbers listed.`;

const judgedSchema = z.object({
  sentences: z.array(
    z.object({ i: z.number().int(), claim: z.boolean().optional(), sources: z.array(z.number().int()).default([]) }),
  ),
});

export type SupportSource = Pick<Source, 'n' | 'title' | 'snippet'>;

export interface SupportCase {
  answer: string;
  /** The numbered sources the answer was given (knowledge passages, web pages, tool resources). */
  sources: readonly SupportSource[];
}

const withFaithfulness = (method: Support['method'], sentences: SupportSentence[]): Support => ({
  method,
  sentences,
  faithfulness: faithfulnessOf({ sentences }) ?? 1,
  checked: sentences.filter((s) => s.checkable).length,
});

function describe({ sources }: SupportCase, sentences: readonly { text: string }[]): string {
  return [
    'Sources:',
    ...sources.map((s) => `[${s.n}] ${s.title}: ${s.snippet}`),
    '',
    'Answer, sentence by sentence:',
    ...sentences.map((s, i) => `(${i + 1}) ${s.text}`),
  ].join('\n');
}

/** The judge's map of sentences to sources; throws when it gives none. */
async function judgeSupport(ai: Ai, c: SupportCase, signal: AbortSignal): Promise<Support> {
  const { model } = ai;
  if (!model) throw new Error('no judge model');
  const sentences = structuralSentences(c.answer);
  if (sentences.length > JUDGE_MAX_SENTENCES) throw new Error('too many sentences for one judge call');
  const abortSignal = AbortSignal.any([signal, AbortSignal.timeout(SUPPORT_TIMEOUT_MS)]);
  const { object } = await withBusyRetries(
    () =>
      generateObject({
        model,
        schema: judgedSchema,
        schemaName: 'SentenceSupport',
        system: SUPPORT_INSTRUCTIONS,
        prompt: describe(c, sentences),
        experimental_repairText: extractJsonObject,
        ...shortTaskSettings(ai, 100 + 25 * sentences.length),
        maxRetries: 0,
        abortSignal,
      }),
    abortSignal,
  );
  const known = new Set(c.sources.map((s) => s.n));
  const judged = new Map(object.sentences.map((s) => [s.i, s]));
  return withFaithfulness(
    'judge',
    sentences.map(({ structural, ...sentence }, index) => {
      const verdict = judged.get(index + 1);
      // Only numbers that exist: a judge may copy a citation the answer made up.
      const backing = [...new Set(verdict?.sources ?? [])].filter((n) => known.has(n)).sort((a, b) => a - b);
      const checkable = !structural && (verdict?.claim ?? true);
      return { ...sentence, sources: backing, checkable, supported: backing.length > 0 };
    }),
  );
}

/**
 * Which sources support each sentence of an answer (decision 0044): the judge model's map when `ai` has one, else,
 * or when the judge fails, the word-overlap check (method `lexical`). Rejects only when `signal` is aborted.
 */
export async function checkSupport(
  ai: Ai | null,
  c: SupportCase,
  signal: AbortSignal,
  log?: FastifyBaseLogger,
): Promise<Support> {
  if (ai?.model) {
    try {
      return await judgeSupport(ai, c, signal);
    } catch (err) {
      if (signal.aborted) throw err;
      log?.warn({ err }, 'support check: the judge failed, checking by word overlap');
    }
  }
  signal.throwIfAborted();
  return withFaithfulness('lexical', lexicalSupport(c.answer, c.sources));
}
