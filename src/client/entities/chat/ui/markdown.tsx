import './markdown.css';
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import type { SupportMethod } from '@shared/contracts/chat';
import { recentlyUsed } from '@shared/recently-used';
import {
  type BlockProps,
  blockProps,
  loadHighlightingWhenIdle,
  OneBlock,
  ReplyContext,
  sameBlock,
} from './markdown-block';
import { listParts, type MarkdownBlocks, splitBlocks } from './markdown-blocks';
import { LIST_PART_ITEMS, ListInParts } from './markdown-list';

/**
 * A block parsed once: while a reply streams, its finished blocks are kept as they are and only the last grows. A
 * long list is parsed a few items at a time (ListInParts).
 */
const Block = memo(function Block(props: BlockProps) {
  const parts = listParts(props.source, LIST_PART_ITEMS);
  return parts ? <ListInParts parts={parts} block={props} /> : <OneBlock {...props} />;
});

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
  // A reply drawn as it streamed has had every group of blocks on screen, so each group's size is known when it is
  // out of view: only such a reply's groups skip their layout and paint there (markdown.css, decision 0064). A
  // reply opened from history keeps exact sizes for the list it is in to place it.
  const [streamed] = useState(streaming);
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
      <div className={streamed ? 'md md-streamed' : 'md'}>
        {groups.length > 0 && <div className="md-finished">{groups}</div>}
        {last && <Block key={finished.length} {...last} />}
      </div>
    </ReplyContext>
  );
});
