import 'highlight.js/styles/github-dark.css';
import './markdown.css';
import { ImageIcon } from 'lucide-react';
import {
  type ComponentProps,
  createContext,
  Fragment,
  isValidElement,
  memo,
  type ReactElement,
  type ReactNode,
  useContext,
  useMemo,
  useRef,
} from 'react';
import renderMarkdown, { type Components, defaultUrlTransform, type Options } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import { CopyButton } from './copy-button';
import { blockSources, type MarkdownBlocks, splitBlocks } from './markdown-blocks';

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

/**
 * What a citation link calls. Read at click time from context, so the rendered markdown holds no closure and can
 * be kept (and reused) beyond the render that made it.
 */
const CiteContext = createContext<((n: number) => void) | undefined>(undefined);

/** Addresses outside the allowlist arrive empty (see urlTransform); such a link is left as its words. */
function Link({ href, children }: ComponentProps<'a'>) {
  const onCite = useContext(CiteContext);
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
  a: ({ href, children }) => <Link href={href}>{children}</Link>,
  table: ({ children }) => (
    <div className="md-table">
      <table>{children}</table>
    </div>
  ),
};

/** The remark plugins for a reply whose sources are `citations` ("1,2,3"): one list per set of sources. */
const remarkPluginsOf = (() => {
  const made = new Map<string, Options['remarkPlugins']>();
  return (citations: string): Options['remarkPlugins'] => {
    let plugins = made.get(citations);
    if (!plugins) {
      const sources = new Set(citations ? citations.split(',').map(Number) : []);
      plugins = [remarkGfm, remarkHtmlAsText, [remarkCitations, { sources }]];
      made.set(citations, plugins);
    }
    return plugins;
  };
})();

const highlighting = [rehypeHighlight];

/** One block of markdown as React elements. An open block (still being written) is not highlighted yet. */
const renderBlock = (source: string, citations: string, open: boolean): ReactElement =>
  renderMarkdown({
    children: source,
    remarkPlugins: remarkPluginsOf(citations),
    rehypePlugins: open ? [] : highlighting,
    components,
    urlTransform: defaultUrlTransform,
  });

/** A block parsed once: while a reply streams, its finished blocks are kept as they are and only the last grows. */
const Block = memo(function Block({ source, citations, open }: { source: string; citations: string; open: boolean }) {
  return useMemo(() => renderBlock(source, citations, open), [source, citations, open]);
});

/**
 * Finished replies' rendered markdown by message id, the most recently shown last: a row that scrolls back into
 * view in the virtualised list is drawn again without parsing. Bounded, the least recently shown dropped first.
 */
const CACHE_SIZE = 300;
const rendered = new Map<number, { source: string; citations: string; elements: ReactElement[] }>();

function renderedReply(id: number, source: string, citations: string): ReactElement[] {
  const hit = rendered.get(id);
  rendered.delete(id);
  const entry =
    hit && hit.source === source && hit.citations === citations
      ? hit
      : {
          source,
          citations,
          elements: blockSources(splitBlocks(source)).map((block) => renderBlock(block, citations, false)),
        };
  rendered.set(id, entry);
  if (rendered.size > CACHE_SIZE) rendered.delete(rendered.keys().next().value!);
  return entry.elements;
}

export interface MarkdownProps {
  children: string;
  /** The numbers of the reply's sources: their [n] markers become links that call onCite. */
  citations?: readonly number[];
  onCite?: (n: number) => void;
  /** The reply is still being written: its last block is open, re-parsed as it grows and not highlighted yet. */
  streaming?: boolean;
  /** A finished reply's message id: its rendered markdown is kept under it (see renderedReply). */
  cacheId?: number;
}

/**
 * A reply rendered as GitHub-flavoured markdown with highlighted code. Links keep to react-markdown's default
 * allowlist, which is exactly the spec's (§5): http, https, irc, ircs, mailto, xmpp and relative addresses.
 * The reply is rendered block by block (decision record 0041): while it streams, finished blocks keep their
 * elements and DOM, and only the growing last block is parsed again; a finished reply's blocks are kept by id.
 * Memoised: while one reply streams, the others in the conversation are not parsed again on every token.
 */
export default memo(function Markdown({ children, citations, onCite, streaming = false, cacheId }: MarkdownProps) {
  const key = citations?.join(',') ?? '';
  const blocks = useRef<MarkdownBlocks | undefined>(undefined);
  const cached = !streaming && cacheId !== undefined;
  let content: ReactNode;
  if (cached)
    content = renderedReply(cacheId, children, key).map((element, i) => <Fragment key={i}>{element}</Fragment>);
  else {
    blocks.current = splitBlocks(children, blocks.current);
    const sources = blockSources(blocks.current);
    content = sources.map((source, i) => (
      <Block key={i} source={source} citations={key} open={streaming && i === sources.length - 1} />
    ));
  }
  return (
    <CiteContext value={onCite}>
      <div className="md">{content}</div>
    </CiteContext>
  );
});
