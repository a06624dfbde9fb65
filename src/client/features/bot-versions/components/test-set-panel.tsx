import { FlaskConical, Square, TriangleAlert } from 'lucide-react';
import type { EvaluationResult } from '@shared/contracts/evaluations';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Progress } from '@/components/ui/progress';
import { useEvaluation, useEvaluations, useRunEvaluation } from '../api/evaluations';
import { compareResults, latestDone } from '../model/evaluations';

interface TestSetPanelProps {
  botId: number;
  queries: string[];
  selected: number;
  current: number;
}

/**
 * The test set run on versions: run it on the current (or the selected) version, then read the two versions'
 * answers side by side with the judge's verdicts, regressions (pass → fail) flagged.
 */
export function TestSetPanel({ botId, queries, selected, current }: TestSetPanelProps) {
  const evaluations = useEvaluations(botId);
  const run = useRunEvaluation(botId);
  const list = evaluations.data ?? [];
  const older = latestDone(list, selected);
  const newer = latestDone(list, current);
  const before = useEvaluation(botId, selected === current ? undefined : older?.id);
  const after = useEvaluation(botId, newer?.id);
  const versions = selected === current ? [current] : [current, selected];

  return (
    <section aria-labelledby="test-set-title" className="grid gap-4 rounded-xl border p-4 sm:p-5">
      <div className="grid gap-1">
        <h2 id="test-set-title" className="flex items-center gap-2 text-lg font-semibold">
          <FlaskConical className="size-5 text-primary" aria-hidden="true" />
          Test set
        </h2>
        <p className="text-sm text-muted-foreground">
          {queries.length === 0
            ? 'Add example queries in the Train step to build a test set.'
            : `${queries.length} example ${queries.length === 1 ? 'query' : 'queries'}, answered by a version and judged pass or fail.`}
        </p>
      </div>
      {queries.length > 0 && (
        <div className="flex flex-wrap gap-2">
          {versions.map((version) => (
            <Button
              key={version}
              variant={version === current ? 'default' : 'outline'}
              disabled={run.progress !== null}
              onClick={() => void run.start(version)}
            >
              Run on version {version}
            </Button>
          ))}
          {run.progress && (
            <Button variant="outline" onClick={run.cancel}>
              <Square aria-hidden="true" />
              Cancel
            </Button>
          )}
        </div>
      )}
      {run.progress && (
        <div className="grid gap-2">
          <p id="evaluation-progress" className="text-sm font-medium" aria-live="polite">
            Testing version {run.progress.version}: {run.progress.done} of {run.progress.total || queries.length}
          </p>
          <Progress
            value={(run.progress.done / (run.progress.total || queries.length)) * 100}
            aria-labelledby="evaluation-progress"
          />
        </div>
      )}
      {run.error && (
        <p role="alert" className="text-sm text-destructive">
          {run.error}
        </p>
      )}
      {(newer || older) && (
        <Results
          before={
            selected === current
              ? undefined
              : { version: selected, results: before.data?.results, passed: older?.passed, total: older?.total }
          }
          after={{ version: current, results: after.data?.results, passed: newer?.passed, total: newer?.total }}
        />
      )}
    </section>
  );
}

interface Side {
  version: number;
  results: EvaluationResult[] | undefined;
  passed: number | undefined;
  total: number | undefined;
}

function Results({ before, after }: { before: Side | undefined; after: Side }) {
  const rows = compareResults(before?.results ?? [], after.results ?? []);
  const sides = before ? [before, after] : [after];
  const regressions = rows.filter((r) => r.regression).length;
  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap gap-2 text-sm">
        {sides.map((side) => (
          <Badge key={side.version} variant="secondary">
            Version {side.version}:{' '}
            {side.passed === undefined ? 'not tested' : `${side.passed} of ${side.total} passed`}
          </Badge>
        ))}
        {regressions > 0 && (
          <Badge variant="destructive">
            {regressions} {regressions === 1 ? 'regression' : 'regressions'}
          </Badge>
        )}
      </div>
      <ol className="grid gap-3">
        {rows.map((row) => (
          <li key={row.query} className="grid gap-2 rounded-lg border p-3">
            <p className="flex flex-wrap items-center gap-2 text-sm font-semibold break-words">
              {row.query}
              {row.regression && (
                <Badge variant="destructive">
                  <TriangleAlert className="size-3" aria-hidden="true" />
                  Regression
                </Badge>
              )}
            </p>
            <div className={`grid gap-3 ${before ? 'md:grid-cols-2' : ''}`}>
              {before && <Answer version={before.version} result={row.before} />}
              <Answer version={after.version} result={row.after} />
            </div>
          </li>
        ))}
      </ol>
    </div>
  );
}

function Answer({ version, result }: { version: number; result: EvaluationResult | undefined }) {
  return (
    <div className="grid content-start gap-1 rounded-md bg-muted/50 p-2 text-sm">
      <p className="flex items-center gap-2 font-medium">
        Version {version}
        {result?.verdict && (
          <Badge variant={result.verdict === 'pass' ? 'secondary' : 'destructive'}>
            {result.verdict === 'pass' ? 'Pass' : 'Fail'}
          </Badge>
        )}
      </p>
      {!result ? (
        <p className="text-muted-foreground">Not tested yet.</p>
      ) : (
        <>
          {result.answer && <p className="break-words whitespace-pre-wrap">{result.answer}</p>}
          <p className="text-muted-foreground">{result.reason ?? result.error}</p>
        </>
      )}
    </div>
  );
}
