import { useMutation } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, serverMessage } from '@/lib/request';

/** Fetched with the bearer token (a plain link could not send it), then handed to the browser as a file. */
async function exportAccount(username: string): Promise<void> {
  const data = await apiRequest<{ exportedAt: string }>('GET', '/api/account/export');
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `botty-export-${username}-${data.exportedAt.slice(0, 10)}.json`;
  link.click();
  URL.revokeObjectURL(url);
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
