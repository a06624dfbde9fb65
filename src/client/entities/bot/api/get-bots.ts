import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Bot } from '@shared/contracts/bots';
import { useAuth } from '@/lib/auth';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, serverMessage } from '@/lib/request';

export const BOTS_QUERY_KEY = ['/api/bots'] as const;

/** Spec §7/§8: a failed list is logged (by apiRequest), reported, and treated as empty rather than breaking the page. */
export async function getBots(): Promise<Bot[]> {
  try {
    return await apiRequest<Bot[]>('GET', '/api/bots');
  } catch (error) {
    toast({
      variant: 'destructive',
      title: 'Failed to fetch bots',
      description: serverMessage(error) ?? 'Please try again later.',
    });
    return [];
  }
}

export const botsQueryOptions = queryOptions({ queryKey: BOTS_QUERY_KEY, queryFn: getBots });

/** The list loads only for a signed-in user (spec §6). */
export function useBots() {
  const { isAuthenticated } = useAuth();
  return useQuery({ ...botsQueryOptions, enabled: isAuthenticated });
}
