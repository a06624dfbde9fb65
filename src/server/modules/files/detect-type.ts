import { fileTypeFromBuffer } from 'file-type';
import { AppError } from '../../lib/errors';
import { formatByExtension, formatByMediaType, type FileFormat } from './file-formats';

export const UNSUPPORTED_TYPE_MESSAGE =
  'This file type is not supported. Add PDF, DOCX, TXT, Markdown, CSV, HTML or JSON documents, or PNG, JPEG, GIF or WebP images.';

export interface DetectedType {
  mediaType: string;
  file: FileFormat;
}

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

/** Only the start matters for "does it look like HTML"; pages open with a doctype, <html> or a few tags. */
const HTML_START =
  /^\s*(<!--[\s\S]*?-->\s*)*<(!doctype\s+html|html|head|body|meta|title|div|p|h[1-6]|article|section|main)[\s>]/i;

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
  if (file.format === 'html' && !HTML_START.test(utf8.decode(bytes.subarray(0, 4096)).replace(/^\uFEFF/, ''))) {
    throw unsupported(`This file is named .${extension} but does not look like HTML.`);
  }
}

/**
 * The file's type, read from its bytes (magic numbers) rather than trusted from its name; an empty file is
 * typed by its name alone, as there is nothing else to go by. Unsupported or mismatched → 415.
 */
export async function detectType(bytes: Uint8Array, name: string): Promise<DetectedType> {
  const extension = extensionOf(name);
  const byName = extension ? formatByExtension(extension) : undefined;
  const sniffed = bytes.length > 0 ? await fileTypeFromBuffer(bytes) : undefined;
  if (sniffed) {
    const byBytes = formatByMediaType(sniffed.mime);
    if (!byBytes) throw unsupported();
    if (extension && byName?.mediaType !== byBytes.mediaType) {
      throw unsupported(`This file's content is ${byBytes.label}, but its name ends in .${extension}.`);
    }
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
