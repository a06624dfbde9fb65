/** Every format Botty reads; the names double as the worker's instruction for how to extract. */
export const DOCUMENT_FORMATS = {
  pdf: { mediaType: 'application/pdf', extensions: ['pdf'], label: 'a PDF' },
  docx: {
    mediaType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    extensions: ['docx'],
    label: 'a Word document (DOCX)',
  },
  txt: { mediaType: 'text/plain', extensions: ['txt', 'text'], label: 'plain text' },
  markdown: { mediaType: 'text/markdown', extensions: ['md', 'markdown'], label: 'Markdown' },
  csv: { mediaType: 'text/csv', extensions: ['csv'], label: 'CSV' },
  json: { mediaType: 'application/json', extensions: ['json'], label: 'JSON' },
  html: { mediaType: 'text/html', extensions: ['html', 'htm', 'xhtml'], label: 'HTML' },
} as const;

export const IMAGE_FORMATS = {
  png: { mediaType: 'image/png', extensions: ['png'], label: 'a PNG image' },
  jpeg: { mediaType: 'image/jpeg', extensions: ['jpg', 'jpeg'], label: 'a JPEG image' },
  gif: { mediaType: 'image/gif', extensions: ['gif'], label: 'a GIF image' },
  webp: { mediaType: 'image/webp', extensions: ['webp'], label: 'a WebP image' },
} as const;

export type DocumentFormat = keyof typeof DOCUMENT_FORMATS;
export type ImageFormat = keyof typeof IMAGE_FORMATS;

export type FileFormat = { kind: 'document'; format: DocumentFormat } | { kind: 'image'; format: ImageFormat };

const ALL = [
  ...Object.entries(DOCUMENT_FORMATS).map(([format, f]) => ({ ...f, kind: 'document' as const, format })),
  ...Object.entries(IMAGE_FORMATS).map(([format, f]) => ({ ...f, kind: 'image' as const, format })),
];

export const formatByMediaType = (mediaType: string) => ALL.find((f) => f.mediaType === mediaType);
export const formatByExtension = (extension: string) =>
  ALL.find((f) => (f.extensions as readonly string[]).includes(extension));

/** The document format a stored media type stands for (the job runner reads it back from the row). */
export function documentFormatOf(mediaType: string): DocumentFormat | undefined {
  const f = formatByMediaType(mediaType);
  return f?.kind === 'document' ? (f.format as DocumentFormat) : undefined;
}
