import { ArrowRight, Check, CircleCheck, Lightbulb, Plus, Sparkles, Square, X } from 'lucide-react';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { buildLocalPrompt } from '@shared/bots/prompt-template';
import {
  ADVISED_TRAINING_EXAMPLES,
  botFieldsOf,
  canStartTraining,
  MIN_TRAINING_EXAMPLES,
  type PromptSource,
} from '../model/wizard';
import { EXAMPLE_QUERIES_MAX, EXAMPLE_QUERY_MAX } from '@shared/constants';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Progress } from '@/components/ui/progress';
import { useTraining } from '../hooks/use-training';
import type { Wizard } from '../hooks/use-wizard';
import { PromptDialog } from './prompt-dialog';
import { StepFooter } from './step-footer';
import { TestAnswers } from './test-answers';

/** The result's prompt, named for where it came from: only a model's is AI-enhanced. */
const PROMPT_TITLES: Record<PromptSource | 'saved', string> = {
  model: 'AI-enhanced prompt',
  template: 'Prompt built from your description',
  saved: 'Current prompt',
};

/** Step 3: example queries, the local prompt, training, and its result (spec §4 "Training step"). */
export function TrainStep({
  wizard,
  botId,
  onTrainingChange,
}: {
  wizard: Wizard;
  /** The bot being edited, whose knowledge files its test answers use; null while creating. */
  botId: number | null;
  onTrainingChange: (training: boolean) => void;
}) {
  const { draft, exampleQueries, generatedQueries, promptSource, answers, testNotes } = wizard.state;
  const training = useTraining({ onAnswer: wizard.answerArrived, onDone: wizard.trained });
  const trainedPrompt = draft.config.systemPrompt;
  const subject = { name: draft.name.trim(), description: draft.description.trim(), purpose: draft.purpose };
  const id = useId();
  const tipId = `${id}-tip`;
  // No model answered: the prompt says so, and there are no answers to show.
  const showAnswers = answers.length > 0 && (training.isTraining || promptSource === 'model');

  const start = async () => {
    onTrainingChange(true);
    wizard.clearAnswers();
    const { name, description, purpose, capabilities, config } = botFieldsOf(draft);
    await training.start({ name, description, purpose, capabilities, config, queries: exampleQueries, botId });
    onTrainingChange(false);
  };

  return (
    <div className="grid gap-8">
      <ExampleQueries
        examples={exampleQueries}
        onAdd={wizard.addExample}
        onRemove={wizard.removeExample}
        disabled={training.isTraining}
        tipId={tipId}
      />

      {!trainedPrompt && <PromptBlock title="Generated prompt" text={buildLocalPrompt(subject)} />}

      <div className="grid gap-4">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
          <Button
            variant={trainedPrompt ? 'outline' : 'default'}
            onClick={() => void start()}
            disabled={training.isTraining || !canStartTraining(exampleQueries)}
            aria-describedby={tipId}
          >
            <Sparkles aria-hidden="true" />
            {trainedPrompt ? 'Train again' : 'Start Training'}
          </Button>
          {training.isTraining && (
            <Button variant="outline" onClick={training.cancel}>
              <Square aria-hidden="true" />
              Cancel training
            </Button>
          )}
          {!canStartTraining(exampleQueries) && (
            <p className="text-sm text-muted-foreground">
              Add at least {MIN_TRAINING_EXAMPLES} example queries to start training.
            </p>
          )}
        </div>
        {training.progress !== null && (
          <div className="grid gap-2">
            <div className="flex items-center justify-between text-sm">
              <span id={`${id}-progress`} aria-live="polite" className="font-medium">
                {training.isTraining ? 'Training your botty...' : 'Training complete'}
              </span>
              <span className="text-muted-foreground tabular-nums" aria-hidden="true">
                {training.progress}%
              </span>
            </div>
            <Progress value={training.progress} aria-labelledby={`${id}-progress`} />
          </div>
        )}
      </div>

      {showAnswers && (
        <TestAnswers
          answers={answers}
          notes={testNotes}
          canRate={!training.isTraining}
          onRate={wizard.rate}
          onExpect={wizard.noteExpected}
        />
      )}

      {trainedPrompt && !training.isTraining && (
        <section aria-labelledby={`${id}-result`} className="grid gap-5 rounded-xl border bg-muted/40 p-4 sm:p-5">
          <h3 id={`${id}-result`} className="flex items-center gap-2 text-base font-semibold">
            <CircleCheck className="size-5 text-primary" aria-hidden="true" />
            Your botty is trained
          </h3>
          {promptSource === 'template' && (
            <p className="text-sm text-muted-foreground">
              No language model answered, so this prompt was built from your description.
            </p>
          )}
          <PromptBlock
            title={PROMPT_TITLES[promptSource ?? 'saved']}
            text={trainedPrompt}
            action={<PromptDialog prompt={trainedPrompt} onSave={wizard.savePrompt} onSaved={wizard.next} />}
          />
          {draft.config.customPrompt && (
            <p className="text-sm text-muted-foreground">
              This botty also has a custom prompt, set from the dashboard, which it follows instead of this one.
            </p>
          )}
          {generatedQueries.length > 0 && (
            <div className="grid gap-2">
              <h4 className="text-sm font-semibold">Generated example queries</h4>
              <p className="text-sm text-muted-foreground">
                Keep the ones you want: they join your example queries, which test your botty and start its chats.
              </p>
              <ul className="grid gap-2">
                {generatedQueries.map((query) => (
                  <GeneratedQuery
                    key={query}
                    query={query}
                    kept={exampleQueries.includes(query)}
                    full={exampleQueries.length >= EXAMPLE_QUERIES_MAX}
                    onKeep={() => wizard.addExample(query)}
                  />
                ))}
              </ul>
            </div>
          )}
        </section>
      )}

      <StepFooter onBack={wizard.back} backDisabled={training.isTraining}>
        {trainedPrompt && !training.isTraining && (
          <Button onClick={wizard.next}>
            Review Botty
            <ArrowRight aria-hidden="true" />
          </Button>
        )}
      </StepFooter>
    </div>
  );
}

