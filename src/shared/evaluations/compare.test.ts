import { describe, expect, it } from 'vitest';
import type { EvaluationResult, VerdictKind } from '../contracts/evaluations';
import { compareEvaluations, passRate, verdictSentence } from './compare';

const result = (query: string, verdict: VerdictKind | null, score: number | null = null): EvaluationResult => ({
  index: 0,
  testCaseId: null,
  query,
  answer: verdict ? 'An answer' : null,
  verdict,
  score,
  reason: null,
  error: verdict ? null : 'No answer',
  faithfulness: null,
});
const run = (...results: EvaluationResult[]) => ({ results });

describe('comparing two evaluations', () => {
  it('classifies each question of the newer run, matched by its text', () => {
    const before = run(
      result('fixed', 'fail'),
      result('broke', 'pass'),
      result('graded up', 'pass', 3),
      result('graded down', 'fail', 3),
      result('unchanged', 'pass', 4),
      result('no score', 'pass', 4),
      result('judge out', 'judge_unavailable'),
      result('no answer', 'pass'),
      result('dropped', 'pass'),
    );
    const after = run(
      result('fixed', 'pass'),
      result('broke', 'fail'),
      result('graded up', 'pass', 5),
      result('graded down', 'fail', 2),
      result('unchanged', 'pass', 4),
      result('no score', 'pass'),
      result('judge out', 'pass'),
      result('no answer', null),
      result('brand new', 'fail'),
    );
    const { questions, totals } = compareEvaluations(before, after);
    expect(questions.map((q) => [q.query, q.change])).toEqual([
      ['fixed', 'better'],
      ['broke', 'regression'],
      ['graded up', 'better'],
      ['graded down', 'worse'],
      ['unchanged', 'same'],
      ['no score', 'same'],
      ['judge out', 'not_compared'],
      ['no answer', 'not_compared'],
      ['brand new', 'new'],
    ]);
    expect(questions[8]!.before).toBeNull();
    expect(totals).toEqual({ better: 2, worse: 1, regression: 1, same: 2, new: 1, not_compared: 2 });
  });

  it('leaves answers the judge could not grade out of the pass rate, and has none with nothing graded', () => {
    expect(passRate([result('a', 'pass'), result('b', 'fail'), result('c', 'judge_unavailable')])).toBe(0.5);
    // No answer at all is a failed question.
    expect(passRate([result('a', 'pass'), result('b', null)])).toBe(0.5);
    expect(passRate([result('a', 'judge_unavailable')])).toBeNull();
    expect(compareEvaluations(run(), run(result('a', 'pass'))).passRate).toEqual({ before: null, after: 1 });
  });

  it('reads as a verdict line, leaving out what did not happen', () => {
    const none = { better: 0, worse: 0, regression: 0, same: 0, new: 0, not_compared: 0 };
    expect(verdictSentence({ before: 4, after: 5 }, { ...none, better: 3, worse: 1, regression: 1, same: 2 })).toBe(
      'Version 5 vs version 4: 3 better, 1 worse, 1 regression',
    );
    expect(verdictSentence({ before: 1, after: 2 }, { ...none, regression: 2, new: 1, not_compared: 1 })).toBe(
      'Version 2 vs version 1: 2 regressions, 1 new, 1 not compared',
    );
    expect(verdictSentence({ before: 1, after: 2 }, { ...none, same: 4 })).toBe('Version 2 vs version 1: no changes');
  });
});
