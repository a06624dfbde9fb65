import { acceptsUpload } from '@shared/bots/capabilities';
import type { HistoryMessage } from '../../ai/compose-prompt';
import type { ReplyBot } from '../bots/bots.repository';
import { invalidRequest } from './openai-errors';
import {
  IMAGE_MESSAGES,
  imagesOff,
  MAX_IMAGES_PER_REQUEST,
  readImageUrl,
  tooManyImages,
  type ImageInput,
} from './openai-images';
import type { ChatMessage } from './openai.schemas';
import type { SafeDownload } from '../web/safe-fetch';

type ImageLimits = { imageBytes: number; download: SafeDownload };

/**
 * One message's text and images; `imageCount` runs across the request, so no more than the limit are decoded.
 * Several text parts are joined with a newline, as OpenAI's models read them.
 */
async function readContent(
  message: ChatMessage,
  index: number,
  bot: ReplyBot,
  limits: ImageLimits,
  imageCount: { n: number },
): Promise<{ text: string; images: ImageInput[] }> {
  if (typeof message.content === 'string' || message.content == null) {
    return { text: message.content ?? '', images: [] };
  }
  const texts: string[] = [];
  const images: ImageInput[] = [];
  for (const [j, part] of message.content.entries()) {
    const param = `messages.${index}.content.${j}`;
    if (part.type === 'text') texts.push(part.text ?? '');
    else if (part.type === 'image_url') {
      if (message.role !== 'user') throw invalidRequest(IMAGE_MESSAGES.notInUserMessage, param);
      if (!acceptsUpload(bot, 'image')) throw imagesOff(bot.name, param);
      if (++imageCount.n > MAX_IMAGES_PER_REQUEST) throw tooManyImages();
      if (typeof part.image_url?.url !== 'string') {
        throw invalidRequest('image_url.url is required', `${param}.image_url.url`);
      }
      images.push(await readImageUrl(part.image_url.url, limits, `${param}.image_url.url`));
    } else {
      throw invalidRequest(`Only text and image_url content parts are supported, not '${part.type}'.`, param);
    }
  }
  return { text: texts.join('\n'), images };
}

/** A tool message answers a call an earlier assistant message made: its tool is that call's. */
function toolCallOf(message: ChatMessage, index: number, calls: Map<string, string>) {
  const id = message.tool_call_id;
  if (!id) throw invalidRequest('A tool message needs the tool_call_id it answers.', `messages.${index}.tool_call_id`);
  const name = calls.get(id);
  if (name === undefined) {
    throw invalidRequest(
      `No assistant message before this one has a tool call with the id '${id}'.`,
      `messages.${index}.tool_call_id`,
    );
  }
  return { id, name };
}

const LAST_MESSAGE =
  'The last message (besides system messages) must be a user message, or the results of the tool calls that follow it.';

/**
 * The caller's messages as Botty's prompt pieces: system notes, the earlier turns, the question (the last user
 * message) with its images, and what came after it: an agent loop's tool calls and their results. Images are
 * checked here (the bot's capability, type, size), before a stream opens.
 */
export async function readMessages(messages: ChatMessage[], bot: ReplyBot, limits: ImageLimits) {
  const callerInstructions: string[] = [];
  const turns: HistoryMessage[] = [];
  const calls = new Map<string, string>();
  const imageCount = { n: 0 };
  for (const [i, message] of messages.entries()) {
    const { text, images } = await readContent(message, i, bot, limits, imageCount);
    if (message.role === 'system' || message.role === 'developer') {
      if (text.trim()) callerInstructions.push(text.trim());
    } else if (message.role === 'tool') {
      turns.push({ role: 'tool', content: text, toolCall: toolCallOf(message, i, calls) });
    } else if (message.role === 'assistant' && message.tool_calls?.length) {
      const toolCalls = message.tool_calls.map((call) => ({
        id: call.id,
        name: call.function.name,
        arguments: call.function.arguments,
      }));
      for (const call of toolCalls) calls.set(call.id, call.name);
      turns.push({ role: 'assistant', content: text, toolCalls });
    } else turns.push({ role: message.role, content: text, ...(images.length ? { images } : {}) });
  }
  const questionAt = turns.findLastIndex((turn) => turn.role === 'user');
  const after = turns.slice(questionAt + 1);
  const last = turns.at(-1);
  if (questionAt < 0 || (last?.role !== 'user' && last?.role !== 'tool') || after.some((t) => !isToolTurn(t))) {
    throw invalidRequest(LAST_MESSAGE, 'messages');
  }
  const question = turns[questionAt]!;
  return {
    callerInstructions,
    // Empty turns say nothing, unless they are part of a tool call.
    history: turns.slice(0, questionAt).filter((t) => t.content.trim() || t.images?.length || isToolTurn(t)),
    // Empty content is a question too, as OpenAI takes it.
    question: question.content,
    images: question.images ?? [],
    afterQuestion: after,
    hasToolCalls: calls.size > 0,
  };
}

const isToolTurn = (turn: HistoryMessage) => turn.role === 'tool' || Boolean(turn.toolCalls?.length);
