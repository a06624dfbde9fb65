import type { UsageToday } from '@shared/contracts/admin';
import { ColumnHeads, CountCell } from '@/components/column-heads';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { Skeleton } from '@/components/ui/skeleton';
import { useModels } from '@/entities/model/api/get-models';
import { recordedModelName } from '@/entities/model/model/model-choice';
import { formatCount } from '@/lib/format-count';
import { useOwnUsage } from '../api/usage';
import { dailyUsage, usageByBotAndModel, type DayUsage } from '../model/usage-summary';
import { SettingsSection } from './settings-section';

/** A report's day (UTC) as a short date. */
const dayLabel = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
/** When the daily limits start again, in the reader's own time. */
export const resetTime = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { weekday: 'short', hour: 'numeric', minute: '2-digit' });

/** Settings → Usage (issue 23): today against the limits that apply, the last 30 days, and per botty and model. */
export function UsageTab() {
  const usage = useOwnUsage();

  return (
    <Card>
      <CardHeader>
        <CardTitle>Usage</CardTitle>
        <CardDescription>The tokens and replies your botties used. Days are counted in UTC.</CardDescription>
      </CardHeader>
      <CardContent>
        {usage.isPending ? (
          <div role="status" className="grid gap-3">
            <span className="sr-only">Loading usage</span>
            <Skeleton className="h-16 w-full" />
            <Skeleton className="h-24 w-full" />
          </div>
        ) : usage.isError ? (
          <div role="alert" className="flex flex-wrap items-center gap-3 text-sm text-error">
            The usage could not be loaded.
            <Button variant="outline" size="sm" onClick={() => void usage.refetch()}>
              Try again
            </Button>
          </div>
        ) : (
          <>
            {usage.data.today && (
              <SettingsSection title="Today">
                <TodayUsage today={usage.data.today} />
              </SettingsSection>
            )}
            <SettingsSection title="Last 30 days">
              <DailyUsage days={dailyUsage(usage.data)} />
            </SettingsSection>
            <SettingsSection title="By botty and model">
              <BotModelTable rows={usage.data.totals} />
            </SettingsSection>
          </>
        )}
      </CardContent>
    </Card>
  );
}

function TodayUsage({ today }: { today: UsageToday }) {
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <Meter label="Tokens" used={today.tokens} limit={today.limits.dailyTokens} />
        <Meter label="Replies" used={today.replies} limit={today.limits.dailyReplies} />
      </div>
      <p className="text-sm text-muted-foreground">Limits reset {resetTime(today.resetsAt)}</p>
    </>
  );
}

function Meter({ label, used, limit }: { label: string; used: number; limit: number | null }) {
  return (
    <div className="grid gap-2 rounded-lg border p-3">
      <p className="flex flex-wrap items-baseline justify-between gap-x-2 text-sm">
        <span className="font-medium">{label}</span>
        <span className="text-muted-foreground">
          {limit === null ? `${formatCount(used)} · no limit` : `${formatCount(used)} of ${formatCount(limit)}`}
        </span>
      </p>
      {limit !== null && (
        <Progress
          aria-label={`${label} used today`}
          value={limit === 0 ? 100 : Math.min(100, (used / limit) * 100)}
          className="h-2"
        />
      )}
    </div>
  );
}

const DAY_COLUMNS = [{ label: 'Day' }, { label: 'Replies', numeric: true }, { label: 'Tokens', numeric: true }];

function DailyUsage({ days }: { days: DayUsage[] }) {
  const most = Math.max(1, ...days.map((d) => d.tokens));
  const used = days.filter((d) => d.replies > 0 || d.tokens > 0);
  const replies = days.reduce((sum, d) => sum + d.replies, 0);
  const tokens = days.reduce((sum, d) => sum + d.tokens, 0);
  if (used.length === 0) return <p className="text-sm text-muted-foreground">No replies in the last 30 days.</p>;

  return (
    <>
      <p className="text-sm">
        {`${formatCount(replies)} ${replies === 1 ? 'reply' : 'replies'} and ${formatCount(tokens)} tokens`}
      </p>
      {/* The bars are a picture of the table below, which screen readers read instead. */}
      <div aria-hidden="true" className="flex h-24 items-end gap-px border-b" data-testid="usage-bars">
        {days.map((d) => (
          <div
            key={d.day}
            title={`${dayLabel(d.day)}: ${formatCount(d.tokens)} tokens`}
            className="min-w-0 flex-1 rounded-t-sm bg-primary/70"
            style={{ height: `${(d.tokens / most) * 100}%` }}
          />
        ))}
      </div>
      <details className="text-sm">
        <summary className="min-h-11 cursor-pointer content-center font-medium md:min-h-0">Per day</summary>
        <table className="mt-2 w-full text-left">
          <caption className="sr-only">Usage per day</caption>
          <ColumnHeads columns={DAY_COLUMNS} className="text-muted-foreground" cellClassName="py-1 font-normal" />
          <tbody>
            {[...used].reverse().map((d) => (
              <tr key={d.day} className="border-t">
                <th scope="row" className="py-1 font-normal">
                  {dayLabel(d.day)}
                </th>
                <CountCell value={d.replies} className="py-1" />
                <CountCell value={d.tokens} className="py-1" />
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </>
  );
}

const BOT_MODEL_COLUMNS = [
  { label: 'Botty and model' },
  { label: 'Replies', numeric: true, className: 'w-16 sm:w-20' },
  { label: 'Tokens', numeric: true, className: 'w-20 sm:w-24' },
];

function BotModelTable({ rows }: { rows: Parameters<typeof usageByBotAndModel>[0] }) {
  const groups = usageByBotAndModel(rows);
  // Usage records model ids; people know models by their labels.
  const { data: models } = useModels();
  if (groups.length === 0) return <p className="text-sm text-muted-foreground">Nothing yet.</p>;
  return (
    <table className="w-full table-fixed text-left text-sm">
      <caption className="sr-only">Usage per botty and model, last 30 days</caption>
      <ColumnHeads columns={BOT_MODEL_COLUMNS} className="text-muted-foreground" cellClassName="py-1 font-normal" />
      <tbody>
        {groups.map((group) => (
          <tr key={group.key} className="border-t align-top">
            <td className="py-1.5 pr-2 [overflow-wrap:anywhere]">
              {group.bot}
              <span className="block text-xs text-muted-foreground">{recordedModelName(models, group.model)}</span>
            </td>
            <CountCell value={group.replies} className="py-1.5" />
            <CountCell value={group.tokens} className="py-1.5" />
          </tr>
        ))}
      </tbody>
    </table>
  );
}
