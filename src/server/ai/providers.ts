import type { EmbeddingModel, LanguageModel } from 'ai';
import type { FastifyBaseLogger } from 'fastify';
import type { Config, LlmProvider } from '../config';
import type { OpenAiChatEndpoint } from './openai-chat-request';

/** A model object; plain model-id strings would route through Vercel's gateway, which we never use. */
export type Model = Exclude<LanguageModel, string>;

export interface Ai {
  provider: LlmProvider;
  modelId: string | null;
  /** null in offline mode: every AI feature then answers without a model and says so. */
  model: Model | null;
  /** Set for OpenAI-style chat completions APIs, whose reply streams Botty reads itself (openai-chat-stream.ts). */
  chatEndpoint?: OpenAiChatEndpoint;
}

/** Used when LLM_MODEL is unset; the openai-compatible provider always needs one (config.ts). */
export const DEFAULT_MODEL_IDS = { openai: 'gpt-4o-mini', anthropic: 'claude-3-5-haiku-latest' } as const;

const OPENAI_BASE_URL = 'https://api.openai.com/v1';

const bearer = (apiKey: string | undefined): Record<string, string> =>
  apiKey ? { authorization: `Bearer ${apiKey}` } : {};

/** OpenAI's o-series and GPT-5 and later (but not their `-chat` variants) reason, as the SDK's provider decides. */
export function isOpenAiReasoningModel(modelId: string) {
  const gpt = /^gpt-(\d+)(\.\d+)?(?:-(.+))?$/.exec(modelId);
  const chatVariant = gpt !== null && gpt[2] === undefined && (gpt[3]?.startsWith('chat') ?? false);
  return (
    /^o\d+(?:-|$)/.test(modelId) ||
    (gpt !== null && Number(gpt[1]) >= 5 && !chatVariant) ||
    modelId === 'codex-mini-latest' ||
    modelId === 'computer-use-preview'
  );
}

function required(value: string | undefined, variable: string): string {
  // loadConfig() already refuses these combinations; reaching here means the config was built by hand.
  if (!value) throw new Error(`${variable} is required for this LLM_PROVIDER`);
  return value;
}

/**
 * The only place that builds models. The API key goes to the configured endpoint and nowhere else: each
 * provider is created with its own base URL and key, and nothing else reads them. A provider's package is loaded
 * by the first model built with it, not by the server's start: most instances use one, offline ones none
 * (decision 0055).
 */
export async function createAi(llm: Config['llm'], log: FastifyBaseLogger): Promise<Ai> {
  // The SDK reports call warnings through one process-wide hook (stderr by default). Some are expected, e.g.
  // openai-compatible servers get JSON mode instead of a JSON schema, so they belong in the debug log.
  globalThis.AI_SDK_LOG_WARNINGS = (warnings) => log.debug({ warnings }, 'AI SDK warnings');

  switch (llm.provider) {
    case 'offline':
      return { provider: 'offline', modelId: null, model: null };
    case 'openai-compatible': {
      const modelId = required(llm.model, 'LLM_MODEL');
      const baseURL = required(llm.baseUrl, 'LLM_BASE_URL');
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      const provider = createOpenAICompatible({
        name: 'openai-compatible',
        baseURL,
        apiKey: llm.apiKey,
        includeUsage: true,
        // Ollama, llama.cpp, vLLM and others differ in json_schema support, but all accept plain JSON mode;
        // the expected shape is spelled out in the prompt instead and validated with zod on our side.
        supportsStructuredOutputs: false,
      });
      return {
        provider: 'openai-compatible',
        modelId,
        model: provider.chatModel(modelId),
        chatEndpoint: { baseURL, modelId, headers: bearer(llm.apiKey) },
      };
    }
    case 'openai': {
      const modelId = llm.model ?? DEFAULT_MODEL_IDS.openai;
      const apiKey = required(llm.apiKey, 'LLM_API_KEY');
      const { createOpenAI } = await import('@ai-sdk/openai');
      const provider = createOpenAI({ apiKey, baseURL: llm.baseUrl });
      // Chat completions rather than the Responses API, so LLM_BASE_URL may also point at a proxy.
      return {
        provider: 'openai',
        modelId,
        model: provider.chat(modelId),
        chatEndpoint: {
          baseURL: llm.baseUrl ?? OPENAI_BASE_URL,
          modelId,
          headers: bearer(apiKey),
          reasoning: isOpenAiReasoningModel(modelId),
        },
      };
    }
    case 'anthropic': {
      const modelId = llm.model ?? DEFAULT_MODEL_IDS.anthropic;
      const apiKey = required(llm.apiKey, 'LLM_API_KEY');
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      const provider = createAnthropic({ apiKey, baseURL: llm.baseUrl });
      return { provider: 'anthropic', modelId, model: provider(modelId) };
    }
  }
}

/**
 * The embeddings model for knowledge retrieval (LLM_EMBEDDING_MODEL), from the same endpoint and key as the chat
 * model; null when none is set, offline, or on Anthropic, which offers none (retrieval is then full-text only).
 */
export async function createEmbeddingModel(
  llm: Config['llm'],
  modelId: string | undefined,
): Promise<EmbeddingModel<string> | null> {
  if (!modelId) return null;
  switch (llm.provider) {
    case 'openai-compatible': {
      const baseURL = required(llm.baseUrl, 'LLM_BASE_URL');
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      return createOpenAICompatible({ name: 'openai-compatible', baseURL, apiKey: llm.apiKey }).textEmbeddingModel(
        modelId,
      );
    }
    case 'openai': {
      const apiKey = required(llm.apiKey, 'LLM_API_KEY');
      const { createOpenAI } = await import('@ai-sdk/openai');
      return createOpenAI({ apiKey, baseURL: llm.baseUrl }).textEmbeddingModel(modelId);
    }
    case 'anthropic':
    case 'offline':
      return null;
  }
}
