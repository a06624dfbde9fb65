import { ThumbsDown, ThumbsUp } from 'lucide-react';
import { useId } from 'react';
import { EXPECTATION_NOTE_MAX } from '@shared/constants';
import type { TestNote } from '@shared/contracts/bots';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import type { TestAnswer } from '../model/wizard';

interface TestAnswersProps {
  answers: TestAnswer[];
  notes: TestNote[];
  /** Ratings open once training is over, so the list does not move under the user's pointer. */
  canRate: boolean;
  onRate: (query: string, rating: TestNote['rating'] | null) => void;
  onExpect: (query: string, expected: string) => void;
}

/** The bot's answers to its example queries, shown as they arrive during training, then rated good or bad. */
export function TestAnswers({ answers, notes, canRate, onRate, onExpect }: TestAnswersProps) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="grid gap-3">
      <div className="grid gap-1">
        <h3 id={id} className="text-base font-semibold">
          Test answers
        </h3>
        <p className="text-sm text-muted-foreground">
          How your botty answers your example queries.
          {canRate && ' Mark each answer good or bad, and say what you expected.'}
        </p>
      </div>
      <ol className="grid gap-3" aria-live="polite">
        {answers.map(({ query, answer }) => (
          <AnswerCard
            key={query}
            query={query}
            answer={answer}
            note={notes.find((n) => n.query === query)}
            canRate={canRate}
            onRate={(rating) => onRate(query, rating)}
            onExpect={(expected) => onExpect(query, expected)}
          />
        ))}
      </ol>
    </section>
  );
}

interface AnswerCardProps {
  query: string;
  answer: string;
  note: TestNote | undefined;
  canRate: boolean;
  onRate: (rating: TestNote['rating'] | null) => void;
  onExpect: (expected: string) => void;
}

function AnswerCard({ query, answer, note, canRate, onRate, onExpect }: AnswerCardProps) {
  const id = useId();
  const toggle = (rating: TestNote['rating']) => onRate(note?.rating === rating ? null : rating);
  return (
    <li className="grid gap-2 rounded-lg border bg-background p-3" aria-labelledby={`${id}-q`}>
      <p id={`${id}-q`} className="text-sm font-semibold wrap-anywhere">
        {query}
      </p>
      <p className="text-sm leading-relaxed wrap-anywhere whitespace-pre-wrap text-muted-foreground">{answer}</p>
      {canRate && (
        <div className="grid gap-2">
          <div className="flex gap-2" role="group" aria-label={`Rate the answer to: ${query}`}>
            <Button
              variant={note?.rating === 'good' ? 'secondary' : 'outline'}
              size="sm"
              aria-pressed={note?.rating === 'good'}
              onClick={() => toggle('good')}
            >
              <ThumbsUp aria-hidden="true" className={note?.rating === 'good' ? 'fill-current' : undefined} />
              Good
            </Button>
            <Button
              variant={note?.rating === 'bad' ? 'secondary' : 'outline'}
              size="sm"
              aria-pressed={note?.rating === 'bad'}
              onClick={() => toggle('bad')}
            >
              <ThumbsDown aria-hidden="true" className={note?.rating === 'bad' ? 'fill-current' : undefined} />
              Bad
            </Button>
          </div>
          {note && (
            <div className="grid gap-1">
              <Label htmlFor={`${id}-expected`}>What did you expect?</Label>
              <Textarea
                id={`${id}-expected`}
                value={note.expected}
                onChange={(e) => onExpect(e.target.value)}
                maxLength={EXPECTATION_NOTE_MAX}
                rows={2}
                placeholder="e.g. A shorter answer with a recipe link"
              />
            </div>
          )}
        </div>
      )}
    </li>
  );
}
