import { FILE_MESSAGES } from '@shared/contracts/files';
import type { ChatTurn } from '../../ai/tasks/chat-reply';
import { AppError } from '../../lib/errors';
import { detectType } from '../files/detect-type';
import { IMAGE_FORMATS } from '../files/file-formats';
import { invalidRequest, OpenAiError } from './openai-errors';

export type ImageInput = NonNullable<ChatTurn['images']>[number];

/** Images one request may carry; with the text allowance, this bounds the request body (see `apiBodyLimit`). */
export const MAX_IMAGES_PER_REQUEST = 4;

/** What a request may hold besides its images: messages of text. Botty's other routes allow the same. */
const TEXT_BODY_BYTES = 1024 * 1024;

const base64Length = (bytes: number) => Math.ceil(bytes / 3) * 4;

/** Room for MAX_IMAGES_PER_REQUEST images of the largest size as base64 data URLs, and the text around them. */
export const apiBodyLimit = (imageBytes: number) =>
  TEXT_BODY_BYTES + MAX_IMAGES_PER_REQUEST * (base64Length(imageBytes) + 64);

const IMAGE_TYPES = Object.values(IMAGE_FORMATS)
  .map((f) => f.mediaType.replace('image/', '').toUpperCase())
  .join(', ');

export const IMAGE_MESSAGES = {
  off: (bot: string) =>
    `The bot '${bot}' cannot see images: turn on its Image understanding capability (image_understanding) in Botty, or send text only.`,
  notInUserMessage: 'Images can only be sent in user messages.',
  urlNotFetched: 'Image URLs are not fetched: send the image itself as a base64 data URL (data:image/png;base64,…).',
  badDataUrl: 'The image must be a base64 data URL (data:image/png;base64,…).',
  empty: 'The image is empty.',
  unsupportedType: `This image type is not supported: send ${IMAGE_TYPES} images.`,
  tooMany: `A request can carry at most ${MAX_IMAGES_PER_REQUEST} images.`,
} as const;

/** Where base64 data starts in a data URL, and whether the URL says base64 at all. */
const DATA_URL_HEADER = /^data:[^,]*;base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * An `image_url` part's image, read as Botty reads an attached image: only inline data URLs, their type taken
 * from the bytes (never from what the URL declares), PNG, JPEG, GIF or WebP only, no larger than images
 * attached in the app. `param` names the part in errors.
 */
export async function readImageUrl(url: string, imageBytes: number, param: string): Promise<ImageInput> {
  // Not fetched (README): a key holder could otherwise have the server download from the web on their behalf.
  if (/^https?:/i.test(url)) {
    throw new OpenAiError(400, IMAGE_MESSAGES.urlNotFetched, 'invalid_request_error', 'image_url_not_supported', param);
  }
  const header = DATA_URL_HEADER.exec(url);
  if (!header) throw invalidImage(IMAGE_MESSAGES.badDataUrl, param);
  const data = url.slice(header[0].length).replace(/\s+/g, '');
  if (!BASE64.test(data) || data.length % 4 === 1) throw invalidImage(IMAGE_MESSAGES.badDataUrl, param);
  // Measured before decoding, so an oversized image costs no copy.
  const size = Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
  if (size === 0) throw invalidImage(IMAGE_MESSAGES.empty, param);
  if (size > imageBytes) {
    throw new OpenAiError(
      413,
      FILE_MESSAGES.imageTooLarge(imageBytes),
      'invalid_request_error',
      'image_too_large',
      param,
    );
  }
  const bytes = new Uint8Array(Buffer.from(data, 'base64'));
  const unsupported = () =>
    new OpenAiError(415, IMAGE_MESSAGES.unsupportedType, 'invalid_request_error', 'invalid_image_format', param);
  try {
    // No name: the bytes alone decide, and a document (a PDF, say) is not an image.
    const type = await detectType(bytes, '');
    if (type.file.kind !== 'image') throw unsupported();
    return { mediaType: type.mediaType, data: bytes };
  } catch (err) {
    if (err instanceof AppError && err.code === 'UNSUPPORTED_MEDIA_TYPE') throw unsupported();
    throw err;
  }
}

const invalidImage = (message: string, param: string) =>
  new OpenAiError(400, message, 'invalid_request_error', 'invalid_image_url', param);

export const imagesOff = (botName: string, param: string) =>
  new OpenAiError(400, IMAGE_MESSAGES.off(botName), 'invalid_request_error', 'image_understanding_off', param);

export const tooManyImages = () => invalidRequest(IMAGE_MESSAGES.tooMany, 'messages');
