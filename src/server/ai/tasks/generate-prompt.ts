import { generateObject, type RepairTextFunction } from 'ai';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { buildLocalPrompt, localExampleQueries } from '@shared/bots/prompt-template';
import { purposeLabel } from '@shared/bots/purposes';
import { BOT_PROMPT_MAX, EXAMPLE_QUERY_MAX, GENERATED_QUERIES_MAX } from '@shared/constants';
import type { GeneratePromptBody, GeneratePromptResponse } from '@shared/contracts/bots';
import { shortTaskSettings } from '../model-capabilities';
import type { Ai } from '../providers';
import { errorSummary } from './chat-reply';

/** Training shows a progress bar meanwhile; past this the local template is the better answer. */
export const GENERATE_PROMPT_TIMEOUT_MS = 20_000;

const answerSchema = z.object({
  systemPrompt: z.string(),
  exampleQueries: z.array(z.string()),
});

// JSON mode alone does not tell an openai-compatible model the shape (see providers.ts), so the prompt does.
const INSTRUCTIONS = `You write system prompts for AI assistants.
Reply with one JSON object and nothing else, exactly of this shape:
{"systemPrompt": "...", "exampleQueries": ["...", "..."]}
- systemPrompt: a complete system prompt addressed to the assistant ("You are ..."): its role, what to focus on for its purpose, and guidelines on tone and accuracy. 150 to 400 words.
- exampleQueries: 5 short, varied questions a user might ask this assistant.
When the bot comes with questions its users will ask, the system prompt prepares the assistant to answer exactly such questions well (the knowledge, format and depth they call for), and exampleQueries are new questions in the same vein, not copies of them.`;

function describeBot(body: GeneratePromptBody) {
  const lines = [`Name: ${body.name}`, `Description: ${body.description}`, `Purpose: ${purposeLabel(body.purpose)}`];
  if (body.exampleQueries.length) {
    lines.push('Questions its users will ask:', ...body.exampleQueries.map((query) => `- ${query}`));
  }
  return lines.join('\n');
}

/** Local models often wrap JSON in prose or code fences; the object inside is what we asked for. */
export const extractJsonObject: RepairTextFunction = async ({ text }) => {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start || (start === 0 && end === text.length - 1)) return null;
  return text.slice(start, end + 1);
};

/** Trimmed, without blank, overlong or repeated queries; null when nothing usable is left. */
function usable(answer: z.infer<typeof answerSchema>) {
  const systemPrompt = answer.systemPrompt.trim();
  const queries = answer.exampleQueries.map((q) => q.trim()).filter((q) => q && q.length <= EXAMPLE_QUERY_MAX);
  const exampleQueries = [...new Set(queries)].slice(0, GENERATED_QUERIES_MAX);
  if (!systemPrompt || systemPrompt.length > BOT_PROMPT_MAX || exampleQueries.length === 0) return null;
  return { systemPrompt, exampleQueries };
}

export interface GeneratePromptDeps {
  ai: Ai;
  log: FastifyBaseLogger;
}

export interface GeneratePromptOptions {
  timeoutMs?: number;
  /** Aborted when the user cancels training or goes away. */
  signal?: AbortSignal;
}

/**
 * A system prompt and example queries for a bot being created, written with the user's example queries in
 * mind. Never fails: offline, or when the model errors, times out, is cancelled or answers with something
 * unusable, the local template answers instead (spec §8) and `source` says so.
 */
export async function generatePrompt(
  deps: GeneratePromptDeps,
  body: GeneratePromptBody,
  { timeoutMs = GENERATE_PROMPT_TIMEOUT_MS, signal }: GeneratePromptOptions = {},
): Promise<GeneratePromptResponse> {
  if (deps.ai.model) {
    try {
      const { object } = await generateObject({
        model: deps.ai.model,
        schema: answerSchema,
        schemaName: 'BotPrompt',
        system: INSTRUCTIONS,
        prompt: describeBot(body),
        experimental_repairText: extractJsonObject,
        // A 400-word prompt and five queries fit easily; the cap stops a rambling model early.
        ...shortTaskSettings(deps.ai, 2048),
        // One attempt: a retry would rarely fit in the time the user is willing to watch a progress bar.
        maxRetries: 0,
        abortSignal: signal
          ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)])
          : AbortSignal.timeout(timeoutMs),
      });
      const answer = usable(object);
      if (answer) return { ...answer, source: 'model' };
      deps.log.warn(
        { model: deps.ai.modelId },
        'generate-prompt: unusable answer from the model; using the local template',
      );
    } catch (err) {
      // The error carries the request body (the whole prompt): log only what diagnoses it.
      deps.log.warn(
        { error: errorSummary(err), model: deps.ai.modelId },
        'generate-prompt: the model failed; using the local template',
      );
    }
  }
  return {
    systemPrompt: buildLocalPrompt(body),
    exampleQueries: localExampleQueries(body.purpose, body.name),
    source: 'template',
  };
}
