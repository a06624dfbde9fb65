import { useMemo } from 'react';
import type uPlot from 'uplot';
import type { UsageReport } from '@shared/contracts/admin';
import { DailyLineChart } from '@/components/daily-line-chart';
import { daysOfRange } from '@/lib/days-of-range';

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

/**
 * Tokens (left axis) and replies (right axis) per day, over every day of the range: the report lists only days
 * with replies, and a line through those alone would join distant days (one day alone stretched the axis over years).
 */
export function UsageChart({ report }: { report: Pick<UsageReport, 'from' | 'to' | 'days'> }) {
  const dayList = useMemo(() => daysOfRange(report.from, report.to), [report.from, report.to]);
  const series = useMemo(() => {
    const listed = new Map(report.days.map((d) => [d.day, d]));
    const valuesOf = (value: (d: UsageReport['days'][number]) => number) =>
      dayList.map((day) => {
        const found = listed.get(day);
        return found ? value(found) : 0;
      });
    return [
      {
        label: 'Tokens',
        color: TOKENS_COLOR,
        scale: 'tokens',
        values: valuesOf((d) => d.inputTokens + d.outputTokens),
      },
      { label: 'Replies', color: REPLIES_COLOR, scale: 'replies', values: valuesOf((d) => d.replies) },
    ];
  }, [report.days, dayList]);
  return (
    <DailyLineChart days={dayList} series={series} axes={AXES} tableCaption="Usage per day" testId="usage-chart" />
  );
}
