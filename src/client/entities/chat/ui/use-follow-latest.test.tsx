import { fireEvent, render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useFollowLatest } from './use-follow-latest';

/** jsdom lays nothing out: the list's heights are given, and its scroll offset kept within them as a browser does. */
function laidOut(el: HTMLElement, heights: { scroll: number; client: number }) {
  let top = 0;
  Object.defineProperties(el, {
    scrollHeight: { get: () => heights.scroll },
    clientHeight: { get: () => heights.client },
    scrollTop: {
      get: () => top,
      set: (value: number) => (top = Math.max(0, Math.min(value, heights.scroll - heights.client))),
    },
  });
  return el;
}

function List() {
  const follow = useFollowLatest();
  return (
    <div ref={follow.scrollRef} onScroll={follow.onScroll} data-testid="list">
      <div ref={follow.contentRef} />
    </div>
  );
}

describe('useFollowLatest', () => {
  it('puts a followed list back at its bottom when something other than the reader scrolls it up', () => {
    const view = render(<List />);
    const list = laidOut(view.getByTestId('list'), { scroll: 2000, client: 500 });
    list.scrollTop = 1500;
    fireEvent.scroll(list);
    // The browser or the virtualiser moves it 69 px up (a row grew below the point it keeps in place).
    list.scrollTop = 1431;
    fireEvent.scroll(list);
    expect(list.scrollTop).toBe(1500);
  });

  it('leaves a list the reader scrolled up where they took it', () => {
    const view = render(<List />);
    const list = laidOut(view.getByTestId('list'), { scroll: 2000, client: 500 });
    list.scrollTop = 1500;
    fireEvent.scroll(list);
    fireEvent.wheel(list, { deltaY: -300 });
    list.scrollTop = 1200;
    fireEvent.scroll(list);
    list.scrollTop = 1100;
    fireEvent.scroll(list);
    expect(list.scrollTop).toBe(1100);
  });
});
