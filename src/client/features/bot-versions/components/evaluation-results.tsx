import { TriangleAlert } from 'lucide-react';
import type { EvaluationResult, EvaluationSummary, QuestionChange } from '@shared/contracts/evaluations';
import { compareEvaluations, verdictSentence } from '@shared/evaluations/compare';
import { Badge } from '@/components/ui/badge';
import { Skeleton } from '@/components/ui/skeleton';
import { useEvaluation } from '../api/evaluations';

interface EvaluationResultsProps {
  botId: number;
  /** The run shown. */
  after: EvaluationSummary;
  /** The finished run before it, which it is compared with. */
  before: EvaluationSummary | undefined;
}

/** A run read against the one before it: the verdict line, then each question's two answers side by side. */
export function EvaluationResults({ botId, after, before }: EvaluationResultsProps) {
  const newer = useEvaluation(botId, after.id);
  const older = useEvaluation(botId, before?.id);
  if (!newer.data || (before && !older.data)) return <Skeleton className="h-40" />;
  const compared = compareEvaluations(older.data ?? { results: [] }, newer.data);
  const { regression } = compared.totals;
  return (
    <div className="grid gap-3">
      {before && (
        <p className="text-sm font-semibold" aria-live="polite">
          {verdictSentence({ before: before.version, after: after.version }, compared.totals)}
        </p>
      )}
      {regression > 0 && (
        <div>
          <Badge variant="destructive">
            {regression} {regression === 1 ? 'regression' : 'regressions'}
          </Badge>
        </div>
      )}
      <ol className="grid gap-3">
        {compared.questions.map((question) => (
          <li key={question.query} className="grid gap-2 rounded-lg border p-3">
            <p className="flex flex-wrap items-center gap-2 text-sm font-semibold break-words">
              {question.query}
              {before && <ChangeBadge change={question.change} />}
            </p>
            <div className={`grid gap-3 ${before ? 'md:grid-cols-2' : ''}`}>
              {before && <Answer version={before.version} result={question.before} />}
              <Answer version={after.version} result={question.after} />
            </div>
          </li>
        ))}
      </ol>
    </div>
  );
}

/** Only what changed is marked; a regression in red, the rest neutral. */
function ChangeBadge({ change }: { change: QuestionChange }) {
  if (change === 'regression') {
    return (
      <Badge variant="destructive">
        <TriangleAlert className="size-3" aria-hidden="true" />
        Regression
      </Badge>
    );
  }
  const text = { better: 'Better', worse: 'Worse', new: 'New', not_compared: 'Not compared' } as const;
  return change === 'same' ? null : <Badge variant="outline">{text[change]}</Badge>;
}

function VerdictBadge({ result }: { result: EvaluationResult }) {
  if (result.verdict === 'judge_unavailable') return <Badge variant="outline">Judge unavailable</Badge>;
  if (!result.verdict) return null;
  return (
    <Badge variant={result.verdict === 'pass' ? 'secondary' : 'destructive'}>
      {result.verdict === 'pass' ? 'Pass' : 'Fail'}
      {result.score !== null && ` · ${result.score}/5`}
    </Badge>
  );
}

function Answer({ version, result }: { version: number; result: EvaluationResult | null }) {
  return (
    <div className="grid content-start gap-1 rounded-md bg-muted/50 p-2 text-sm">
      <p className="flex items-center gap-2 font-medium">
        Version {version}
        {result && <VerdictBadge result={result} />}
      </p>
      {!result ? (
        <p className="text-muted-foreground">Not tested yet.</p>
      ) : (
        <>
          {result.answer && <p className="break-words whitespace-pre-wrap">{result.answer}</p>}
          <p className="text-muted-foreground">{result.reason ?? result.error}</p>
          {result.faithfulness !== null && (
            <p className="text-xs text-muted-foreground">{supportedShare(result.faithfulness)}</p>
          )}
        </>
      )}
    </div>
  );
}

/** "75% supported by sources": the share of an answer's checkable sentences its sources support. */
export const supportedShare = (faithfulness: number) => `${Math.round(faithfulness * 100)}% supported by sources`;
