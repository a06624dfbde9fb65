import { Download } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { PendingButton } from '@/components/ui/pending-button';
import { Skeleton } from '@/components/ui/skeleton';
import { useAdminUsage, useDownloadUsageCsv } from '@/entities/admin/api/usage';
import { formErrors } from '../model/field-errors';
import { formatCount } from '@/lib/format-count';
import { lastDays } from '../model/format';
import { usageGroups } from '../model/usage-totals';
import { RoleLimitsCard } from './role-limits-card';
import { UsageChart } from './usage-chart';
import { UsageTable } from './usage-table';

const DEFAULT_DAYS = 30;

/** Admin → Usage: tokens and replies of everyone over a range of days, as a chart, a table and a CSV file. */
export function UsageSection() {
  const [range, setRange] = useState(() => lastDays(DEFAULT_DAYS));
  const usage = useAdminUsage(range);
  const download = useDownloadUsageCsv();
  const groups = useMemo(() => usageGroups(usage.data?.totals ?? []), [usage.data]);
  const { fields } = formErrors(usage.error);
  const totals = (usage.data?.days ?? []).reduce(
    (sum, d) => ({ replies: sum.replies + d.replies, tokens: sum.tokens + d.inputTokens + d.outputTokens }),
    { replies: 0, tokens: 0 },
  );

  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle>Usage</CardTitle>
          <CardDescription>Replies and tokens of everyone, per day (UTC).</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5">
          <div className="grid gap-4 sm:grid-cols-[10rem_10rem_1fr] sm:items-start">
            <FormField label="From" error={fields.from}>
              <Input
                type="date"
                value={range.from}
                max={range.to}
                onChange={(e) => e.target.value && setRange({ ...range, from: e.target.value })}
              />
            </FormField>
            <FormField label="To" error={fields.to}>
              <Input
                type="date"
                value={range.to}
                min={range.from}
                onChange={(e) => e.target.value && setRange({ ...range, to: e.target.value })}
              />
            </FormField>
            <PendingButton
              variant="outline"
              className="justify-self-start sm:mt-6 sm:justify-self-end"
              pending={download.isPending}
              pendingLabel="Downloading..."
              onClick={() => download.mutate(range)}
            >
              <Download aria-hidden="true" />
              Download CSV
            </PendingButton>
          </div>
          {usage.isError && !fields.from && !fields.to ? (
            <p role="alert" className="text-destructive">
              The usage could not be loaded.
            </p>
          ) : !usage.data ? (
            <Skeleton className="h-72" />
          ) : (
            <>
              <dl className="grid grid-cols-2 gap-3">
                <div className="rounded-lg border p-3">
                  <dt className="text-sm text-muted-foreground">Replies</dt>
                  <dd className="text-xl font-semibold tabular-nums">{formatCount(totals.replies)}</dd>
                </div>
                <div className="rounded-lg border p-3">
                  <dt className="text-sm text-muted-foreground">Tokens</dt>
                  <dd className="text-xl font-semibold tabular-nums">{formatCount(totals.tokens)}</dd>
                </div>
              </dl>
              <UsageChart report={usage.data} />
              <UsageTable groups={groups} />
              {usage.data.truncated && (
                <p className="text-sm text-muted-foreground">
                  The table shows the {formatCount(groups.length)} largest; the CSV file has every row.
                </p>
              )}
            </>
          )}
        </CardContent>
      </Card>
      <RoleLimitsCard />
    </div>
  );
}
