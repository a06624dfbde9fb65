import { generateObject } from 'ai';
import { z } from 'zod';
import { purposeLabel } from '@shared/bots/purposes';
import type { BotSnapshot } from '@shared/contracts/bot-versions';
import type { Source } from '@shared/contracts/chat';
import { shortTaskSettings } from '../model-capabilities';
import { withBusyRetries } from '../model-retry';
import type { Ai, Model } from '../providers';
import { extractJsonObject } from './generate-prompt';

/** A verdict is one short call; past this the query is reported without one. */
export const JUDGE_TIMEOUT_MS = 30_000;

export const JUDGE_INSTRUCTIONS = `You judge the answers of an AI assistant to its test questions.
Reply with one JSON object and nothing else, exactly of this shape:
{"verdict": "pass", "score": 4, "reason": "..."}
- verdict: "pass" when the answer responds to the question, serves the assistant's purpose and description, and meets the user's expectation when one is given; otherwise "fail". When sources are listed, an answer that contradicts them or cites a number that is not listed fails.
- score: 1 (useless) to 5 (excellent), how well the answer serves the question, whatever the verdict.
- reason: one short sentence saying why.`;

// The score is asked for but not required: a verdict without one still counts, it just compares by verdict only.
const verdictSchema = z.object({
  verdict: z.enum(['pass', 'fail']),
  score: z.number().min(1).max(5).nullish(),
  reason: z.string(),
});
export interface Verdict {
  verdict: 'pass' | 'fail';
  /** 1–5, null when the judge gave none. */
  score: number | null;
  reason: string;
}

export interface JudgeCase {
  bot: Pick<BotSnapshot, 'name' | 'description' | 'purpose'>;
  query: string;
  answer: string;
  /** The numbered sources the answer was given (knowledge passages, web pages), which it may cite as [n]. */
  sources?: readonly Pick<Source, 'n' | 'title' | 'snippet'>[];
  /** What the user said they expected from an answer to this query (Train step notes). */
  expectation?: string;
}

function describeCase({ bot, query, answer, sources = [], expectation }: JudgeCase): string {
  return [
    `Assistant: ${bot.name}`,
    `Description: ${bot.description}`,
    `Purpose: ${purposeLabel(bot.purpose)}`,
    `Question: ${query}`,
    ...(expectation ? [`The user expects: ${expectation}`] : []),
    ...(sources.length
      ? [
          'Sources the assistant was given (it cites them as [n]):',
          ...sources.map((s) => `[${s.n}] ${s.title}: ${s.snippet}`),
        ]
      : []),
    'Answer:',
    answer,
  ].join('\n');
}

/** Pass or fail with a 1–5 score and a one-line reason, from the configured model; throws when it cannot give one. */
export async function judgeAnswer(ai: Ai & { model: Model }, c: JudgeCase, signal: AbortSignal): Promise<Verdict> {
  const abortSignal = AbortSignal.any([signal, AbortSignal.timeout(JUDGE_TIMEOUT_MS)]);
  // A busy provider is asked again (as its retry-after says): a verdict is worth the wait; other failures are not.
  const { object } = await withBusyRetries(
    () =>
      generateObject({
        model: ai.model,
        schema: verdictSchema,
        schemaName: 'Verdict',
        system: JUDGE_INSTRUCTIONS,
        prompt: describeCase(c),
        experimental_repairText: extractJsonObject,
        ...shortTaskSettings(ai, 300),
        maxRetries: 0,
        abortSignal,
      }),
    abortSignal,
  );
  const score = object.score == null ? null : Math.round(object.score);
  return { verdict: object.verdict, score, reason: object.reason.trim().split('\n')[0] ?? '' };
}
