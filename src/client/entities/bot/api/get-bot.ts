import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Bot } from '@shared/contracts/bots';
import { apiRequest } from '@/lib/request';
import { botKeys } from './bot-keys';
import { botUrl } from './bot-url';

const getBot = (id: number) => apiRequest<Bot>('GET', botUrl(id));

export const botQueryOptions = (id: number) =>
  queryOptions({ queryKey: botKeys.detail(id), queryFn: () => getBot(id) });

export function useBot(id: number | undefined) {
  return useQuery({ ...botQueryOptions(id ?? 0), enabled: id !== undefined && id > 0 });
}
