import { useEffect, useRef, useState } from 'react';
import { buildLocalPrompt, localExampleQueries } from '@shared/bots/prompt-template';
import { nextTrainingProgress, TRAINING_INTERVAL_MS } from '../model/wizard';
import type { GeneratePromptBody } from '@shared/contracts/bots';
import { generatePrompt } from '../api/generate-prompt';

export interface TrainingResult {
  systemPrompt: string;
  exampleQueries: string[];
}

/** Spec §8: a failed generation is not an error to the user; the locally built prompt stands in. */
async function promptFor(subject: GeneratePromptBody): Promise<TrainingResult> {
  try {
    return await generatePrompt(subject);
  } catch {
    return {
      systemPrompt: buildLocalPrompt(subject),
      exampleQueries: localExampleQueries(subject.purpose, subject.name),
    };
  }
}

/**
 * Training (spec §4): the bar rises while the prompt is generated, is held below 100 until the answer is in,
 * then fills. `progress` is null until training first starts.
 */
export function useTraining(onDone: (result: TrainingResult) => void) {
  const [progress, setProgress] = useState<number | null>(null);
  const [isTraining, setIsTraining] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      window.clearInterval(timer.current);
    };
  }, []);

  async function start(subject: GeneratePromptBody) {
    setIsTraining(true);
    setProgress(0);
    timer.current = window.setInterval(() => setProgress((p) => nextTrainingProgress(p ?? 0)), TRAINING_INTERVAL_MS);
    const result = await promptFor(subject);
    window.clearInterval(timer.current);
    // Leaving the step mid-training drops the answer rather than changing a draft the user has moved on from.
    if (!mounted.current) return;
    setProgress(100);
    setIsTraining(false);
    onDone(result);
  }

  return { progress, isTraining, start };
}
