import './markdown.css';
import { ImageIcon } from 'lucide-react';
import {
  type ComponentProps,
  createContext,
  isValidElement,
  memo,
  type ReactElement,
  type ReactNode,
  startTransition,
  useContext,
  useEffect,
  useMemo,
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
  remarkCitations,
  remarkHtmlAsText,
  remarkUnsupported,
  UNSUPPORTED_HREF,
} from './markdown-plugins';
import { blockSources, listParts, type MarkdownBlocks, offsetsByBlock, splitBlocks } from './markdown-blocks';
import { UnsupportedMarker } from './unsupported-marker';

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
const ReplyContext = createContext<{ onCite?: (n: number) => void; method?: SupportMethod }>({});

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

let highlighting: NonNullable<Options['rehypePlugins']> | undefined;
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
function loadHighlightingWhenIdle() {
  if (idleLoadAsked) return;
  idleLoadAsked = true;
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => void loadHighlighting());
  else setTimeout(() => void loadHighlighting(), 200);
}

/** Whether a block of code can be highlighted now; when it cannot yet, the highlighter is loaded and it is redrawn. */
function useHighlighting(wanted: boolean) {
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

const nothing: [] = [];
const FENCE = /```|~~~/;

/** What one block is drawn from: the numbers in strings, so equal blocks compare equal. */
interface BlockProps {
  source: string;
  /** The reply's source numbers, "1,2,3". */
  citations: string;
  /** Where unsupported sentences end in `source`, "12,40". */
  ends: string;
  /** Still being written: parsed again as it grows, and its code not highlighted until it closes. */
  open: boolean;
}

const sameBlock = (a: BlockProps, b: BlockProps) =>
  a.source === b.source && a.citations === b.citations && a.ends === b.ends && a.open === b.open;

/** A block whose code is highlighted: finished, with a fence anywhere (nested in a list item too). */
const hasCode = ({ source, open }: BlockProps) => !open && FENCE.test(source);

const numbers = (list: string) => (list ? list.split(',').map(Number) : []);

/** One block of markdown as React elements. */
const renderBlock = ({ source, citations, ends }: BlockProps, highlighted: boolean): ReactElement =>
  renderMarkdown({
    children: source,
    remarkPlugins: [
      remarkGfm,
      remarkHtmlAsText,
      [remarkUnsupported, { ends: numbers(ends), source }],
      [remarkCitations, { sources: new Set(numbers(citations)) }],
    ],
    rehypePlugins: highlighted ? highlighting : nothing,
    components,
    urlTransform: defaultUrlTransform,
  });

/**
 * Finished blocks' rendered markdown by what they are drawn from: a reply that scrolls back into view in the
 * virtualised list, or whose stream has just ended, is drawn again without parsing. Bounded, the least recently
 * shown dropped first.
 */
const renderedBlocks = recentlyUsed<string, ReactElement>(4000);

/**
 * A growing block is parsed again at most once in OPEN_PARSE_SHARE times what its last parse took: each parse of a
 * long code block or table costs more as it grows, and the frames of the stream, which a key waits behind, stay
 * short; the block catches up a moment later. A short block, parsed in well under a frame, is parsed at every frame
 * of the stream. (A long list is drawn in parts instead: ListInParts.)
 */
const OPEN_PARSE_SHARE = 4;

/** The open block's elements, from its last parse while the next may not run yet; undefined for a finished block. */
function useOpenBlock(props: BlockProps): ReactElement | undefined {
  const last = useRef<{ element: ReactElement; props: BlockProps; at: number; cost: number }>(undefined);
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  const kept = last.current;
  const now = performance.now();
  const wait = kept ? kept.at + kept.cost * OPEN_PARSE_SHARE - now : 0;
  let element: ReactElement | undefined;
  if (props.open && kept && wait > 0) element = kept.element;
  else if (props.open) {
    element = renderBlock(props, false);
    last.current = { element, props, at: now, cost: performance.now() - now };
  }
  const behind = props.open && last.current !== undefined && !sameBlock(last.current.props, props);
  // The text that came meanwhile is drawn when the wait is over, whether or not more comes.
  useEffect(() => {
    if (!behind) return;
    const timer = setTimeout(redraw, wait);
    return () => clearTimeout(timer);
  });
  return element;
}

/** One block's elements: a finished one's kept by what they are drawn from, the open one's from useOpenBlock. */
function OneBlock(props: BlockProps) {
  const highlighted = useHighlighting(hasCode(props));
  const open = useOpenBlock(props);
  if (open) return open;
  const from = `${highlighted ? 'highlighted' : 'plain'}|${props.citations}|${props.ends}|${props.source}`;
  const kept = renderedBlocks.get(from);
  if (kept) return kept;
  const element = renderBlock(props, highlighted);
  renderedBlocks.set(from, element);
  return element;
}

/**
 * Items in each part of a long list while it grows (listParts): a list is one block, and parsing all of it again at
 * each frame grew with its items (400 points: a parse of over 50 ms near its end).
 */
const LIST_PART_ITEMS = 8;

/**
 * A growing list drawn as lists of LIST_PART_ITEMS items one under the other: the part still growing is parsed
 * again, the others are kept like finished blocks. Once the list is finished, it is drawn again as one list.
 */
function ListInParts({ parts, block }: { parts: MarkdownBlocks; block: BlockProps }) {
  const ends = offsetsByBlock(parts, numbers(block.ends));
  const sources = blockSources(parts);
  return (
    <div className="md-list-parts">
      {sources.map((source, i) => (
        <Block
          key={i}
          source={source}
          citations={block.citations}
          ends={ends[i]!.join(',')}
          open={i === sources.length - 1}
        />
      ))}
    </div>
  );
}

/** A block parsed once: while a reply streams, its finished blocks are kept as they are and only the last grows. */
const Block = memo(function Block(props: BlockProps) {
  const parts = props.open ? listParts(props.source, LIST_PART_ITEMS) : undefined;
  return parts ? <ListInParts parts={parts} block={props} /> : <OneBlock {...props} />;
});

/** Each block's props, from the reply's blocks, its citations and where its unsupported sentences end. */
function blockProps(blocks: MarkdownBlocks, citations: string, ends: readonly number[], streaming: boolean) {
  const sources = blockSources(blocks);
  const offsets = offsetsByBlock(blocks, ends);
  return sources.map((source, i): BlockProps => ({
    source,
    citations,
    ends: offsets[i]!.join(','),
    open: streaming && i === sources.length - 1,
  }));
}

/** Finished replies' blocks by message id, so a reply drawn again is not lexed again either. */
const replyBlocks = recentlyUsed<number, MarkdownBlocks>(300);

/** The blocks of a reply, from those it had a moment ago when it only grew (a stream, or one just ended). */
function blocksOf(source: string, cacheId: number | undefined, previous: MarkdownBlocks | undefined) {
  if (cacheId === undefined) return splitBlocks(source, previous);
  const kept = replyBlocks.get(cacheId);
  if (kept?.text === source) return kept;
  const blocks = splitBlocks(source, previous);
  replyBlocks.set(cacheId, blocks);
  return blocks;
}

export interface MarkdownProps {
  children: string;
  /** The numbers of the reply's sources: their [n] markers become links that call onCite. */
  citations?: readonly number[];
  onCite?: (n: number) => void;
  /** The reply's support check: a quiet mark after each sentence no source supports (decision 0044). */
  unsupported?: { ends: readonly number[]; method: SupportMethod };
  /** The reply is still being written: its last block is open, parsed again as it grows and not highlighted yet. */
  streaming?: boolean;
  /** A finished reply's message id: its blocks are kept under it (see blocksOf). */
  cacheId?: number;
}

const NO_ENDS: readonly number[] = [];

/**
 * A reply's finished blocks are drawn in groups of this many, each group positioned, so a paint layer of its own:
 * Chromium repaints a layer whose content changed, so while a reply streams, a block moving in repaints its group,
 * not every finished block in view (decision 0061).
 */
const GROUP_BLOCKS = 8;

/**
 * A group of finished blocks, drawn again only when one of its blocks changed: while a reply streams, React
 * visits the group still filling and the growing block, not every block of the reply.
 */
const BlockGroup = memo(
  function BlockGroup({ blocks, first }: { blocks: readonly BlockProps[]; first: number }) {
    return (
      <div className="md-group">
        {blocks.map((props, i) => (
          <Block key={first + i} {...props} />
        ))}
      </div>
    );
  },
  (before, after) =>
    before.first === after.first &&
    before.blocks.length === after.blocks.length &&
    before.blocks.every((block, i) => sameBlock(block, after.blocks[i]!)),
);

/**
 * A reply rendered as GitHub-flavoured markdown with highlighted code. Links keep to react-markdown's default
 * allowlist, which is exactly the spec's (§5): http, https, irc, ircs, mailto, xmpp and relative addresses.
 * The reply is rendered block by block (decision record 0046): while it streams, finished blocks keep their
 * elements and DOM, and only the growing last block is parsed again; when it ends only that block is drawn again;
 * a finished reply's blocks are kept by id and their rendered markdown by source.
 * Memoised: while one reply streams, the others in the conversation are not parsed again on every token.
 */
export default memo(function Markdown({
  children,
  citations,
  onCite,
  unsupported,
  streaming = false,
  cacheId,
}: MarkdownProps) {
  const key = citations?.join(',') ?? '';
  const ends = unsupported?.ends ?? NO_ENDS;
  const method = unsupported?.method;
  const reply = useMemo(() => ({ onCite, method }), [onCite, method]);
  useEffect(loadHighlightingWhenIdle, []);
  const blocks = useRef<MarkdownBlocks | undefined>(undefined);
  blocks.current = blocksOf(children, streaming ? undefined : cacheId, blocks.current);
  // The same Block at each index whether the reply streams or has ended: its finished blocks keep their DOM.
  const finished = blockProps(blocks.current, key, ends, streaming);
  // The blocks before the last in a box of their own, in groups (see GROUP_BLOCKS); kept once the reply has ended,
  // so no block's DOM is replaced then.
  const last = finished.pop();
  const groups = [];
  for (let first = 0; first < finished.length; first += GROUP_BLOCKS)
    groups.push(<BlockGroup key={first} first={first} blocks={finished.slice(first, first + GROUP_BLOCKS)} />);
  return (
    <ReplyContext value={reply}>
      <div className="md">
        {groups.length > 0 && <div className="md-finished">{groups}</div>}
        {last && <Block key={finished.length} {...last} />}
      </div>
    </ReplyContext>
  );
});
