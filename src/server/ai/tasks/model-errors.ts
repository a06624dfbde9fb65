import { APICallError, RetryError } from 'ai';
import { formatBytes } from '@shared/format-bytes';
import { busyOf, type ModelBusy } from '../model-retry';

/** What the user reads when a reply fails: what happened and, where it is the operator's to fix, where to look. */
export const CHAT_ERRORS = {
  unreachable: 'The language model is not reachable. Check LLM_BASE_URL and that the model server is running.',
  apiKey: 'The language model rejected the API key.',
  modelNotFound: (modelId: string | null) => `Model not found: ${modelId ?? 'unknown'}. Check LLM_MODEL.`,
  busy: 'The language model is busy right now. Please try again in a moment.',
  overloaded:
    "The language model's servers are overloaded right now, even after Botty asked again. Please try again in a minute.",
  status: (status: number) => `The language model failed to answer (error ${status}). Please try again.`,
  unknown: 'The language model failed to answer. Please try again.',
  firstTokenTimeout: 'The language model did not start answering in time. Please try again.',
  totalTimeout: 'The language model took too long, so the reply was cut short.',
  empty: 'The language model sent an empty reply. Please try again.',
  imageTooLarge: (maxBase64Bytes: number) =>
    `This image is too large for the connected model: its provider takes images of at most ${formatBytes(maxBase64Bytes)} once encoded (about ${formatBytes(Math.floor((maxBase64Bytes * 3) / 4))} as a file). Send a smaller image.`,
  imageTooWide: (maxSide: number) =>
    `This image is too large for the connected model: its provider takes images of at most ${maxSide} pixels a side. Send a smaller image.`,
  imagesRejected:
    'The language model could not read the image. Connect a model that understands images (a vision model), or send the message without it.',
} as const;

/**
 * Why a reply failed, for an API that answers with a status (/v1): the provider was busy, an image too large,
 * or a parameter of the caller's cannot be used (`param` names it).
 */
export type ReplyFailure =
  ({ kind: 'busy' } & ModelBusy) | { kind: 'image-too-large' } | { kind: 'invalid-request'; param: string };

export const CALLER_TOOL_CLASH = (name: string) =>
  `The tool '${name}' has the name of one of the bot's own tools (web research or an MCP server's): rename yours.`;

/** A failed reply, with a message fit for the user. */
export class ChatReplyError extends Error {
  override name = 'ChatReplyError';
  constructor(
    message: string,
    readonly failure: ReplyFailure | null = null,
  ) {
    super(message);
  }
}

/** Thrown (as a ChatReplyError subclass) when a model refuses tool definitions, so the caller can do without. */
export class ToolsUnsupportedError extends ChatReplyError {
  override name = 'ToolsUnsupportedError';
}

export function describeModelError(error: unknown, modelId: string | null): string {
  if (RetryError.isInstance(error)) return describeModelError(error.lastError, modelId);
  const busy = busyOf(error);
  if (busy) return busy.status === 429 ? CHAT_ERRORS.busy : CHAT_ERRORS.overloaded;
  if (!APICallError.isInstance(error)) return CHAT_ERRORS.unknown;
  // The SDK reports refused connections, DNS failures and resets as API call errors without a status.
  if (error.statusCode === undefined) return CHAT_ERRORS.unreachable;
  if (error.statusCode === 401 || error.statusCode === 403) return CHAT_ERRORS.apiKey;
  if (error.statusCode === 404) return CHAT_ERRORS.modelNotFound(modelId);
  return CHAT_ERRORS.status(error.statusCode);
}

/**
 * The error a failed model call ends the reply with. `imagesUnread` says the prompt had images and nothing was
 * written yet: a refusal of the request is then most likely the model not reading images.
 */
export function replyErrorOf(error: unknown, modelId: string | null, imagesUnread: boolean): ChatReplyError {
  const rejectedImages =
    imagesUnread && APICallError.isInstance(error) && [400, 415, 422].includes(error.statusCode ?? 0);
  const busy = busyOf(error);
  return new ChatReplyError(
    rejectedImages ? CHAT_ERRORS.imagesRejected : describeModelError(error, modelId),
    busy && { kind: 'busy', status: busy.status, retryAfterSeconds: busy.retryAfterSeconds },
  );
}

/** Some local models answer tool definitions with a 400 or 422; the caller can then search up front instead. */
export function refusesTools(error: unknown): boolean {
  return APICallError.isInstance(error) && [400, 422].includes(error.statusCode ?? 0);
}

/** Enough to diagnose; never the request (prompt, history) nor its headers (the API key). */
export function errorSummary(error: unknown) {
  if (!(error instanceof Error)) return { message: String(error) };
  const cause = error.cause as { code?: unknown } | undefined;
  return {
    name: error.name,
    message: error.message,
    statusCode: APICallError.isInstance(error) ? error.statusCode : undefined,
    cause: typeof cause?.code === 'string' ? cause.code : undefined,
  };
}