function GeneratedQuery({
  query,
  kept,
  full,
  onKeep,
}: {
  query: string;
  kept: boolean;
  full: boolean;
  onKeep: () => void;
}) {
  return (
    <li className="flex min-h-10 items-center gap-2 rounded-lg border bg-background py-1 pr-1 pl-3 text-sm">
      <span className="min-w-0 flex-1 break-words">{query}</span>
      {kept ? (
        <span className="flex items-center gap-1 px-2 text-muted-foreground">
          <Check className="size-4" aria-hidden="true" />
          Kept
        </span>
      ) : (
        <Button variant="ghost" size="sm" onClick={onKeep} disabled={full} aria-label={`Keep: ${query}`}>
          <Plus aria-hidden="true" />
          Keep
        </Button>
      )}
    </li>
  );
}

interface ExampleQueriesProps {
  examples: string[];
  onAdd: (text: string) => void;
  onRemove: (index: number) => void;
  disabled: boolean;
  tipId: string;
}

function ExampleQueries({ examples, onAdd, onRemove, disabled, tipId }: ExampleQueriesProps) {
  const [text, setText] = useState('');
  const inputId = useId();

  const add = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) return;
    onAdd(text);
    setText('');
  };

  return (
    <section className="grid gap-3" aria-labelledby={`${inputId}-title`}>
      <div className="grid gap-1">
        <h3 id={`${inputId}-title`} className="text-base font-semibold">
          Example queries
        </h3>
        <p className="text-sm text-muted-foreground">
          Questions people will ask your botty. Training uses them to shape its prompt.
        </p>
      </div>
      <form onSubmit={add} className="grid gap-2">
        <Label htmlFor={inputId}>Example query</Label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Input
            id={inputId}
            value={text}
            onChange={(e) => setText(e.target.value)}
            maxLength={EXAMPLE_QUERY_MAX}
            placeholder="e.g. What can I cook with rice and spinach?"
            disabled={disabled}
            autoComplete="off"
          />
          <Button
            type="submit"
            variant="secondary"
            disabled={disabled || !text.trim() || examples.length >= EXAMPLE_QUERIES_MAX}
          >
            <Plus aria-hidden="true" />
            Add Example
          </Button>
        </div>
      </form>
      {examples.length > 0 && (
        <ol className="grid gap-2" aria-label="Your example queries">
          {examples.map((example, index) => (
            <li
              key={example}
              className="flex items-center gap-2 rounded-lg border bg-background py-1 pr-1 pl-3 text-sm"
            >
              <span className="min-w-0 flex-1 break-words">{example}</span>
              <Button
                variant="ghost"
                size="icon"
                onClick={() => onRemove(index)}
                disabled={disabled}
                aria-label={`Remove example: ${example}`}
              >
                <X aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ol>
      )}
      <p id={tipId} className="flex items-start gap-2 rounded-lg bg-accent/60 px-3 py-2 text-sm text-accent-foreground">
        <Lightbulb className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        Tip: add at least {ADVISED_TRAINING_EXAMPLES} example queries for the best results.
      </p>
    </section>
  );
}

function PromptBlock({ title, text, action }: { title: string; text: string; action?: ReactNode }) {
  const id = useId();
  return (
    <div className="grid gap-2">
      <div className="flex items-center justify-between gap-3">
        <h4 id={id} className="text-sm font-semibold">
          {title}
        </h4>
        {action}
      </div>
      <pre
        tabIndex={0}
        role="region"
        aria-labelledby={id}
        className="max-h-72 overflow-auto rounded-lg border bg-background p-3 font-sans text-sm leading-relaxed whitespace-pre-wrap focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      >
        {text}
      </pre>
    </div>
  );
}
