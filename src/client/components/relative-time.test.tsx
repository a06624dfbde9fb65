import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RelativeTime } from './relative-time';

describe('RelativeTime', () => {
  it('says how long ago in words and gives the exact time as a tooltip once pointed at, not before', () => {
    const date = new Date(Date.now() - 3 * 60_000).toISOString();
    render(<RelativeTime date={date} />);

    const time = screen.getByText('3 minutes ago');
    expect(time.tagName).toBe('TIME');
    expect(time.getAttribute('datetime')).toBe(date);
    // Nothing asks for the locale's data while the page opens.
    expect(time.hasAttribute('title')).toBe(false);

    fireEvent.pointerEnter(time);
    expect(time.getAttribute('title')).toBe(new Date(date).toLocaleString());
  });
});
