import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordBody } from '@shared/contracts/auth';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, serverMessage } from '@/lib/request';

function changePassword(body: ChangePasswordBody): Promise<{ message: string }> {
  return apiRequest<{ message: string }>('POST', '/api/auth/change-password', body);
}

export function useChangePassword() {
  return useMutation({
    mutationFn: changePassword,
    onSuccess: () => {
      toast({ title: 'Password updated', description: 'Your password has been changed successfully.' });
    },
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: 'Password change failed',
        description: serverMessage(error) ?? 'Current password is incorrect or there was a server error.',
      });
    },
  });
}
