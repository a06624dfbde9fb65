import { useMemo } from 'react';
import type uPlot from 'uplot';
import type { UsageReport } from '@shared/contracts/admin';
import { DailyLineChart } from '@/components/daily-line-chart';

const TOKENS_COLOR = '#7c3aed';
const REPLIES_COLOR = '#ea580c';

const AXES: uPlot.Axis[] = [
  { scale: 'tokens', stroke: TOKENS_COLOR, size: 60 },
  {
    scale: 'replies',
    side: 1,
    stroke: REPLIES_COLOR,
    grid: { show: false },
    // Replies are counted: whole ticks only.
    incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000],
  },
];

/** Tokens (left axis) and replies (right axis) per day. */
export function UsageChart({ days }: { days: UsageReport['days'] }) {
  const series = useMemo(
    () => [
      {
        label: 'Tokens',
        color: TOKENS_COLOR,
        scale: 'tokens',
        values: days.map((d) => d.inputTokens + d.outputTokens),
      },
      { label: 'Replies', color: REPLIES_COLOR, scale: 'replies', values: days.map((d) => d.replies) },
    ],
    [days],
  );
  const dayList = useMemo(() => days.map((d) => d.day), [days]);
  return (
    <DailyLineChart days={dayList} series={series} axes={AXES} tableCaption="Usage per day" testId="usage-chart" />
  );
}
