import 'highlight.js/styles/github-dark.css';
import './markdown.css';
import { ImageIcon } from 'lucide-react';
import { type ComponentProps, isValidElement, memo, type ReactNode, useMemo, useRef } from 'react';
import ReactMarkdown, { type Components, defaultUrlTransform, type Options } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import { CopyButton } from './copy-button';

interface MarkdownNode {
  type: string;
  value?: string;
  url?: string;
  children?: MarkdownNode[];
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
function Link({ href, children, onCite }: ComponentProps<'a'> & { onCite?: (n: number) => void }) {
  if (!href) return <span>{children}</span>;
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
}

/**
 * A reply rendered as GitHub-flavoured markdown with highlighted code. Links keep to react-markdown's default
 * allowlist, which is exactly the spec's (§5): http, https, irc, ircs, mailto, xmpp and relative addresses.
 * Memoised: while one reply streams, the others in the conversation are not parsed again on every token.
 */
export default memo(function Markdown({ children, citations, onCite }: MarkdownProps) {
  const key = citations?.join(',') ?? '';
  const remarkPlugins = useMemo<Options['remarkPlugins']>(
    () => [remarkGfm, remarkHtmlAsText, [remarkCitations, { sources: new Set(key ? key.split(',').map(Number) : []) }]],
    [key],
  );

  const withCitations = useMemo<Components>(
    () => ({
      ...components,
      a: ({ href, children }) => (
        <Link href={href} onCite={onCite}>
          {children}
        </Link>
      ),
    }),
    [onCite],
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
