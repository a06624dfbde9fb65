import { ImageIcon } from 'lucide-react';
import {
  type ComponentProps,
  createContext,
  isValidElement,
  type ReactElement,
  type ReactNode,
  startTransition,
  useContext,
  useEffect,
  useReducer,
  useRef,
  useState,
} from 'react';
import renderMarkdown, { type Components, defaultUrlTransform, type Options } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import type { SupportMethod } from '@shared/contracts/chat';
import { recentlyUsed } from '@shared/recently-used';
import { CopyButton } from './copy-button';
import {
  CITATION_PREFIX,
  type ListPartFacts,
  rehypeListItems,
  remarkCitations,
  remarkHtmlAsText,
  remarkListPart,
  remarkUnsupported,
  UNSUPPORTED_HREF,
} from './markdown-plugins';
import { blockSources, type MarkdownBlocks, offsetsByBlock } from './markdown-blocks';
import { UnsupportedMarker } from './unsupported-marker';

/** One block of a reply's markdown drawn: the elements it is drawn with, its parse, and the code highlighter. */

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
      {/* Focusable, as tables are: a line wider than the bubble (on a phone, most) scrolls sideways by keyboard too. */}
      <pre ref={ref} tabIndex={0}>
        {children}
      </pre>
    </div>
  );
}

/**
 * What a citation link calls and how the reply's support was checked. Read from context when drawn, so the rendered
 * markdown holds no closure and can be kept (and reused) beyond the render that made it.
 */
export const ReplyContext = createContext<{ onCite?: (n: number) => void; method?: SupportMethod }>({});

/** Addresses outside the allowlist arrive empty (see urlTransform); such a link is left as its words. */
function Link({ href, children }: ComponentProps<'a'>) {
  const { onCite, method } = useContext(ReplyContext);
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
  a: ({ href, children }) => <Link href={href}>{children}</Link>,
  table: ({ children }) => (
    <div className="md-table" tabIndex={0}>
      <table>{children}</table>
    </div>
  ),
};

type Plugins = NonNullable<Options['rehypePlugins']>;

let highlighting: Plugins | undefined;
let loadingHighlighting: Promise<void> | undefined;
/**
 * The code highlighter (highlight.js with its languages and theme, about half of the markdown code) loads apart:
 * a conversation shows with its code plain and colours it a moment later, instead of waiting for it (decision
 * 0056). A failed load is tried again by the next block with code.
 */
const loadHighlighting = () =>
  (loadingHighlighting ??= import('./code-highlighting').then(
    ({ highlightCode }) => {
      highlighting = [highlightCode];
    },
    () => {
      loadingHighlighting = undefined;
    },
  ));

/**
 * The highlighter loaded in the page's first idle moment after a reply is drawn, so that a reply streaming its
 * first code later does not stop to evaluate it (a task of 20–50 ms) between two frames.
 */
let idleLoadAsked = false;
export function loadHighlightingWhenIdle() {
  if (idleLoadAsked) return;
  idleLoadAsked = true;
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => void loadHighlighting());
  else setTimeout(() => void loadHighlighting(), 200);
}

/** Whether a block of code can be highlighted now; when it cannot yet, the highlighter is loaded and it is redrawn. */
export function useHighlighting(wanted: boolean) {
  // Read as the block is drawn, so a block that closes after the highlighter came is highlighted at once; the
  // state only redraws the blocks that were waiting for it.
  const loaded = highlighting !== undefined;
  const [, setLoaded] = useState(loaded);
  useEffect(() => {
    if (!wanted || loaded) return;
    let mounted = true;
    void loadHighlighting().then(() => {
      // A transition: blocks highlighted on arrival yield to typing and scrolling between them.
      if (mounted && highlighting) startTransition(() => setLoaded(true));
    });
    return () => {
      mounted = false;
    };
  }, [wanted, loaded]);
  return wanted && loaded;
}

