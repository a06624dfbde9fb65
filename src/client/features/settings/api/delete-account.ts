import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { DeleteAccountBody } from '@shared/contracts/account';
import { toast } from '@/components/ui/use-toast';
import { USER_QUERY_KEY } from '@/lib/auth';
import { apiRequest } from '@/lib/request';
import { clearSession } from '@/lib/storage';

const deleteAccount = (body: DeleteAccountBody) => apiRequest<{ message: string }>('DELETE', '/api/account', body);

/** Errors stay in the dialog (wrong password is the usual one), so there is no failure toast here. */
export function useDeleteAccount() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: deleteAccount,
    onSuccess: async ({ message }) => {
      clearSession();
      await navigate('/login');
      queryClient.clear();
      queryClient.setQueryData(USER_QUERY_KEY, null);
      toast({ title: 'Account deleted', description: message });
    },
  });
}
