import { useNavigate } from 'react-router';
import { useCopyBot } from '@/entities/bot/api/sharing';
import { toast } from '@/components/ui/use-toast';
import { serverMessage } from '@/lib/request';

/** "Add to my botties": the copy is made, then shown among the caller's own. */
export function useAddCopy() {
  const copy = useCopyBot();
  const navigate = useNavigate();
  const add = (from: { slug: string } | { id: number }) =>
    copy.mutate(from, {
      onSuccess: (bot) => {
        toast({ title: 'Added to your botties', description: `${bot.name} is now yours to change and chat with.` });
        void navigate('/dashboard');
      },
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Could not add the botty',
          description: serverMessage(error) ?? 'Please try again.',
        }),
    });
  return { add, isPending: copy.isPending, variables: copy.variables };
}
