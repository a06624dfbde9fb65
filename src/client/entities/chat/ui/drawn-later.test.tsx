import { render, screen, waitFor } from '@testing-library/react';
import { useLayoutEffect } from 'react';
import { describe, expect, it } from 'vitest';
import { DrawnLater } from './drawn-later';

/** What the DOM held at the first commit: the content, and the blank's height if there was one. */
function FirstCommit({ seen }: { seen: { content?: boolean; blank?: string } }) {
  useLayoutEffect(() => {
    seen.content = screen.queryByText('Row content') !== null;
    seen.blank = document.querySelector<HTMLElement>('div[style]')?.style.height;
  }, [seen]);
  return null;
}

describe('DrawnLater', () => {
  it('draws its content at once when not later', () => {
    const seen: { content?: boolean; blank?: string } = {};
    render(
      <>
        <DrawnLater later={false} heightPx={80}>
          <p>Row content</p>
        </DrawnLater>
        <FirstCommit seen={seen} />
      </>,
    );
    expect(seen).toEqual({ content: true, blank: undefined });
  });

  it('when later, commits a blank of the row’s height first and the content in a background render', async () => {
    const seen: { content?: boolean; blank?: string } = {};
    const { container } = render(
      <>
        <DrawnLater later heightPx={180}>
          <p>Row content</p>
        </DrawnLater>
        <FirstCommit seen={seen} />
      </>,
    );
    expect(seen).toEqual({ content: false, blank: '180px' });
    await waitFor(() => expect(screen.getByText('Row content')).toBeTruthy());
    expect(container.querySelector('div[style]')).toBeNull();
  });
});
