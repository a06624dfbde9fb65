import { useMutation } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, serverMessage } from '@/lib/request';
import { saveFile } from '@/lib/save-file';

/** Fetched with the bearer token, then handed to the browser as a file. */
async function exportAccount(username: string): Promise<void> {
  const data = await apiRequest<{ exportedAt: string }>('GET', '/api/account/export');
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
  saveFile(blob, `botty-export-${username}-${data.exportedAt.slice(0, 10)}.json`);
}

export function useExportAccount() {
  return useMutation({
    mutationFn: exportAccount,
    onSuccess: () => toast({ title: 'Export ready', description: 'Your data has been downloaded as a JSON file.' }),
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'Export failed',
        description: serverMessage(error) ?? 'Please try again later.',
      }),
  });
}