const FENCE = /```|~~~/;

/** What one block is drawn from: the numbers in strings, so equal blocks compare equal. */
export interface BlockProps {
  source: string;
  /** The reply's source numbers, "1,2,3". */
  citations: string;
  /** Where unsupported sentences end in `source`, "12,40". */
  ends: string;
  /** Still being written: parsed again as it grows, and its code not highlighted until it closes. */
  open: boolean;
}

export const sameBlock = (a: BlockProps, b: BlockProps) =>
  a.source === b.source && a.citations === b.citations && a.ends === b.ends && a.open === b.open;

/** A block whose code is highlighted: finished, with a fence anywhere (nested in a list item too). */
export const hasCode = ({ source, open }: BlockProps) => !open && FENCE.test(source);

export const numbers = (list: string) => (list ? list.split(',').map(Number) : []);

/**
 * Each block's props, from the blocks of a reply (or the parts of a long list), its citations and where its
 * unsupported sentences end; the last block is open while `streaming`.
 */
export function blockProps(blocks: MarkdownBlocks, citations: string, ends: readonly number[], streaming: boolean) {
  const sources = blockSources(blocks);
  const offsets = offsetsByBlock(blocks, ends);
  return sources.map((source, i): BlockProps => ({
    source,
    citations,
    ends: offsets[i]!.join(','),
    open: streaming && i === sources.length - 1,
  }));
}

/**
 * A part of a long list parsed alone (markdown-list.tsx): `next` is a stub of the next part's first item, written
 * after the part so that its last item ends as it does in the whole list; `loose` draws it loose whatever its own
 * items are, when the whole list is.
 */
export interface ListPart {
  next: string;
  loose: boolean;
}

/** A block drawn: its elements and, for a part of a long list, what its parse found out about the list. */
export interface Drawn {
  element: ReactElement;
  list?: ListPartFacts;
}

/** One block of markdown as React elements; a part of a list as its items alone (remarkListPart). */
function renderBlock({ source, citations, ends }: BlockProps, highlighted: boolean, part?: ListPart): Drawn {
  const text = part ? source + part.next : source;
  const facts: Partial<ListPartFacts> = {};
  const remarkPlugins: Plugins = [remarkGfm];
  if (part) remarkPlugins.push([remarkListPart, { facts, dropLast: part.next !== '', loose: part.loose }]);
  remarkPlugins.push(
    remarkHtmlAsText,
    [remarkUnsupported, { ends: numbers(ends), source: text }],
    [remarkCitations, { sources: new Set(numbers(citations)) }],
  );
  const element = renderMarkdown({
    children: text,
    remarkPlugins,
    rehypePlugins: [...(highlighted && highlighting ? highlighting : []), ...(part ? [rehypeListItems] : [])],
    components,
    urlTransform: defaultUrlTransform,
  });
  return part ? { element, list: facts as ListPartFacts } : { element };
}

/**
 * Finished blocks drawn, by what they are drawn from: a reply that scrolls back into view in the virtualised list,
 * or whose stream has just ended, is drawn again without parsing. Bounded, the least recently shown dropped first.
 */
const drawnBlocks = recentlyUsed<string, Drawn>(4000);

/** A finished block drawn, kept by what it is drawn from (the source last: only it may hold any character). */
export function drawFinished(props: BlockProps, highlighted: boolean, part?: ListPart): Drawn {
  const from = [
    highlighted ? 'highlighted' : 'plain',
    props.citations,
    props.ends,
    part ? `${part.loose ? 'loose' : 'as-parsed'}:${part.next.length}:${part.next}` : '',
    props.source,
  ].join('|');
  const kept = drawnBlocks.get(from);
  if (kept) return kept;
  const drawn = renderBlock(props, highlighted, part);
  drawnBlocks.set(from, drawn);
  return drawn;
}

/**
 * A growing block is parsed again at most once in OPEN_PARSE_SHARE times what its last parse took: each parse of a
 * long code block or table costs more as it grows, and the frames of the stream, which a key waits behind, stay
 * short; the block catches up a moment later. A short block, parsed in well under a frame, is parsed at every frame
 * of the stream. (A long list's parts are parsed alone: markdown-list.tsx.)
 */
const OPEN_PARSE_SHARE = 4;

/**
 * Whether a kept parse may stand for the open block a moment longer: the same block, grown since (a long list's last
 * part is drawn by the same hook when a new part follows it), parsed as the same kind of part.
 */
const grownFrom = (kept: { props: BlockProps; part?: ListPart }, props: BlockProps, part?: ListPart) =>
  props.source.startsWith(kept.props.source) && kept.part?.next === part?.next && kept.part?.loose === part?.loose;

/** The open block drawn, from its last parse while the next may not run yet; undefined for a finished block. */
export function useOpenBlock(props: BlockProps, part?: ListPart): Drawn | undefined {
  const last = useRef<{ drawn: Drawn; props: BlockProps; part?: ListPart; at: number; cost: number }>(undefined);
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  const kept = last.current;
  const now = performance.now();
  const wait = kept ? kept.at + kept.cost * OPEN_PARSE_SHARE - now : 0;
  let drawn: Drawn | undefined;
  if (props.open && kept && wait > 0 && grownFrom(kept, props, part)) drawn = kept.drawn;
  else if (props.open) {
    drawn = renderBlock(props, false, part);
    last.current = { drawn, props, part, at: now, cost: performance.now() - now };
  }
  const behind = props.open && last.current !== undefined && !sameBlock(last.current.props, props);
  // The text that came meanwhile is drawn when the wait is over, whether or not more comes.
  useEffect(() => {
    if (!behind) return;
    const timer = setTimeout(redraw, wait);
    return () => clearTimeout(timer);
  });
  return drawn;
}

/** One block's elements: a finished one's kept by what they are drawn from, the open one's from useOpenBlock. */
export function OneBlock(props: BlockProps) {
  const highlighted = useHighlighting(hasCode(props));
  const open = useOpenBlock(props);
  return (open ?? drawFinished(props, highlighted)).element;
}
