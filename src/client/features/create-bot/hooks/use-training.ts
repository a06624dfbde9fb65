import { useEffect, useRef, useState } from 'react';
import { buildLocalPrompt, localExampleQueries } from '@shared/bots/prompt-template';
import type { GeneratePromptResponse } from '@shared/contracts/bots';
import type { PreviewAnswersRequest } from '@shared/contracts/training';
import { nextTrainingProgress, TRAINING_INTERVAL_MS, type TestAnswer } from '../model/wizard';
import { generatePrompt } from '../api/generate-prompt';
import { previewAnswers } from '../api/preview-answers';

export type TrainingResult = GeneratePromptResponse;

/** The draft as training sends it: the bot's fields, its example queries and, editing, the bot's id. */
export type TrainingSubject = PreviewAnswersRequest['bot'] & { queries: string[]; botId: number | null };

/**
 * Spec §8: a failed generation is not an error to the user; the locally built prompt stands in, and says so
 * (`source: 'template'`). A cancelled one too.
 */
async function promptFor(subject: TrainingSubject, signal: AbortSignal): Promise<TrainingResult> {
  const { name, description, purpose, queries } = subject;
  try {
    return await generatePrompt({ name, description, purpose, exampleQueries: queries }, signal);
  } catch {
    return {
      systemPrompt: buildLocalPrompt(subject),
      exampleQueries: localExampleQueries(purpose, name),
      source: 'template',
    };
  }
}

interface TrainingCallbacks {
  onAnswer: (answer: TestAnswer) => void;
  onDone: (result: TrainingResult) => void;
}

/**
 * Training (spec §4): the bar rises while the prompt is generated with the example queries and then, when a
 * model wrote it, while the bot answers each example query with it (each answer handed to `onAnswer` as it
 * arrives). It is held below 100 until all of that is done, then fills. `cancel` stops whatever is still
 * running; what finished stands. `progress` is null until training first starts.
 */
export function useTraining({ onAnswer, onDone }: TrainingCallbacks) {
  const [progress, setProgress] = useState<number | null>(null);
  const [isTraining, setIsTraining] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  const running = useRef<AbortController | null>(null);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      window.clearInterval(timer.current);
      running.current?.abort();
    };
  }, []);

  async function answerQueries(subject: TrainingSubject, systemPrompt: string, signal: AbortSignal) {
    const { queries, botId, ...bot } = subject;
    try {
      const request = {
        bot: { ...bot, config: { ...bot.config, systemPrompt } },
        queries,
        ...(botId === null ? {} : { botId }),
      };
      for await (const event of previewAnswers(request, signal)) {
        // A query the model failed on has no answer to show; the others still do.
        if (event.type === 'answer' && mounted.current) onAnswer({ query: event.query, answer: event.answer });
      }
    } catch {
      // Cancelled, or the model went away part-way: the answers that arrived stand, and training ends.
    }
  }

  async function start(subject: TrainingSubject) {
    const controller = new AbortController();
    running.current = controller;
    setIsTraining(true);
    setProgress(0);
    timer.current = window.setInterval(() => setProgress((p) => nextTrainingProgress(p ?? 0)), TRAINING_INTERVAL_MS);
    const result = await promptFor(subject, controller.signal);
    // Answers need a model; when none wrote the prompt, none is there to answer either.
    if (result.source === 'model' && !controller.signal.aborted) {
      await answerQueries(subject, result.systemPrompt, controller.signal);
    }
    window.clearInterval(timer.current);
    running.current = null;
    // Leaving the step mid-training drops the answer rather than changing a draft the user has moved on from.
    if (!mounted.current) return;
    setProgress(100);
    setIsTraining(false);
    onDone(result);
  }

  return { progress, isTraining, start, cancel: () => running.current?.abort() };
}
