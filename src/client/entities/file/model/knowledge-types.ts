/**
 * What a bot's knowledge accepts, as the server reads it (decision 0010). The server decides from the bytes;
 * this only keeps the picker to these types and answers at once for a file that could never be accepted.
 */
const KNOWLEDGE_EXTENSIONS = ['pdf', 'docx', 'txt', 'text', 'md', 'markdown', 'csv', 'html', 'htm', 'xhtml', 'json'];

const KNOWLEDGE_MEDIA_TYPES = [
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'text/plain',
  'text/markdown',
  'text/csv',
  'text/html',
  'application/json',
];

/** The `accept` attribute of the file picker. */
export const KNOWLEDGE_ACCEPT = [...KNOWLEDGE_EXTENSIONS.map((ext) => `.${ext}`), ...KNOWLEDGE_MEDIA_TYPES].join(',');

export const KNOWLEDGE_TYPES_LABEL = 'PDF, DOCX, TXT, Markdown, CSV, HTML or JSON';

export const UNSUPPORTED_KNOWLEDGE_TYPE = `This type of file is not supported. Add ${KNOWLEDGE_TYPES_LABEL} files.`;

const extensionOf = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
};

export const isKnowledgeType = (name: string) => KNOWLEDGE_EXTENSIONS.includes(extensionOf(name));

export type FileKind = 'pdf' | 'document' | 'sheet' | 'code' | 'text';

/** Which icon a file gets, from its name (files not yet uploaded have no media type from the server). */
export function fileKindOf(name: string): FileKind {
  const ext = extensionOf(name);
  if (ext === 'pdf') return 'pdf';
  if (ext === 'docx') return 'document';
  if (ext === 'csv') return 'sheet';
  if (['json', 'html', 'htm', 'xhtml'].includes(ext)) return 'code';
  return 'text';
}

/** "12 passages", "1 passage": what a ready file's chunk count means to its owner. */
export const passagesLabel = (count: number) => `${count} ${count === 1 ? 'passage' : 'passages'}`;
