import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { deleteAccountBodySchema, type DeleteAccountBody } from '@shared/contracts/account';
import { ConfirmDeleteDialog } from '@/components/confirm-delete-dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { serverMessage } from '@/lib/request';
import { useDeleteAccount } from '../api/delete-account';

export function DeleteAccountDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const mutation = useDeleteAccount();
  const form = useForm<DeleteAccountBody>({
    resolver: zodResolver(deleteAccountBodySchema),
    defaultValues: { password: '' },
  });
  const error =
    form.formState.errors.password?.message ?? (mutation.isError ? serverMessage(mutation.error) : undefined);

  const close = () => {
    form.reset();
    mutation.reset();
    onOpenChange(false);
  };

  return (
    <ConfirmDeleteDialog
      open={open}
      onClose={close}
      title="Delete your account?"
      description="This permanently deletes your account, all your botties, their conversations and your activity. It cannot be undone."
      confirmLabel="Delete Account"
      pending={mutation.isPending}
      onConfirm={form.handleSubmit((body) => mutation.mutate(body))}
    >
      <div className="grid gap-2">
        <Label htmlFor="delete-account-password">Confirm with your password</Label>
        <Input
          id="delete-account-password"
          type="password"
          autoComplete="current-password"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'delete-account-error' : undefined}
          {...form.register('password')}
        />
        {error && (
          <p id="delete-account-error" role="alert" className="text-sm text-destructive">
            {error}
          </p>
        )}
      </div>
    </ConfirmDeleteDialog>
  );
}
