import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProfileBody, User } from '@shared/contracts/auth';
import { toast } from '@/components/ui/use-toast';
import { setCurrentUser } from '@/lib/auth';
import { apiRequest, serverMessage } from '@/lib/request';

function updateProfile(body: ProfileBody): Promise<User> {
  return apiRequest<User>('PATCH', '/api/auth/profile', body);
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (user) => {
      setCurrentUser(queryClient, user);
      toast({ title: 'Profile updated', description: 'Your profile information has been saved successfully.' });
    },
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: 'Update failed',
        description: serverMessage(error) ?? 'Failed to update profile. Please try again.',
      });
    },
  });
}
