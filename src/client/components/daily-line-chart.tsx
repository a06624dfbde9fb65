import { useEffect, useRef, useState } from 'react';
import type uPlot from 'uplot';
import { useTheme } from '@/lib/theme';
import { ColumnHeads, CountCell } from './column-heads';

const CHART_HEIGHT = 240;

/** One line: its values a day, in the order of the chart's days. */
export interface DailySeries {
  label: string;
  color: string;
  values: number[];
  /** The y scale it is drawn against (the axis with the same `scale`, by default uPlot's "y"); each starts at zero. */
  scale?: string;
  /** Dashes and gaps in px, for a line often equal to one drawn before it: the earlier shows through the gaps. */
  dash?: number[];
}

/** Days, series and axes redraw the chart when they change: keep them stable (useMemo, constants). */
interface DailyLineChartProps {
  /** YYYY-MM-DD days (UTC). */
  days: string[];
  series: DailySeries[];
  /** The y axes; the x axis (the days) is the chart's own. */
  axes: uPlot.Axis[];
  tableCaption: string;
  testId: string;
}

/** "Conversations, messages and replies per day". */
function captionOf(series: DailySeries[]): string {
  const names = series.map((s, i) => (i === 0 ? s.label : s.label.toLowerCase()));
  const last = names.pop();
  return `${names.length > 0 ? `${names.join(', ')} and ${last}` : last} per day`;
}

/**
 * A line a series over days. uPlot (and its stylesheet) load only when a chart is shown, so no other page pays
 * for them; a table with the same numbers is there for screen readers.
 */
export function DailyLineChart({ days, series, axes, tableCaption, testId }: DailyLineChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  // A canvas does not follow CSS: the day labels take the box's text colour, read again when the theme changes
  // ('currentColor' drew them black, unreadable on the dark theme).
  const theme = useTheme();

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
    const ink = getComputedStyle(element).color;
    void Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(([{ default: UPlot }]) => {
      if (gone) return;
      const fromZero: uPlot.Scale = { range: (_u, _min, max) => [0, Math.max(1, max)] };
      chart = new UPlot(
        {
          width,
          height: CHART_HEIGHT,
          tzDate: (ts) => UPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
          scales: Object.fromEntries(series.map((s) => [s.scale ?? 'y', fromZero])),
          axes: [{ stroke: ink }, ...axes],
          series: [
            {},
            ...series.map((s) => ({ label: s.label, scale: s.scale ?? 'y', stroke: s.color, width: 2, dash: s.dash })),
          ],
          // The legend names the lines; values under a pointer (the live legend) read "--" until one hovers,
          // which phones never do. The numbers are in the table below.
          // A dashed line's marker dashed too, so the legend tells two lines of one colour family apart.
          legend: { live: false, markers: { dash: (u, i) => (u.series[i]?.dash ? 'dashed' : 'solid') } },
        },
        [days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000), ...series.map((s) => s.values)],
        element,
      );
    });
    return () => {
      gone = true;
      chart?.destroy();
    };
  }, [days, series, axes, width, theme]);

  return (
    <figure className="grid gap-2">
      <div ref={box} className="min-h-60 text-muted-foreground" aria-hidden="true" data-testid={testId} />
      <figcaption className="sr-only">{captionOf(series)}</figcaption>
      {/* A table ignores the 1 px width of sr-only (it stretched phones sideways); its wrapper does not. */}
      <div className="sr-only">
        <table>
          <caption>{tableCaption}</caption>
          <ColumnHeads columns={[{ label: 'Day' }, ...series.map((s) => ({ label: s.label, numeric: true }))]} />
          <tbody>
            {days.map((day, i) => (
              <tr key={day}>
                <th scope="row">{day}</th>
                {series.map((s) => (
                  <CountCell key={s.label} value={s.values[i] ?? 0} />
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
