import 'highlight.js/styles/github-dark.css';
import './markdown.css';
import { ImageIcon } from 'lucide-react';
import { type ComponentProps, isValidElement, memo, type ReactNode, useMemo, useRef } from 'react';
import ReactMarkdown, { type Components, defaultUrlTransform, type Options } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import type { SupportMethod } from '@shared/contracts/chat';
import { CopyButton } from './copy-button';
import { UnsupportedMarker } from './unsupported-marker';

interface MarkdownNode {
  type: string;
  value?: string;
  url?: string;
  children?: MarkdownNode[];
  position?: { start: { offset?: number }; end: { offset?: number } };
}

/** How a [n] marker's link names its source: a fragment the URL allowlist lets through unchanged. */
const CITATION_PREFIX = '#source-';
const CITATION = /\[(\d{1,3})\]/g;

/**
 * `[n]` in the text, for a source the reply has, becomes a link to that source. Only plain text is touched:
 * markers in code stay as written, and a marker inside a link is left as its text.
 */
function remarkCitations(options: { sources: ReadonlySet<number> }) {
  const split = (text: string): MarkdownNode[] => {
    const nodes: MarkdownNode[] = [];
    let from = 0;
    for (const match of text.matchAll(CITATION)) {
      if (!options.sources.has(Number(match[1]))) continue;
      if (match.index > from) nodes.push({ type: 'text', value: text.slice(from, match.index) });
      nodes.push({ type: 'link', url: `${CITATION_PREFIX}${match[1]}`, children: [{ type: 'text', value: match[0] }] });
      from = match.index + match[0].length;
    }
    if (from < text.length) nodes.push({ type: 'text', value: text.slice(from) });
    return nodes;
  };
  const visit = (node: MarkdownNode) => {
    if (!node.children || node.type === 'link' || node.type === 'linkReference') return;
    node.children = node.children.flatMap((child) =>
      child.type === 'text' && child.value ? split(child.value) : (visit(child), [child]),
    );
  };
  return options.sources.size ? visit : () => {};
}

/** The link a mark after an unsupported sentence is parsed as, then drawn as UnsupportedMarker. */
const UNSUPPORTED_HREF = '#unsupported';
const unsupportedMark = (): MarkdownNode => ({
  type: 'link',
  url: UNSUPPORTED_HREF,
  children: [{ type: 'text', value: '?' }],
});

/**
 * A mark at the end of each sentence no source supports, `ends` being their offsets in the text (the support
 * check's). Placed in the plain text that ends there; a sentence ending in markup (`**…**`) gets it after its last
 * text. Runs before remarkCitations, while the text nodes still know where they came from.
 */
function remarkUnsupported(options: { ends: readonly number[]; source: string }) {
  const pending = new Set(options.ends);
  const split = (node: MarkdownNode): MarkdownNode[] => {
    const from = node.position?.start.offset;
    const to = node.position?.end.offset;
    const value = node.value ?? '';
    if (from === undefined || to === undefined) return [node];
    // Escapes and entities make the text differ from its source: marks then go after the whole text.
    const exact = options.source.slice(from, to) === value;
    const here = [...pending].filter((end) => end > from && end <= to + 2).sort((a, b) => a - b);
    if (!here.length) return [node];
    const nodes: MarkdownNode[] = [];
    let at = 0;
    for (const end of here) {
      pending.delete(end);
      const cut = exact ? Math.min(end - from, value.length) : value.length;
      if (cut > at) nodes.push({ type: 'text', value: value.slice(at, cut) });
      nodes.push(unsupportedMark());
      at = Math.max(at, cut);
    }
    if (at < value.length) nodes.push({ type: 'text', value: value.slice(at) });
    return nodes;
  };
  const visit = (node: MarkdownNode) => {
    if (!node.children || node.type === 'link' || node.type === 'code') return;
    node.children = node.children.flatMap((child) =>
      child.type === 'text' && child.value ? split(child) : (visit(child), [child]),
    );
  };
  return options.ends.length ? visit : () => {};
}

/**
 * HTML written by the model is shown as the text it is. Without this, react-markdown drops it silently; with
 * rehype-raw it would become live elements (`<img onerror>`). Neither is honest or safe.
 */
