import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import {
  evaluationEventSchema,
  type Evaluation,
  type EvaluationEvent,
  type EvaluationSummary,
} from '@shared/contracts/evaluations';
import { botKeys } from '@/entities/bot/api/bot-keys';
import { readNdjson } from '@/lib/ndjson';
import { apiFetch, apiRequest, serverMessage } from '@/lib/request';

const evaluationKeys = {
  list: (botId: number) => [...botKeys.detail(botId), 'evaluations'] as const,
  one: (botId: number, id: number) => [...botKeys.detail(botId), 'evaluations', id] as const,
};

export function useEvaluations(botId: number) {
  return useQuery({
    queryKey: evaluationKeys.list(botId),
    queryFn: () => apiRequest<EvaluationSummary[]>('GET', `/api/bots/${botId}/evaluations`),
  });
}

export function useEvaluation(botId: number, id: number | undefined) {
  return useQuery({
    queryKey: evaluationKeys.one(botId, id ?? 0),
    queryFn: () => apiRequest<Evaluation>('GET', `/api/bots/${botId}/evaluations/${id}`),
    enabled: id !== undefined,
  });
}

async function* runEvaluation(botId: number, version: number, signal: AbortSignal): AsyncGenerator<EvaluationEvent> {
  const res = await apiFetch('POST', `/api/bots/${botId}/evaluations`, { body: { version }, signal });
  yield* readNdjson(res, evaluationEventSchema);
}

export interface EvaluationProgress {
  version: number;
  done: number;
  total: number;
}

/**
 * Runs the test set on a version, with its progress as results arrive; `cancel` stops it on the server too.
 * The lists are refreshed when it ends, however it ends. `error` is the server's refusal (409, 429, 503).
 */
export function useRunEvaluation(botId: number) {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<EvaluationProgress | null>(null);
  const [error, setError] = useState<string | null>(null);
  const running = useRef<AbortController | null>(null);

  useEffect(() => () => running.current?.abort(), []);

  async function start(version: number) {
    const controller = new AbortController();
    running.current = controller;
    setError(null);
    setProgress({ version, done: 0, total: 0 });
    try {
      for await (const event of runEvaluation(botId, version, controller.signal)) {
        if (event.type === 'started') setProgress({ version, done: 0, total: event.evaluation.total });
        if (event.type === 'result') setProgress((p) => p && { ...p, done: p.done + 1 });
      }
    } catch (failure) {
      if (!controller.signal.aborted) setError(serverMessage(failure) ?? 'The evaluation could not run.');
    } finally {
      running.current = null;
      setProgress(null);
      await queryClient.invalidateQueries({ queryKey: evaluationKeys.list(botId) });
    }
  }

  return { progress, error, start, cancel: () => running.current?.abort() };
}
