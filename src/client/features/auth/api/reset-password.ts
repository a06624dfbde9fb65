import { useMutation } from '@tanstack/react-query';
import type { ResetPasswordBody } from '@shared/contracts/auth';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, serverMessage } from '@/lib/request';

function resetPassword(body: ResetPasswordBody): Promise<{ message: string }> {
  return apiRequest<{ message: string }>('POST', '/api/auth/reset-password', body);
}

export function useResetPassword() {
  return useMutation({
    mutationFn: resetPassword,
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: 'Password reset failed',
        description: serverMessage(error) ?? 'Failed to reset password. Please try again.',
      });
    },
  });
}
