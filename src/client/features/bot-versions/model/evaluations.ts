import type { EvaluationResult, EvaluationSummary } from '@shared/contracts/evaluations';

/** The latest finished evaluation of `version`; cancelled or interrupted runs have no full verdict. */
export const latestDone = (evaluations: readonly EvaluationSummary[], version: number) =>
  evaluations.find((e) => e.version === version && e.status === 'done');

export interface ComparedQuery {
  query: string;
  before: EvaluationResult | undefined;
  after: EvaluationResult | undefined;
  /** Passed before, fails now. */
  regression: boolean;
}

/** The two runs' results side by side, query by query, in the order of the newer run (then any the older had). */
export function compareResults(
  before: readonly EvaluationResult[],
  after: readonly EvaluationResult[],
): ComparedQuery[] {
  const queries = [...new Set([...after.map((r) => r.query), ...before.map((r) => r.query)])];
  return queries.map((query) => {
    const b = before.find((r) => r.query === query);
    const a = after.find((r) => r.query === query);
    return { query, before: b, after: a, regression: b?.verdict === 'pass' && a?.verdict === 'fail' };
  });
}
