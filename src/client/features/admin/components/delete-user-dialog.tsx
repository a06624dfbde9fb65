import { useState } from 'react';
import type { AdminUser } from '@shared/contracts/admin';
import { ConfirmDeleteDialog } from '@/components/confirm-delete-dialog';
import { FormField } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { useDeleteAdminUser } from '@/entities/admin/api/users';
import { serverMessage } from '@/lib/request';

/** Deleting an account is confirmed by typing its username, so the wrong row is not deleted by a slip. */
export function DeleteUserDialog({ person, onClose }: { person: AdminUser | null; onClose: () => void }) {
  const remove = useDeleteAdminUser();
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string>();

  const confirm = () => {
    if (!person) return;
    if (typed.trim() !== person.username) {
      setError(`Type ${person.username} to confirm`);
      return;
    }
    remove.mutate(person.id, {
      onSuccess: () => {
        toast({ title: 'Account deleted', description: person.username });
        onClose();
      },
      onError: (failure) => setError(serverMessage(failure) ?? 'Could not delete the account. Please try again.'),
    });
  };

  return (
    <ConfirmDeleteDialog
      open={person !== null}
      onClose={onClose}
      title={`Delete ${person?.username ?? ''}?`}
      description="This permanently deletes the account, its botties, conversations and files. It cannot be undone."
      confirmLabel="Delete account"
      pending={remove.isPending}
      onConfirm={confirm}
    >
      <FormField label="Type the username to confirm" error={error}>
        <Input
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
        />
      </FormField>
    </ConfirmDeleteDialog>
  );
}