function remarkHtmlAsText() {
  const visit = (node: MarkdownNode) => {
    if (node.type === 'html') node.type = 'text';
    node.children?.forEach(visit);
  };
  return visit;
}

function languageOf(code: ReactNode): string | undefined {
  if (!isValidElement<{ className?: string }>(code)) return undefined;
  return /\blanguage-([\w+#-]+)/.exec(code.props.className ?? '')?.[1];
}

function CodeBlock({ children }: ComponentProps<'pre'>) {
  const ref = useRef<HTMLPreElement>(null);
  return (
    <div className="md-code">
      <div className="md-code-bar">
        <span>{languageOf(children) ?? 'code'}</span>
        <CopyButton label="Copy code" text={() => ref.current?.textContent ?? ''} className="md-code-copy" />
      </div>
      <pre ref={ref}>{children}</pre>
    </div>
  );
}

/** Addresses outside the allowlist arrive empty (see urlTransform); such a link is left as its words. */
function Link({
  href,
  children,
  onCite,
  method,
}: ComponentProps<'a'> & { onCite?: (n: number) => void; method?: SupportMethod }) {
  if (!href) return <span>{children}</span>;
  if (href === UNSUPPORTED_HREF && method) return <UnsupportedMarker method={method} />;
  if (href.startsWith(CITATION_PREFIX)) {
    const n = Number(href.slice(CITATION_PREFIX.length));
    return (
      <a
        href={href}
        className="md-cite"
        aria-label={`Source ${n}`}
        onClick={(event) => {
          event.preventDefault();
          onCite?.(n);
        }}
      >
        {children}
      </a>
    );
  }
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

/**
 * Images become links: loading them would let any address in a reply see the reader (and could carry the
 * conversation out in its query string), and the page's content policy refuses other origins anyway.
 */
function Image({ src, alt }: ComponentProps<'img'>) {
  const label = alt || 'Image';
  if (typeof src !== 'string' || !src) return <span>{label}</span>;
  return (
    <a href={src} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1">
      <ImageIcon className="size-4" aria-hidden="true" />
      {label}
    </a>
  );
}

const components: Components = {
  pre: ({ children }) => <CodeBlock>{children}</CodeBlock>,
  img: ({ src, alt }) => <Image src={src} alt={alt} />,
  table: ({ children }) => (
    <div className="md-table">
      <table>{children}</table>
    </div>
  ),
};

const rehypePlugins = [rehypeHighlight];

export interface MarkdownProps {
  children: string;
  /** The numbers of the reply's sources: their [n] markers become links that call onCite. */
  citations?: readonly number[];
  onCite?: (n: number) => void;
  /** The reply's support check: a quiet mark after each sentence no source supports (decision 0044). */
  unsupported?: { ends: readonly number[]; method: SupportMethod };
}

/**
 * A reply rendered as GitHub-flavoured markdown with highlighted code. Links keep to react-markdown's default
 * allowlist, which is exactly the spec's (§5): http, https, irc, ircs, mailto, xmpp and relative addresses.
 * Memoised: while one reply streams, the others in the conversation are not parsed again on every token.
 */
export default memo(function Markdown({ children, citations, onCite, unsupported }: MarkdownProps) {
  const key = citations?.join(',') ?? '';
  const ends = unsupported?.ends.join(',') ?? '';
  const method = unsupported?.method;
  // The text is only read to place the marks: without any, a streaming reply keeps its plugins.
  const source = ends ? children : '';
  const remarkPlugins = useMemo<Options['remarkPlugins']>(
    () => [
      remarkGfm,
      remarkHtmlAsText,
      [remarkUnsupported, { ends: ends ? ends.split(',').map(Number) : [], source }],
      [remarkCitations, { sources: new Set(key ? key.split(',').map(Number) : []) }],
    ],
    [key, ends, source],
  );

  const withCitations = useMemo<Components>(
    () => ({
      ...components,
      a: ({ href, children }) => (
        <Link href={href} onCite={onCite} method={method}>
          {children}
        </Link>
      ),
    }),
    [onCite, method],
  );
  return (
    <div className="md">
      <ReactMarkdown
        remarkPlugins={remarkPlugins}
        rehypePlugins={rehypePlugins}
        components={withCitations}
        urlTransform={defaultUrlTransform}
      >
        {children}
      </ReactMarkdown>
    </div>
  );
});
