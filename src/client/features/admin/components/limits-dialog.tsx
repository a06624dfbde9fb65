import { useForm } from 'react-hook-form';
import type { AdminUser, Limits } from '@shared/contracts/admin';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { PendingButton } from '@/components/ui/pending-button';
import { toast } from '@/components/ui/use-toast';
import { useUpdateAdminUser } from '@/entities/admin/api/users';
import { formErrors } from '../model/field-errors';
import { formatLimit, LIMIT_FIELDS, limitText, parseLimit } from '../model/format';

interface LimitsDialogProps {
  /** Whose limits; none closes the dialog. */
  person: AdminUser | null;
  /** The defaults of the person's role, named in the hints. */
  roleDefaults?: Limits;
  onClose: () => void;
}

/** One account's own daily limits; an empty field follows the role's default. */
export function LimitsDialog({ person, roleDefaults, onClose }: LimitsDialogProps) {
  const update = useUpdateAdminUser();
  const form = useForm({
    defaultValues: {
      dailyTokens: limitText(person?.limits.dailyTokens ?? null),
      dailyReplies: limitText(person?.limits.dailyReplies ?? null),
    },
  });
  const { fields, message } = formErrors(update.error);
  const hint = (value: number | null | undefined) =>
    `Empty: the role’s default${value === undefined ? '' : ` (${formatLimit(value)})`}.`;

  const submit = form.handleSubmit(({ dailyTokens, dailyReplies }) => {
    if (!person) return;
    update.mutate(
      {
        id: person.id,
        body: { limits: { dailyTokens: parseLimit(dailyTokens), dailyReplies: parseLimit(dailyReplies) } },
      },
      {
        onSuccess: () => {
          toast({ title: 'Limits saved', description: person.username });
          onClose();
        },
      },
    );
  });

  return (
    <Dialog open={person !== null} onOpenChange={(next) => !next && !update.isPending && onClose()}>
      {person && (
        <DialogContent className="sm:max-w-md">
          <form className="grid gap-4" onSubmit={submit} noValidate>
            <DialogHeader>
              <DialogTitle>Daily limits of {person.username}</DialogTitle>
              <DialogDescription>
                Counted per day (UTC); past a limit, replies are refused until the day ends.
              </DialogDescription>
            </DialogHeader>
            {LIMIT_FIELDS.map(({ key, label }) => (
              <FormField key={key} label={label} error={fields[`limits.${key}`]} hint={hint(roleDefaults?.[key])}>
                <Input type="number" min={0} inputMode="numeric" {...form.register(key)} />
              </FormField>
            ))}
            {message && (
              <p role="alert" className="text-sm font-medium text-error">
                {message}
              </p>
            )}
            <DialogFooter>
              <Button variant="outline" disabled={update.isPending} onClick={onClose}>
                Cancel
              </Button>
              <PendingButton type="submit" pending={update.isPending} pendingLabel="Saving...">
                Save limits
              </PendingButton>
            </DialogFooter>
          </form>
        </DialogContent>
      )}
    </Dialog>
  );
}
