import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DailyLineChart } from './daily-line-chart';

describe('DailyLineChart', () => {
  it('captions the figure after its lines and gives screen readers the numbers as a table', () => {
    render(
      <DailyLineChart
        days={['2026-11-25', '2026-11-26']}
        series={[
          { label: 'Tokens', color: '#000', scale: 'tokens', values: [12000, 0] },
          { label: 'Replies', color: '#111', scale: 'replies', values: [3, 1] },
        ]}
        axes={[{ scale: 'tokens' }, { scale: 'replies', side: 1 }]}
        tableCaption="Usage per day"
        testId="usage-chart"
      />,
    );

    expect(screen.getByText('Tokens and replies per day').tagName).toBe('FIGCAPTION');
    const table = screen.getByRole('table', { name: 'Usage per day' });
    const rows = within(table)
      .getAllByRole('row')
      .map((row) => Array.from((row as HTMLTableRowElement).cells, (cell) => cell.textContent));
    expect(rows).toEqual([
      ['Day', 'Tokens', 'Replies'],
      ['2026-11-25', (12000).toLocaleString(), '3'],
      ['2026-11-26', '0', '1'],
    ]);
    expect(within(table).getByRole('columnheader', { name: 'Tokens' }).className).toContain('text-right');
  });

  it('captions three lines with commas', () => {
    const series = ['Conversations', 'Messages', 'Replies'].map((label) => ({ label, color: '#000', values: [1] }));
    render(
      <DailyLineChart days={['2026-11-26']} series={series} axes={[{}]} tableCaption="Activity per day" testId="c" />,
    );
    expect(screen.getByText('Conversations, messages and replies per day').tagName).toBe('FIGCAPTION');
  });
});
