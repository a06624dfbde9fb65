import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type { UsageReport } from '@shared/contracts/admin';
import { toast } from '@/components/ui/use-toast';
import { apiFetch, apiRequest, serverMessage } from '@/lib/request';
import { attachmentName, saveFile } from '@/lib/save-file';
import { adminKeys } from './admin-keys';

export interface UsageRange {
  from: string;
  to: string;
}

const usageUrl = ({ from, to }: UsageRange, format: 'json' | 'csv') =>
  `/api/admin/usage?${new URLSearchParams({ from, to, format })}`;

export function useAdminUsage(range: UsageRange) {
  return useQuery({
    queryKey: adminKeys.usage(range),
    queryFn: () => apiRequest<UsageReport>('GET', usageUrl(range, 'json')),
    placeholderData: keepPreviousData,
  });
}

/** The CSV is fetched with the bearer token (a plain link could not send it), then saved as a file. */
export function useDownloadUsageCsv() {
  return useMutation({
    mutationFn: async (range: UsageRange) => {
      const res = await apiFetch('GET', usageUrl(range, 'csv'));
      saveFile(await res.blob(), attachmentName(res, `botty-usage-${range.from}-${range.to}.csv`));
    },
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'Download failed',
        description: serverMessage(error) ?? 'Please try again.',
      }),
  });
}
