import { useMutation } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { apiRequest } from '@/lib/request';

function verifyEmail(token: string): Promise<{ message: string }> {
  return apiRequest<{ message: string }>('GET', `/api/auth/verify-email/${encodeURIComponent(token)}`);
}

/** A mutation rather than a query: the token is single-use and must be spent exactly once. */
export function useVerifyEmail() {
  return useMutation({
    mutationFn: verifyEmail,
    onError: () => {
      toast({
        variant: 'destructive',
        title: 'Verification failed',
        description: 'The verification link may have expired or is invalid.',
      });
    },
  });
}
