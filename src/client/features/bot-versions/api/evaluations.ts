import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import {
  evaluationEventSchema,
  isEvaluationActive,
  type Evaluation,
  type EvaluationSummary,
} from '@shared/contracts/evaluations';
import { botKeys } from '@/entities/bot/api/bot-keys';
import { readNdjson } from '@/lib/ndjson';
import { apiFetch, apiRequest } from '@/lib/request';

const evaluationKeys = {
  list: (botId: number) => [...botKeys.detail(botId), 'evaluations'] as const,
  one: (botId: number, id: number) => [...botKeys.detail(botId), 'evaluations', id] as const,
};

/** While a run is queued or running (here, in another tab, or for a release), the list is read again now and then. */
const ACTIVE_REFRESH_MS = 5_000;

export function useEvaluations(botId: number) {
  return useQuery({
    queryKey: evaluationKeys.list(botId),
    queryFn: () => apiRequest<EvaluationSummary[]>('GET', `/api/bots/${botId}/evaluations`),
    refetchInterval: (query) =>
      query.state.data?.some((e) => isEvaluationActive(e.status)) ? ACTIVE_REFRESH_MS : false,
  });
}

export function useEvaluation(botId: number, id: number | undefined) {
  return useQuery({
    queryKey: evaluationKeys.one(botId, id ?? 0),
    queryFn: () => apiRequest<Evaluation>('GET', `/api/bots/${botId}/evaluations/${id}`),
    enabled: id !== undefined,
  });
}

/** Queues a run of the test set on a version; the server runs it whether or not the page stays open. */
export function useStartEvaluation(botId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (version: number) =>
      apiRequest<EvaluationSummary>('POST', `/api/bots/${botId}/evaluations`, { version }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: evaluationKeys.list(botId) }),
  });
}

export function useCancelEvaluation(botId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest<EvaluationSummary>('POST', `/api/bots/${botId}/evaluations/${id}/cancel`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: evaluationKeys.list(botId) }),
  });
}

/**
 * How far a queued or running evaluation has come, from its events (the stored results first, then each new one),
 * followed for as long as the page shows it; when it ends, the lists are read again. Coming back to the page
 * follows it again from the start.
 */
export function useEvaluationProgress(botId: number, run: EvaluationSummary | undefined): number | undefined {
  const queryClient = useQueryClient();
  const [completed, setCompleted] = useState<{ id: number; done: number }>();
  const id = run && isEvaluationActive(run.status) ? run.id : undefined;

  useEffect(() => {
    if (id === undefined) return;
    const controller = new AbortController();
    void (async () => {
      try {
        const res = await apiFetch('GET', `/api/bots/${botId}/evaluations/${id}/events`, {
          signal: controller.signal,
        });
        for await (const event of readNdjson(res, evaluationEventSchema)) {
          if (event.type === 'started') setCompleted({ id, done: 0 });
          if (event.type === 'result') setCompleted((c) => ({ id, done: (c?.id === id ? c.done : 0) + 1 }));
        }
      } catch {
        // Lost or left: the list, read again below, says where the run is.
      }
      if (controller.signal.aborted) return;
      await queryClient.invalidateQueries({ queryKey: evaluationKeys.list(botId) });
    })();
    return () => controller.abort();
  }, [botId, id, queryClient]);

  return completed?.id === id ? completed?.done : run?.completed;
}
