import { useMemo } from 'react';
import type uPlot from 'uplot';
import type { Insights } from '@shared/contracts/insights';
import { DailyLineChart } from '@/components/daily-line-chart';

// Every message usually has its reply, so the two lines are often one: replies are dashed over messages.
const SERIES = [
  { key: 'conversations', label: 'Conversations', color: '#7c3aed' },
  { key: 'messages', label: 'Messages', color: '#0891b2' },
  { key: 'replies', label: 'Replies', color: '#ea580c', dash: [6, 6] },
] as const;

const AXES: uPlot.Axis[] = [{ stroke: 'currentColor', incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500] }];

/** Conversations, messages and replies per day as a line chart. */
export function DailyChart({ perDay }: { perDay: Insights['perDay'] }) {
  const days = useMemo(() => perDay.map((d) => d.date), [perDay]);
  const series = useMemo(
    () =>
      SERIES.map((s) => ({
        label: s.label,
        color: s.color,
        dash: 'dash' in s ? [...s.dash] : undefined,
        values: perDay.map((d) => d[s.key]),
      })),
    [perDay],
  );
  return (
    <DailyLineChart days={days} series={series} axes={AXES} tableCaption="Activity per day" testId="daily-chart" />
  );
}
