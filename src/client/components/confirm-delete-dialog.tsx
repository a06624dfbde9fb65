import type { FormEvent, ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { PendingButton } from '@/components/ui/pending-button';

interface ConfirmDeleteDialogProps {
  open: boolean;
  /** Cancel, Escape or a click outside; refused while the deletion runs. */
  onClose: () => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  pending: boolean;
  onConfirm: (event: FormEvent<HTMLFormElement>) => void;
  /** Fields to fill in before deleting (the account's password), between the text and the buttons. */
  children?: ReactNode;
}

/** The one confirmation before something is deleted for good: bots, conversations, the account. */
export function ConfirmDeleteDialog({
  open,
  onClose,
  title,
  description,
  confirmLabel,
  pending,
  onConfirm,
  children,
}: ConfirmDeleteDialogProps) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onConfirm(event);
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !next && !pending && onClose()}>
      {open && (
        // A plain yes-or-no interrupts (alertdialog); one with fields to fill in is an ordinary dialog.
        <DialogContent role={children ? 'dialog' : 'alertdialog'} className="sm:max-w-md">
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>{description}</DialogDescription>
          </DialogHeader>
          <form className="grid gap-4" onSubmit={submit} noValidate>
            {children}
            <DialogFooter>
              <Button type="button" variant="outline" disabled={pending} onClick={onClose}>
                Cancel
              </Button>
              <PendingButton type="submit" variant="destructive" pending={pending} pendingLabel="Deleting...">
                {confirmLabel}
              </PendingButton>
            </DialogFooter>
          </form>
        </DialogContent>
      )}
    </Dialog>
  );
}
