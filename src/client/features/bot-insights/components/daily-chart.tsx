import { useEffect, useRef, useState } from 'react';
import type uPlot from 'uplot';
import type { Insights } from '@shared/contracts/insights';

const SERIES = [
  { key: 'conversations', label: 'Conversations', color: '#7c3aed' },
  { key: 'messages', label: 'Messages', color: '#0891b2' },
  { key: 'replies', label: 'Replies', color: '#ea580c' },
] as const;

const CHART_HEIGHT = 240;

/**
 * Conversations, messages and replies per day as a line chart. uPlot (and its stylesheet) load only when a
 * chart is shown, so no other page pays for them; a table with the same numbers is there for screen readers.
 */
export function DailyChart({ perDay }: { perDay: Insights['perDay'] }) {
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
      const days = perDay.map((d) => Date.parse(`${d.date}T00:00:00Z`) / 1000);
      chart = new UPlot(
        {
          width,
          height: CHART_HEIGHT,
          tzDate: (ts) => UPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
          scales: { y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
          axes: [{ stroke: 'currentColor' }, { stroke: 'currentColor', incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500] }],
          series: [{}, ...SERIES.map((s) => ({ label: s.label, stroke: s.color, width: 2 }))],
          // The legend names the lines; values under a pointer (the live legend) read "--" until one hovers,
          // which phones never do. The numbers are in the table below.
          legend: { live: false },
        },
        [days, ...SERIES.map((s) => perDay.map((d) => d[s.key]))],
        element,
      );
    });
    return () => {
      gone = true;
      chart?.destroy();
    };
  }, [perDay, width]);

  return (
    <figure className="grid gap-2">
      <div ref={box} className="min-h-60 text-muted-foreground" aria-hidden="true" data-testid="daily-chart" />
      <figcaption className="sr-only">Conversations, messages and replies per day</figcaption>
      {/* A table ignores the 1 px width of sr-only (it stretched phones sideways); its wrapper does not. */}
      <div className="sr-only">
        <table>
          <caption>Activity per day</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {SERIES.map((s) => (
                <th key={s.key} scope="col">
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {perDay.map((d) => (
              <tr key={d.date}>
                <th scope="row">{d.date}</th>
                {SERIES.map((s) => (
                  <td key={s.key}>{d[s.key]}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
