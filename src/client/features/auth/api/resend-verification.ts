import { useMutation } from '@tanstack/react-query';
import type { EmailBody } from '@shared/contracts/auth';
import { toast } from '@/components/ui/use-toast';
import { apiRequest } from '@/lib/request';

function resendVerification(body: EmailBody): Promise<{ message: string }> {
  return apiRequest<{ message: string }>('POST', '/api/auth/resend-verification', body);
}

export function useResendVerification() {
  return useMutation({
    mutationFn: resendVerification,
    onSuccess: () => {
      toast({ title: 'Verification email sent', description: 'Please check your inbox for the verification link.' });
    },
    onError: () => {
      toast({
        variant: 'destructive',
        title: 'Failed to send verification email',
        description: 'Please try again later.',
      });
    },
  });
}
