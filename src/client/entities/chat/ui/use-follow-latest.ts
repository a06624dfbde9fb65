import { useCallback, useEffect, useRef, useState } from 'react';

/** How close to the bottom still counts as reading the latest message. */
const BOTTOM_SLACK_PX = 32;
/**
 * A scroll this soon after the reader's own wheel, touch or key is theirs. Everything else moving the list
 * (the virtualiser correcting a row's estimated height, a citation scrolled into view) must not let go of it.
 */
const INTENT_MS = 400;
const UP_KEYS = new Set(['ArrowUp', 'PageUp', 'Home']);
const SCROLL_KEYS = new Set([...UP_KEYS, 'ArrowDown', 'PageDown', 'End', ' ']);

const distanceFromBottom = (el: HTMLElement) => el.scrollHeight - el.scrollTop - el.clientHeight;

/**
 * Keeps a scrolling list pinned to its newest content while it grows (streamed text, late-loading markdown,
 * rows measured once drawn), until the reader scrolls up; scrolling back to the bottom, or jumpToLatest
 * (which sending calls), pins it again.
 */
export function useFollowLatest() {
  const scrollRef = useRef<HTMLDivElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  const lastTop = useRef(0);
  const intentAt = useRef(Number.NEGATIVE_INFINITY);
  const dragging = useRef(false);
  const [showJump, setShowJump] = useState(false);

  // The pill only shows away from the bottom, so it never sits over the last reply's actions.
  const updateJump = useCallback((scroller: HTMLElement) => {
    setShowJump(!following.current && distanceFromBottom(scroller) > BOTTOM_SLACK_PX);
  }, []);

  useEffect(() => {
    const scroller = scrollRef.current;
    const content = contentRef.current;
    if (!scroller || !content) return;
    const observer = new ResizeObserver(() => {
      if (following.current) scroller.scrollTop = scroller.scrollHeight;
      updateJump(scroller);
    });
    observer.observe(content);
    observer.observe(scroller);
    const intent = () => (intentAt.current = performance.now());
    // Moving up lets go at once: the list growing meanwhile would otherwise pull the view back down before
    // the reader's scrolling began, cancelling it.
    const upwards = () => {
      intent();
      if (scroller.scrollTop > 0) following.current = false;
    };
    const onWheel = (event: WheelEvent) => (event.deltaY < 0 ? upwards() : intent());
    // A finger moving down the screen scrolls the list up.
    let touchY = 0;
    const onTouchStart = (event: TouchEvent) => (touchY = event.touches[0]?.clientY ?? 0);
    const onTouchMove = (event: TouchEvent) => ((event.touches[0]?.clientY ?? 0) > touchY ? upwards() : intent());
    // From the list or a button in it; keys typed into a message being edited move no list.
    const onKey = (event: KeyboardEvent) => {
      const typing = event.target instanceof Element && event.target.closest('textarea, input') !== null;
      if (typing || !SCROLL_KEYS.has(event.key)) return;
      if (UP_KEYS.has(event.key)) upwards();
      else intent();
    };
    // Only a press on the scroll bar itself: a click on a citation inside the list is not scrolling.
    const onPointerDown = (event: PointerEvent) => {
      if (event.target === scroller) dragging.current = true;
    };
    const onPointerUp = () => {
      if (dragging.current) intent();
      dragging.current = false;
    };
    scroller.addEventListener('wheel', onWheel, { passive: true });
    scroller.addEventListener('touchstart', onTouchStart, { passive: true });
    scroller.addEventListener('touchmove', onTouchMove, { passive: true });
    scroller.addEventListener('keydown', onKey);
    scroller.addEventListener('pointerdown', onPointerDown);
    window.addEventListener('pointerup', onPointerUp);
    return () => {
      observer.disconnect();
      scroller.removeEventListener('wheel', onWheel);
      scroller.removeEventListener('touchstart', onTouchStart);
      scroller.removeEventListener('touchmove', onTouchMove);
      scroller.removeEventListener('keydown', onKey);
      scroller.removeEventListener('pointerdown', onPointerDown);
      window.removeEventListener('pointerup', onPointerUp);
    };
  }, [updateJump]);

  const onScroll = useCallback(() => {
    const scroller = scrollRef.current;
    if (!scroller) return;
    const byReader = dragging.current || performance.now() - intentAt.current < INTENT_MS;
    // Something else took a followed list off its bottom (the browser keeping a node in place, or the virtualiser
    // correcting for a row that changed size, after the list last grew): it goes back.
    if (following.current && !byReader && distanceFromBottom(scroller) > 1) {
      scroller.scrollTop = scroller.scrollHeight;
    }
    const readerMovesUp = byReader && scroller.scrollTop < lastTop.current;
    // A wheel turn's first animated step can still end within the slack: it is leaving the bottom, not reaching it.
    if (distanceFromBottom(scroller) <= BOTTOM_SLACK_PX) following.current = !readerMovesUp;
    else if (readerMovesUp) following.current = false;
    lastTop.current = scroller.scrollTop;
    updateJump(scroller);
  }, [updateJump]);

  /** The reader is about to move the list themselves (following a citation), as if they had scrolled. */
  const readerScrolls = useCallback(() => {
    intentAt.current = performance.now();
  }, []);

  /** The list is taken to a message away from the newest (a search hit): it stays there as the list grows. */
  const letGo = useCallback(() => {
    following.current = false;
  }, []);

  const jumpToLatest = useCallback(() => {
    const scroller = scrollRef.current;
    following.current = true;
    // The reader's last wheel turn is over: the scroll below, and what it sets off, is ours.
    intentAt.current = Number.NEGATIVE_INFINITY;
    setShowJump(false);
    if (scroller) scroller.scrollTop = scroller.scrollHeight;
  }, []);

  return { scrollRef, contentRef, onScroll, showJump, jumpToLatest, readerScrolls, letGo };
}
