import { useQuery } from '@tanstack/react-query';
import type { ModelChoice } from '@shared/contracts/admin';
import { apiRequest } from '@/lib/request';

export const MODELS_QUERY_KEY = ['models'] as const;

export interface ModelList {
  models: ModelChoice[];
  defaultModel: ModelChoice | null;
}

/** The models anyone signed in may pick (GET /api/models): the enabled ones of every connection. */
export function useModels() {
  return useQuery({
    queryKey: MODELS_QUERY_KEY,
    queryFn: () => apiRequest<ModelList>('GET', '/api/models'),
  });
}
