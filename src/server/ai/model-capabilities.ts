import type { SharedV2ProviderOptions } from '@ai-sdk/provider';
import type { LlmProvider } from '../config';
import { isOpenAiReasoningModel, type Ai } from './providers';

/** What the reply pipeline and the short tasks must know about a model before they call it. */
export interface ModelCapabilities {
  provider: LlmProvider;
  /**
   * The largest image the provider takes, measured on its base64 form as the provider measures it (Anthropic
   * refuses more than 5 MiB of base64, i.e. about 3.75 MiB of file); null when the server does not say.
   */
  maxImageBase64Bytes: number | null;
  /** The longest side an image may have in pixels; null when the provider resizes any image itself. */
  maxImageSide: number | null;
  /** It thinks before it writes, and those tokens count against any output cap. */
  reasoning: boolean;
  toolUse: boolean;
  /** Requests whose history holds tool calls or results must define the tools again (Anthropic answers 400). */
  toolsWithToolHistory: boolean;
  /** A JSON schema is enforced by the provider (otherwise JSON mode and the shape spelled out in the prompt). */
  structuredOutput: boolean;
  /**
   * The output cap of a chat reply unless the bot or caller sets one. Undefined leaves it to the server: an
   * OpenAI-compatible server (vLLM) refuses a cap larger than its context leaves, and knows its own default.
   */
  chatMaxOutputTokens: number | undefined;
}

const MIB = 1024 * 1024;

/** Enough for a long, detailed answer; Anthropic would otherwise be asked for the model's whole limit (64k). */
export const CHAT_MAX_OUTPUT_TOKENS = 4_096;
/** A reasoning model's cap covers its thinking too: a chat reply gets room for both. */
const REASONING_CHAT_MAX_OUTPUT_TOKENS = 32_768;

/** Reasoning models served behind OpenAI-compatible APIs (Ollama, vLLM, OpenRouter) by their usual names. */
const COMPATIBLE_REASONING = /(^|[/:_-])(r1|qwq|gpt-oss|magistral|thinking|reasoner|reasoning)([:_.-]|$)/i;

function isReasoning(provider: LlmProvider, modelId: string) {
  if (provider === 'openai') return isOpenAiReasoningModel(modelId);
  if (provider === 'openai-compatible') {
    return isOpenAiReasoningModel(modelId.split('/').at(-1) ?? modelId) || COMPATIBLE_REASONING.test(modelId);
  }
  // Claude thinks only when asked to (extended thinking), which Botty does not ask.
  return false;
}

/** The capabilities of the model an `Ai` calls, from its provider kind and model id. */
export function capabilitiesOf(ai: Pick<Ai, 'provider' | 'modelId'>): ModelCapabilities {
  const reasoning = ai.modelId !== null && isReasoning(ai.provider, ai.modelId);
  switch (ai.provider) {
    case 'anthropic':
      return {
        provider: ai.provider,
        maxImageBase64Bytes: 5 * MIB,
        maxImageSide: 8_000,
        reasoning,
        toolUse: true,
        toolsWithToolHistory: true,
        structuredOutput: true,
        chatMaxOutputTokens: CHAT_MAX_OUTPUT_TOKENS,
      };
    case 'openai':
      return {
        provider: ai.provider,
        // OpenAI takes images up to 20 MB each and scales them itself.
        maxImageBase64Bytes: Math.ceil((20 * MIB) / 3) * 4,
        maxImageSide: null,
        reasoning,
        toolUse: true,
        toolsWithToolHistory: false,
        structuredOutput: true,
        chatMaxOutputTokens: reasoning ? REASONING_CHAT_MAX_OUTPUT_TOKENS : CHAT_MAX_OUTPUT_TOKENS,
      };
    case 'openai-compatible':
    case 'offline':
      return {
        provider: ai.provider,
        maxImageBase64Bytes: null,
        maxImageSide: null,
        reasoning,
        // Tried per reply: a server that refuses tools gets the research done up front (reply-context.ts).
        toolUse: ai.provider === 'openai-compatible',
        toolsWithToolHistory: false,
        structuredOutput: false,
        chatMaxOutputTokens: undefined,
      };
  }
}

/**
 * The settings of a short task (a title, a verdict, a generated prompt) on this model: its output cap, except
 * on a reasoning model, whose thinking would use a tight cap up and leave no answer; there OpenAI's effort
 * is kept low instead.
 */
export function shortTaskSettings(
  ai: Pick<Ai, 'provider' | 'modelId'>,
  maxOutputTokens: number,
): { maxOutputTokens?: number; providerOptions?: SharedV2ProviderOptions } {
  if (!capabilitiesOf(ai).reasoning) return { maxOutputTokens };
  // Only OpenAI is told: other servers differ in whether they accept `reasoning_effort` at all.
  return ai.provider === 'openai' ? { providerOptions: { openai: { reasoningEffort: 'low' } } } : {};
}

const base64Length = (bytes: number) => Math.ceil(bytes / 3) * 4;

/** Why the model cannot take this image (too large or too wide for its provider), or null when it can. */
export function imageRefusal(
  capabilities: ModelCapabilities,
  image: { byteLength: number; width?: number; height?: number },
): { maxBase64Bytes: number } | { maxSide: number } | null {
  const { maxImageBase64Bytes: maxBytes, maxImageSide: maxSide } = capabilities;
  if (maxBytes !== null && base64Length(image.byteLength) > maxBytes) return { maxBase64Bytes: maxBytes };
  if (maxSide !== null && Math.max(image.width ?? 0, image.height ?? 0) > maxSide) return { maxSide };
  return null;
}
