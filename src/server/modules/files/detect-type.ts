import { imageSize } from 'image-size';
import { AppError } from '../../lib/errors';
import { formatByExtension, formatByMediaType, type FileFormat } from './file-formats';

export const UNSUPPORTED_TYPE_MESSAGE =
  'This file type is not supported. Add PDF, DOCX, TXT, Markdown, CSV, HTML or JSON documents, or PNG, JPEG, GIF or WebP images.';

export interface DetectedType {
  mediaType: string;
  file: FileFormat;
}

/**
 * Most pixels an image may declare: a photo of a 40-megapixel camera. A model provider decodes an image in full,
 * so a few hundred bytes declaring 60,000 × 60,000 pixels would ask it for gigabytes.
 */
export const MAX_IMAGE_PIXELS = 40_000_000;

export const IMAGE_MESSAGES = {
  tooManyPixels: (width: number, height: number) =>
    `This image is ${width} × ${height} pixels; images can have at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels (${MAX_IMAGE_PIXELS.toLocaleString('en')} pixels).`,
  unreadableSize: 'This image is damaged: its width and height cannot be read.',
} as const;

const extensionOf = (name: string) => /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();

const unsupported = (message = UNSUPPORTED_TYPE_MESSAGE) => new AppError('UNSUPPORTED_MEDIA_TYPE', message);

const utf8 = new TextDecoder('utf-8', { fatal: true });

function isUtf8Text(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    utf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Only the start matters for "does it look like HTML": after an optional XML declaration (XHTML), comments and a
 * doctype, a page or a fragment opens with an HTML element.
 */
const HTML_START = new RegExp(
  String.raw`^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*(<!doctype\s+html[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*` +
    String.raw`<(html|head|body|meta|link|title|style|base|div|p|h[1-6]|article|section|main|header|nav|aside|` +
    String.raw`ul|ol|dl|table|blockquote|pre|figure|form|center|address|span|a|b|i|em|strong|img|br|hr)[\s>/]`,
  'i',
);

const looksLikeHtml = (bytes: Uint8Array) =>
  HTML_START.test(new TextDecoder('utf-8').decode(bytes.subarray(0, 4096)).replace(/^\uFEFF/, ''));

/** The dimensions an image declares in its header, read without decoding it; too many pixels → 413. */
function checkImagePixels(bytes: Uint8Array) {
  let size: { width: number; height: number };
  try {
    size = imageSize(bytes);
  } catch {
    throw unsupported(IMAGE_MESSAGES.unreadableSize);
  }
  if (size.width * size.height > MAX_IMAGE_PIXELS) {
    throw new AppError('PAYLOAD_TOO_LARGE', IMAGE_MESSAGES.tooManyPixels(size.width, size.height));
  }
}

/** Text formats have no magic number: the bytes must be text, and agree with what the name promises. */
function checkText(bytes: Uint8Array, file: FileFormat, extension: string) {
  if (!isUtf8Text(bytes)) throw unsupported(`This file is named .${extension} but is not UTF-8 text.`);
  if (file.format === 'json') {
    try {
      JSON.parse(utf8.decode(bytes));
    } catch {
      throw unsupported(`This file is named .${extension} but is not valid JSON.`);
    }
  }
  if (file.format === 'html' && !looksLikeHtml(bytes)) {
    throw unsupported(`This file is named .${extension} but does not look like HTML.`);
  }
}

/**
 * The file's type, read from its bytes (magic numbers) rather than trusted from its name; an empty file is
 * typed by its name alone, as there is nothing else to go by. Unsupported or mismatched → 415; an image
 * declaring more than MAX_IMAGE_PIXELS → 413.
 */
export async function detectType(bytes: Uint8Array, name: string): Promise<DetectedType> {
  const extension = extensionOf(name);
  const byName = extension ? formatByExtension(extension) : undefined;
  // Loaded with the first upload, not at the server's start (decision 0055).
  const { fileTypeFromBuffer } = await import('file-type');
  const sniffed = bytes.length > 0 ? await fileTypeFromBuffer(bytes) : undefined;
  // XHTML opens with an XML declaration, so its bytes read as XML: a name promising HTML decides, if it looks so.
  const xhtml = sniffed?.mime === 'application/xml' && byName?.format === 'html' && looksLikeHtml(bytes);
  if (sniffed && !xhtml) {
    const byBytes = formatByMediaType(sniffed.mime);
    if (!byBytes) throw unsupported();
    if (extension && byName?.mediaType !== byBytes.mediaType) {
      throw unsupported(`This file's content is ${byBytes.label}, but its name ends in .${extension}.`);
    }
    if (byBytes.kind === 'image') checkImagePixels(bytes);
    return { mediaType: byBytes.mediaType, file: { kind: byBytes.kind, format: byBytes.format } as FileFormat };
  }
  if (!byName || !extension) throw unsupported();
  const file = { kind: byName.kind, format: byName.format } as FileFormat;
  if (bytes.length > 0) {
    // A name promising PDF, DOCX or an image without that format's signature is not that format.
    if (byName.kind === 'image' || byName.format === 'pdf' || byName.format === 'docx') {
      throw unsupported(`This file is named .${extension} but its content is not ${byName.label}.`);
    }
    checkText(bytes, file, extension);
  }
  return { mediaType: byName.mediaType, file };
}
