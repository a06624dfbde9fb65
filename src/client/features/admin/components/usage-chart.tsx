import { useEffect, useRef, useState } from 'react';
import type uPlot from 'uplot';
import type { UsageReport } from '@shared/contracts/admin';
import { formatCount } from '../model/format';

const CHART_HEIGHT = 240;
const TOKENS_COLOR = '#7c3aed';
const REPLIES_COLOR = '#ea580c';

/**
 * Tokens (left axis) and replies (right axis) per day. uPlot loads with the chart only; the same numbers are in
 * a table for screen readers.
 */
export function UsageChart({ days }: { days: UsageReport['days'] }) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry?.contentRect.width ?? 0)));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const element = box.current;
    if (!element || width === 0) return;
    let chart: uPlot | undefined;
    let gone = false;
    void Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(([{ default: UPlot }]) => {
      if (gone) return;
      chart = new UPlot(
        {
          width,
          height: CHART_HEIGHT,
          tzDate: (ts) => UPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
          scales: {
            tokens: { range: (_u, _min, max) => [0, Math.max(1, max)] },
            replies: { range: (_u, _min, max) => [0, Math.max(1, max)] },
          },
          axes: [
            { stroke: 'currentColor' },
            { scale: 'tokens', stroke: TOKENS_COLOR, size: 60 },
            {
              scale: 'replies',
              side: 1,
              stroke: REPLIES_COLOR,
              grid: { show: false },
              // Replies are counted: whole ticks only.
              incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000],
            },
          ],
          series: [
            {},
            { label: 'Tokens', scale: 'tokens', stroke: TOKENS_COLOR, width: 2 },
            { label: 'Replies', scale: 'replies', stroke: REPLIES_COLOR, width: 2 },
          ],
          legend: { live: false },
        },
        [
          days.map((d) => Date.parse(`${d.day}T00:00:00Z`) / 1000),
          days.map((d) => d.inputTokens + d.outputTokens),
          days.map((d) => d.replies),
        ],
        element,
      );
    });
    return () => {
      gone = true;
      chart?.destroy();
    };
  }, [days, width]);

  return (
    <figure className="grid gap-2">
      <div ref={box} className="min-h-60 text-muted-foreground" aria-hidden="true" data-testid="usage-chart" />
      <figcaption className="sr-only">Tokens and replies per day</figcaption>
      {/* A table ignores the 1 px width of sr-only; its wrapper does not. */}
      <div className="sr-only">
        <table>
          <caption>Usage per day</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Tokens</th>
              <th scope="col">Replies</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.day}>
                <th scope="row">{d.day}</th>
                <td>{formatCount(d.inputTokens + d.outputTokens)}</td>
                <td>{formatCount(d.replies)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
