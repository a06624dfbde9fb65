import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** A source a tool's result names: a resource with a title and, when it is a web address, its URL. */
export interface ToolSource {
  kind: 'tool';
  title: string;
  url?: string;
  snippet: string;
}

/** What the model reads of a call: the result as text, and the sources in it by number. */
export type ToolOutput = { result: string; sources?: { n: number; title: string; url?: string }[] } | { error: string };

/** The most of one result the model is given; the rest would crowd out the conversation. */
export const MAX_RESULT_CHARS = 20_000;
const SNIPPET_CHARS = 300;

/** Text cut to `max` characters on one line, with an ellipsis when cut (steps, snippets). */
export function cutLine(text: string, max = SNIPPET_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const webUrl = (uri: string) => (/^https?:\/\//i.test(uri) && URL.canParse(uri) ? uri : undefined);

type Content = CallToolResult['content'][number];

/**
 * A tool's result as the model reads it. Text parts are joined; a resource (a link, or an embedded one) becomes
 * a numbered source through `addSource` and is written `[n] title (uri)` so the model can cite it; images and
 * audio are named, not sent; the whole is cut to MAX_RESULT_CHARS with a note saying so.
 */
export function readToolResult(
  result: CallToolResult,
  addSource: (source: ToolSource) => number,
): { text: string; sources: { n: number; title: string; url?: string }[] } {
  const firstText = result.content.find((c) => c.type === 'text')?.text ?? '';
  const sources: { n: number; title: string; url?: string }[] = [];
  const cite = (uri: string, title: string | undefined, snippet: string) => {
    const url = webUrl(uri);
    const source: ToolSource = {
      kind: 'tool',
      title: title || uri,
      snippet: cutLine(snippet),
      ...(url ? { url } : {}),
    };
    const n = addSource(source);
    if (!sources.some((s) => s.n === n)) sources.push({ n, title: source.title, ...(url ? { url } : {}) });
    return `[${n}] ${source.title} (${uri})`;
  };
  const part = (item: Content): string => {
    switch (item.type) {
      case 'text':
        return item.text;
      case 'resource_link': {
        const line = cite(item.uri, item.title ?? item.name, item.description ?? firstText);
        return item.description ? `${line}: ${item.description}` : line;
      }
      case 'resource': {
        const r = item.resource;
        const title = (r as { title?: string }).title ?? (r as { name?: string }).name;
        if ('text' in r) return `${cite(r.uri, title, r.text)}\n${r.text}`;
        return `${cite(r.uri, title, firstText)}: ${r.mimeType ?? 'binary'} content, not shown`;
      }
      default:
        return `[${item.type}${'mimeType' in item ? ` ${item.mimeType}` : ''} not shown]`;
    }
  };
  const parts = result.content.map(part);
  if (!result.content.some((c) => c.type === 'text') && result.structuredContent) {
    parts.unshift(JSON.stringify(result.structuredContent));
  }
  const whole = parts.join('\n\n');
  const text =
    whole.length > MAX_RESULT_CHARS
      ? `${whole.slice(0, MAX_RESULT_CHARS)}\n[…the rest of the result is cut off: ${whole.length - MAX_RESULT_CHARS} more characters]`
      : whole;
  return { text, sources };
}
