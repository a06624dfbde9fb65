import type { ComparedQuestion, Evaluation, EvaluationResult, QuestionChange } from '../contracts/evaluations';
import { QUESTION_CHANGES } from '../contracts/evaluations';

export interface EvaluationsCompared {
  questions: ComparedQuestion[];
  totals: Record<QuestionChange, number>;
  passRate: { before: number | null; after: number | null };
}

/** An answer with a verdict the two runs can be compared on: graded pass or fail. */
const graded = (r: EvaluationResult | null | undefined): r is EvaluationResult & { verdict: 'pass' | 'fail' } =>
  r?.verdict === 'pass' || r?.verdict === 'fail';

function changeOf(before: EvaluationResult | null, after: EvaluationResult): QuestionChange {
  if (!before) return 'new';
  if (!graded(before) || !graded(after)) return 'not_compared';
  if (before.verdict !== after.verdict) return after.verdict === 'pass' ? 'better' : 'regression';
  if (before.score === null || after.score === null || before.score === after.score) return 'same';
  return after.score > before.score ? 'better' : 'worse';
}

/** Passed of the graded answers; an answer the judge could not grade is neither, and left out. */
export function passRate(results: readonly EvaluationResult[]): number | null {
  const counted = results.filter((r) => r.verdict !== 'judge_unavailable');
  return counted.length === 0 ? null : counted.filter((r) => r.verdict === 'pass').length / counted.length;
}

/**
 * The questions of `after` (in its order) each matched with the same question of `before` by its text, and how
 * it fared. Questions `before` had and `after` no longer asks are left out: they say nothing of the newer run.
 */
export function compareEvaluations(
  before: Pick<Evaluation, 'results'>,
  after: Pick<Evaluation, 'results'>,
): EvaluationsCompared {
  const earlier = new Map(before.results.map((r) => [r.query, r]));
  const questions = after.results.map((r): ComparedQuestion => {
    const b = earlier.get(r.query) ?? null;
    return { query: r.query, before: b, after: r, change: changeOf(b, r) };
  });
  const totals = Object.fromEntries(QUESTION_CHANGES.map((c) => [c, 0])) as Record<QuestionChange, number>;
  for (const q of questions) totals[q.change] += 1;
  return { questions, totals, passRate: { before: passRate(before.results), after: passRate(after.results) } };
}

const count = (n: number, one: string, many = one) => `${n} ${n === 1 ? one : many}`;

/** "Version 5 vs version 4: 3 better, 1 worse, 1 regression"; "…: no changes" when every question fared the same. */
export function verdictSentence(
  versions: { before: number; after: number },
  totals: Record<QuestionChange, number>,
): string {
  const parts = [
    totals.better && count(totals.better, 'better'),
    totals.worse && count(totals.worse, 'worse'),
    totals.regression && count(totals.regression, 'regression', 'regressions'),
    totals.new && count(totals.new, 'new'),
    totals.not_compared && count(totals.not_compared, 'not compared'),
  ].filter(Boolean);
  return `Version ${versions.after} vs version ${versions.before}: ${parts.join(', ') || 'no changes'}`;
}
