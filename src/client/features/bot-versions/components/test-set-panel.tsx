import { FlaskConical, Pencil, Square } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { isEvaluationActive, type EvaluationSummary } from '@shared/contracts/evaluations';
import type { TestCase } from '@shared/contracts/test-cases';
import { useTests } from '@/entities/bot/api/get-tests';
import { RelativeTime } from '@/components/relative-time';
import { Button } from '@/components/ui/button';
import { Progress } from '@/components/ui/progress';
import { Skeleton } from '@/components/ui/skeleton';
import { serverMessage } from '@/lib/request';
import { useCancelEvaluation, useEvaluationProgress, useEvaluations, useStartEvaluation } from '../api/evaluations';
import { EvaluationResults, supportedShare } from './evaluation-results';

interface TestSetPanelProps {
  botId: number;
  selected: number;
  current: number;
}

/**
 * The bot's test set (its test cases, edited on the Tests page) run on versions: start a run on the current (or
 * the selected) version — the server runs it, so leaving the page does not stop it — follow or cancel the one
 * running, and read any run against the one before it: the verdict line, then the two runs' answers side by side
 * with the judge's verdicts.
 */
export function TestSetPanel({ botId, selected, current }: TestSetPanelProps) {
  const tests = useTests(botId);
  const evaluations = useEvaluations(botId);
  const start = useStartEvaluation(botId);
  const [picked, setPicked] = useState<number>();
  const cases = tests.data ?? [];
  const list = evaluations.data ?? [];
  const active = list.find((e) => isEvaluationActive(e.status));
  const finished = list.filter((e) => e.status === 'done');
  // The newest finished run, until another is picked.
  const shown = list.find((e) => e.id === picked) ?? finished[0];
  const previous = shown && finished.find((e) => e.id < shown.id);
  const versions = selected === current ? [current] : [current, selected];

  return (
    <section aria-labelledby="test-set-title" className="grid gap-4 rounded-xl border p-4 sm:p-5">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="grid gap-1">
          <h2 id="test-set-title" className="flex items-center gap-2 text-lg font-semibold">
            <FlaskConical className="size-5 text-primary" aria-hidden="true" />
            Test set
          </h2>
          {tests.isPending ? (
            <Skeleton className="h-5 w-64" />
          ) : (
            <p className="text-sm text-muted-foreground">
              {tests.isError
                ? 'The test set could not be loaded.'
                : cases.length === 0
                  ? 'No test cases yet. Add questions with expected answers on the Tests page to build a test set.'
                  : `${cases.length} test ${cases.length === 1 ? 'case' : 'cases'}, answered by a version and judged pass or fail.`}
            </p>
          )}
        </div>
        <Button variant="outline" size="sm" asChild>
          <Link to={`/bots/${botId}/tests`}>
            <Pencil aria-hidden="true" />
            {cases.length === 0 ? 'Add tests' : 'Edit tests'}
          </Link>
        </Button>
      </div>
      {cases.length > 0 && <CaseList cases={cases} />}
      {cases.length > 0 && (
        <div className="flex flex-wrap gap-2">
          {versions.map((version) => (
            <Button
              key={version}
              variant={version === current ? 'default' : 'outline'}
              disabled={active !== undefined || start.isPending}
              onClick={() => start.mutate(version)}
            >
              Run on version {version}
            </Button>
          ))}
        </div>
      )}
      {active && <ActiveRun botId={botId} run={active} />}
      {start.error && (
        <p role="alert" className="text-sm text-destructive">
          {serverMessage(start.error) ?? 'The evaluation could not run.'}
        </p>
      )}
      {list.length > 0 && <RunList runs={list} shown={shown?.id} onShow={setPicked} />}
      {shown && <EvaluationResults botId={botId} after={shown} before={previous} />}
    </section>
  );
}

/** The questions a run asks, folded away: the Tests page is where they are read in full and edited. */
function CaseList({ cases }: { cases: TestCase[] }) {
  return (
    <details className="group rounded-lg border text-sm">
      <summary className="cursor-pointer rounded-lg px-3 py-2 font-medium focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
        Questions asked
      </summary>
      <ol aria-label="Test cases" className="grid max-h-64 gap-1 overflow-y-auto border-t px-3 py-2">
        {cases.map((c) => (
          <li key={c.id} className="grid gap-0.5 py-1">
            <span className="break-words">{c.query}</span>
            {c.expected && <span className="break-words text-muted-foreground">Expected: {c.expected}</span>}
          </li>
        ))}
      </ol>
    </details>
  );
}

/** The run in progress, as its events say, with Cancel; it goes on when the page is left. */
function ActiveRun({ botId, run }: { botId: number; run: EvaluationSummary }) {
  const completed = useEvaluationProgress(botId, run) ?? run.completed;
  const cancel = useCancelEvaluation(botId);
  const total = run.total || 1;
  return (
    <div className="grid gap-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p id="evaluation-progress" className="text-sm font-medium" aria-live="polite">
          {run.status === 'queued'
            ? `Version ${run.version} is waiting to be tested`
            : `Testing version ${run.version}: ${completed} of ${run.total}`}
        </p>
        <Button variant="outline" size="sm" disabled={cancel.isPending} onClick={() => cancel.mutate(run.id)}>
          <Square aria-hidden="true" />
          Cancel
        </Button>
      </div>
      <Progress value={(completed / total) * 100} aria-labelledby="evaluation-progress" />
    </div>
  );
}

const STATUS_TEXT: Record<EvaluationSummary['status'], string> = {
  queued: 'waiting',
  running: 'running',
  done: '',
  cancelled: 'cancelled',
  failed: 'could not run',
  interrupted: 'interrupted',
};

/**
 * "Version 2: 1 of 2 passed · 75% supported by sources"; an unfinished run says how far it came. The share of
 * supported sentences is a reading beside the pass rate, never part of it (decision 0044).
 */
export function runLabel(run: EvaluationSummary): string {
  const passed = `${run.passed} of ${run.total - run.judgeUnavailable} passed`;
  const supported = run.faithfulness === null ? '' : ` · ${supportedShare(run.faithfulness)}`;
  if (run.status === 'done') return `Version ${run.version}: ${passed}${supported}`;
  return `Version ${run.version}: ${STATUS_TEXT[run.status]}, ${run.completed} of ${run.total} answered`;
}

function RunList({
  runs,
  shown,
  onShow,
}: {
  runs: EvaluationSummary[];
  shown: number | undefined;
  onShow: (id: number) => void;
}) {
  return (
    <div className="grid gap-2">
      <h3 className="text-sm font-semibold">Runs</h3>
      <ol aria-label="Test runs" className="grid max-h-64 gap-1 overflow-y-auto">
        {runs.map((run) => (
          <li key={run.id}>
            <button
              type="button"
              aria-pressed={run.id === shown}
              onClick={() => onShow(run.id)}
              className="flex min-h-11 w-full flex-wrap items-center justify-between gap-2 rounded-lg border px-3 py-2 text-left text-sm transition-colors hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none aria-pressed:border-primary aria-pressed:bg-accent"
            >
              <span className="font-medium">{runLabel(run)}</span>
              <RelativeTime date={run.createdAt} className="text-xs text-muted-foreground" />
            </button>
          </li>
        ))}
      </ol>
    </div>
  );
}
