import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { deleteAccountBodySchema, type DeleteAccountBody } from '@shared/contracts/account';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { PendingButton } from '@/components/ui/pending-button';
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

  const change = (next: boolean) => {
    if (!next) {
      form.reset();
      mutation.reset();
    }
    onOpenChange(next);
  };

  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Delete your account?</DialogTitle>
          <DialogDescription>
            This permanently deletes your account, all your botties, their conversations and your activity. It cannot be
            undone.
          </DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" onSubmit={form.handleSubmit((body) => mutation.mutate(body))} noValidate>
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
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => change(false)}>
              Cancel
            </Button>
            <PendingButton type="submit" variant="destructive" pending={mutation.isPending} pendingLabel="Deleting...">
              Delete Account
            </PendingButton>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
