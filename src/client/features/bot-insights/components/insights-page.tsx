import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { INSIGHTS_DAYS_DEFAULT, type Insights } from '@shared/contracts/insights';
import { useBot } from '@/entities/bot/api/get-bot';
import { PageContainer, PageHeader } from '@/components/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { formatCount } from '@/lib/format-count';
import { useInsights } from '../api/insights';
import { DailyChart } from './daily-chart';
import { LinkButton } from '@/components/link-button';

/** Short times in milliseconds, longer ones in seconds. */
const duration = (ms: number | null) =>
  ms === null ? '—' : ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;

/** Per bot (route /bots/:id/insights): how it is used and how it is doing over the last 30 days. */
export function InsightsPage() {
  const botId = Number(useParams().id);
  const bot = useBot(botId);
  const insights = useInsights(botId, INSIGHTS_DAYS_DEFAULT);

  return (
    <PageContainer className="grid max-w-5xl gap-6">
      <PageHeader
        title={bot.data ? `Insights for ${bot.data.name}` : 'Insights'}
        description={`How your botty is used and how it is doing over the last ${INSIGHTS_DAYS_DEFAULT} days.`}
        actions={
          <LinkButton to={`/bots/${botId}/versions`} icon={ArrowLeft}>
            Versions
          </LinkButton>
        }
      />
      {insights.isError || bot.isError ? (
        <p role="alert" className="text-destructive">
          This botty's insights could not be loaded.
        </p>
      ) : !insights.data ? (
        <Skeleton className="h-96" />
      ) : (
        <Overview insights={insights.data} />
      )}
    </PageContainer>
  );
}

function Overview({ insights }: { insights: Insights }) {
  const { totals, ratings, tokens } = insights;
  const rated = ratings.up + ratings.down;
  return (
    <div className="grid gap-6">
      <section aria-labelledby="activity-title" className="grid gap-3 rounded-xl border p-4 sm:p-5">
        <h2 id="activity-title" className="text-lg font-semibold">
          Activity
        </h2>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
          <Stat term="Conversations">{formatCount(totals.conversations)}</Stat>
          <Stat term="Messages">{formatCount(totals.messages)}</Stat>
          <Stat term="Replies">{formatCount(totals.replies)}</Stat>
        </dl>
        <DailyChart perDay={insights.perDay} />
      </section>
      <section aria-labelledby="quality-title" className="grid gap-3 rounded-xl border p-4 sm:p-5">
        <h2 id="quality-title" className="text-lg font-semibold">
          Replies
        </h2>
        <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
          <Stat term="Median time to first word">{duration(insights.medianFirstTokenMs)}</Stat>
          <Stat term="Median reply time">{duration(insights.medianReplyMs)}</Stat>
          <Stat term="Failed / stopped">
            {insights.failedReplies} / {insights.stoppedReplies}
          </Stat>
          <Stat term="Thumbs up">
            {rated === 0 ? '—' : `${Math.round((ratings.up / rated) * 100)}% (${ratings.up} of ${rated})`}
          </Stat>
          <Stat term="Tokens in / out">
            {tokens ? `${formatCount(tokens.input)} / ${formatCount(tokens.output)}` : 'Not reported'}
          </Stat>
          <Stat term="Sentences supported by sources">
            {insights.faithfulness
              ? `${Math.round(insights.faithfulness.average * 100)}% (${formatCount(insights.faithfulness.replies)} ${insights.faithfulness.replies === 1 ? 'reply' : 'replies'} checked)`
              : '—'}
          </Stat>
        </dl>
      </section>
      <section aria-labelledby="tests-title" className="grid gap-3 rounded-xl border p-4 sm:p-5">
        <h2 id="tests-title" className="text-lg font-semibold">
          Test set pass rate
        </h2>
        {insights.testPassRates.length === 0 ? (
          <p className="text-sm text-muted-foreground">No version has been tested yet.</p>
        ) : (
          <ul className="grid gap-2">
            {insights.testPassRates.map((rate) => (
              <li key={rate.version} className="flex items-center justify-between gap-3 text-sm">
                <span className="font-medium">Version {rate.version}</span>
                <span>
                  {rate.passed} of {rate.total} passed ({Math.round((rate.passed / Math.max(1, rate.total)) * 100)}%)
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function Stat({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid gap-0.5 rounded-lg bg-muted/50 p-3">
      <dt className="text-xs text-muted-foreground">{term}</dt>
      <dd className="text-lg font-semibold tabular-nums">{children}</dd>
    </div>
  );
}
