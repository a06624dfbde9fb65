import type { Evaluation } from '@shared/contracts/evaluations';
import type { ReleaseGate, ReleaseVerdict } from '@shared/contracts/releases';
import { compareEvaluations, verdictSentence } from '@shared/evaluations/compare';

const percent = (rate: number) => `${Math.round(rate * 100)}%`;

/** A release with no test set: nothing held it back, and the history says nothing was tested. */
export const untestedVerdict = (gate: ReleaseGate): ReleaseVerdict => ({
  tested: false,
  passRate: null,
  baselinePassRate: null,
  better: 0,
  worse: 0,
  regressions: 0,
  judgeUnavailable: 0,
  summary: 'Nothing was tested: the botty has no test set.',
  blockedBy: [],
  questions: [],
  gate,
});

/**
 * Holds the release's run against the gate and the published version's run (none for a first release): blocked
 * by more regressions than allowed, by a pass rate under the minimum (or, without one, under the published
 * version's), or when the judge graded nothing. A question the judge could not grade counts for nothing.
 */
export function judgeRelease(gate: ReleaseGate, after: Evaluation, before: Evaluation | null): ReleaseVerdict {
  const compared = compareEvaluations(before ?? { results: [] }, after);
  const { totals } = compared;
  const passRate = compared.passRate.after;
  const baselinePassRate = before ? compared.passRate.before : null;
  const blockedBy: string[] = [];
  if (passRate === null) blockedBy.push('The judge could not grade any answer.');
  else if (gate.minPassRate !== null && passRate < gate.minPassRate) {
    blockedBy.push(`Pass rate ${percent(passRate)} is below the minimum of ${percent(gate.minPassRate)}.`);
  } else if (gate.minPassRate === null && baselinePassRate !== null && passRate < baselinePassRate) {
    blockedBy.push(
      `Pass rate ${percent(passRate)} is lower than version ${before!.version}’s ${percent(baselinePassRate)}.`,
    );
  }
  if (totals.regression > gate.maxRegressions) {
    const allowed = gate.maxRegressions === 0 ? 'none allowed' : `at most ${gate.maxRegressions} allowed`;
    blockedBy.push(`${totals.regression} ${totals.regression === 1 ? 'regression' : 'regressions'} (${allowed}).`);
  }
  return {
    tested: true,
    passRate,
    baselinePassRate,
    better: totals.better,
    worse: totals.worse,
    regressions: totals.regression,
    judgeUnavailable: after.results.filter((r) => r.verdict === 'judge_unavailable').length,
    summary: before
      ? verdictSentence({ before: before.version, after: after.version }, totals)
      : `Version ${after.version}: ${after.results.filter((r) => r.verdict === 'pass').length} of ${after.results.length} passed`,
    blockedBy,
    questions: compared.questions
      .filter((q) => q.change === 'regression' || q.change === 'worse' || (!before && q.after.verdict === 'fail'))
      .map((q) => ({
        query: q.query,
        change: q.change,
        before: q.before?.verdict ?? null,
        after: q.after.verdict,
        reason: q.after.reason ?? q.after.error,
      })),
    gate,
  };
}
