import { FILE_MESSAGES } from '@shared/contracts/files';
import type { ChatTurn } from '../../ai/tasks/chat-reply';
import { AppError } from '../../lib/errors';
import { detectType } from '../files/detect-type';
import { IMAGE_FORMATS } from '../files/file-formats';
import type { SafeDownload } from '../web/safe-fetch';
import { WebError } from '../web/web-error';
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
  badUrl: 'The image must be an http(s) URL or a base64 data URL (data:image/png;base64,…).',
  refusedUrl: (reason: string) => `The image URL cannot be fetched: ${reason}.`,
  unreachable: (reason: string) => `The image could not be downloaded: ${reason}.`,
  empty: 'The image is empty.',
  unsupportedType: `This image type is not supported: send ${IMAGE_TYPES} images.`,
  tooMany: `A request can carry at most ${MAX_IMAGES_PER_REQUEST} images.`,
} as const;

/** Where base64 data starts in a data URL, and whether the URL says base64 at all. */
const DATA_URL_HEADER = /^data:[^,]*;base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const invalidImage = (message: string, param: string) =>
  new OpenAiError(400, message, 'invalid_request_error', 'invalid_image_url', param);

const imageTooLarge = (imageBytes: number, param: string) =>
  new OpenAiError(413, FILE_MESSAGES.imageTooLarge(imageBytes), 'invalid_request_error', 'image_too_large', param);

/** A data URL's bytes; the size is measured before decoding, so an oversized image costs no copy. */
function dataUrlBytes(url: string, imageBytes: number, param: string): Uint8Array {
  const header = DATA_URL_HEADER.exec(url);
  if (!header) throw invalidImage(IMAGE_MESSAGES.badUrl, param);
  const data = url.slice(header[0].length).replace(/\s+/g, '');
  if (!BASE64.test(data) || data.length % 4 === 1) throw invalidImage(IMAGE_MESSAGES.badUrl, param);
  const size = Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
  if (size > imageBytes) throw imageTooLarge(imageBytes, param);
  return new Uint8Array(Buffer.from(data, 'base64'));
}

/**
 * An image on the web, only through the safe download that web research uses: public addresses only (checked
 * again at each redirect), bounded in time, and cut off past the image limit.
 */
async function downloadedBytes(download: SafeDownload, url: string, imageBytes: number, param: string) {
  try {
    return await download(url, { maxBytes: imageBytes });
  } catch (err) {
    if (!(err instanceof WebError)) throw err;
    if (err.code === 'too-large') throw imageTooLarge(imageBytes, param);
    const reason = err.message.replace(/\.$/, '');
    const refused = err.code === 'refused' || err.code === 'bad-url';
    throw invalidImage(refused ? IMAGE_MESSAGES.refusedUrl(reason) : IMAGE_MESSAGES.unreachable(reason), param);
  }
}

/**
 * An `image_url` part's image, read as Botty reads an attached image: its type taken from the bytes (never from
 * what the URL or the server declares), PNG, JPEG, GIF or WebP only, no larger than images attached in the app.
 * `param` names the part in errors.
 */
export async function readImageUrl(
  url: string,
  limits: { imageBytes: number; download: SafeDownload },
  param: string,
): Promise<ImageInput> {
  const bytes = /^https?:/i.test(url)
    ? await downloadedBytes(limits.download, url, limits.imageBytes, param)
    : dataUrlBytes(url, limits.imageBytes, param);
  if (bytes.length === 0) throw invalidImage(IMAGE_MESSAGES.empty, param);
  const unsupported = () =>
    new OpenAiError(415, IMAGE_MESSAGES.unsupportedType, 'invalid_request_error', 'invalid_image_format', param);
  try {
    // No name: the bytes alone decide, and a document (a PDF, say) is not an image.
    const type = await detectType(bytes, '');
    if (type.file.kind !== 'image') throw unsupported();
    return { mediaType: type.mediaType, data: bytes };
  } catch (err) {
    if (err instanceof AppError && err.code === 'UNSUPPORTED_MEDIA_TYPE') throw unsupported();
    if (err instanceof AppError && err.code === 'PAYLOAD_TOO_LARGE') {
      throw new OpenAiError(413, err.message, 'invalid_request_error', 'image_too_large', param);
    }
    throw err;
  }
}

export const imagesOff = (botName: string, param: string) =>
  new OpenAiError(400, IMAGE_MESSAGES.off(botName), 'invalid_request_error', 'image_understanding_off', param);

export const tooManyImages = () => invalidRequest(IMAGE_MESSAGES.tooMany, 'messages');
