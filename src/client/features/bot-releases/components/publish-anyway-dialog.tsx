import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { createReleaseBodySchema, type Release } from '@shared/contracts/releases';
import { Button } from '@/components/ui/button';
import { DialogDescription, DialogFooter, DialogHeader, DialogTitle, FormDialog } from '@/components/ui/dialog';
import { FormField, FormMessage } from '@/components/ui/form';
import { PendingButton } from '@/components/ui/pending-button';
import { Textarea } from '@/components/ui/textarea';
import { serverMessage } from '@/lib/request';
import type { usePublish } from '../api/releases';

/** The reason the server requires, with its messages: the contract's own `override`. */
const overrideSchema = createReleaseBodySchema.shape.override.unwrap();
type Override = { reason: string };

interface PublishAnywayDialogProps {
  /** The blocked version; `undefined` is closed. */
  version: number | undefined;
  publish: ReturnType<typeof usePublish>;
  onClose: () => void;
  onPublished: (release: Release) => void;
}

export function PublishAnywayDialog({ version, publish, onClose, onPublished }: PublishAnywayDialogProps) {
  return (
    <FormDialog open={version !== undefined} onClose={onClose} className="sm:max-w-lg">
      {version !== undefined && (
        <OverrideForm version={version} publish={publish} onClose={onClose} onPublished={onPublished} />
      )}
    </FormDialog>
  );
}

function OverrideForm({
  version,
  publish,
  onClose,
  onPublished,
}: Omit<PublishAnywayDialogProps, 'version'> & { version: number }) {
  const form = useForm<Override>({ resolver: zodResolver(overrideSchema), defaultValues: { reason: '' } });
  const submit = form.handleSubmit((override) =>
    publish.mutate(
      { version, override },
      {
        onSuccess: (release) => {
          onPublished(release);
          onClose();
        },
      },
    ),
  );
  const serverError = publish.isError
    ? (serverMessage(publish.error) ?? 'Something went wrong. Please try again.')
    : null;

  return (
    <form className="grid gap-4" onSubmit={submit} noValidate>
      <DialogHeader>
        <DialogTitle>Publish version {version} anyway</DialogTitle>
        <DialogDescription>
          Everyone you share this botty with gets version {version} although its tests held it back. The release history
          keeps your reason.
        </DialogDescription>
      </DialogHeader>
      <FormField label="Reason" error={form.formState.errors.reason?.message}>
        <Textarea rows={3} {...form.register('reason')} />
      </FormField>
      {serverError && <FormMessage>{serverError}</FormMessage>}
      <DialogFooter>
        <Button type="button" variant="outline" disabled={publish.isPending} onClick={onClose}>
          Cancel
        </Button>
        <PendingButton type="submit" pending={publish.isPending} pendingLabel="Publishing...">
          Publish anyway
        </PendingButton>
      </DialogFooter>
    </form>
  );
}
