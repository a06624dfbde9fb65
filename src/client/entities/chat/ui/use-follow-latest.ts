import { useCallback, useEffect, useRef, useState } from 'react';

/** How close to the bottom still counts as reading the latest message. */
const BOTTOM_SLACK_PX = 32;

/**
 * Keeps a scrolling list pinned to its newest content while it grows (streamed text, late-loading markdown),
 * until the reader scrolls up; scrolling back to the bottom, or jumpToLatest, pins it again.
 */
export function useFollowLatest() {
  const scrollRef = useRef<HTMLDivElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  const lastTop = useRef(0);
  const [showJump, setShowJump] = useState(false);

  useEffect(() => {
    const scroller = scrollRef.current;
    const content = contentRef.current;
    if (!scroller || !content) return;
    const observer = new ResizeObserver(() => {
      if (following.current) scroller.scrollTop = scroller.scrollHeight;
    });
    observer.observe(content);
    return () => observer.disconnect();
  }, []);

  const onScroll = useCallback(() => {
    const scroller = scrollRef.current;
    if (!scroller) return;
    const atBottom = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight <= BOTTOM_SLACK_PX;
    // Only a move upwards lets go: our own scrolling only ever goes down, and its scroll event can arrive
    // after the content has grown again, when the view is briefly not at the bottom.
    if (atBottom) following.current = true;
    else if (scroller.scrollTop < lastTop.current) following.current = false;
    lastTop.current = scroller.scrollTop;
    setShowJump(!following.current);
  }, []);

  const jumpToLatest = useCallback(() => {
    const scroller = scrollRef.current;
    following.current = true;
    setShowJump(false);
    if (scroller) scroller.scrollTop = scroller.scrollHeight;
  }, []);

  return { scrollRef, contentRef, onScroll, showJump, jumpToLatest };
}
