import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { TestCase } from '@shared/contracts/test-cases';
import { Button } from '@/components/ui/button';
import { DialogDescription, DialogFooter, DialogHeader, DialogTitle, FormDialog } from '@/components/ui/dialog';
import { FormField, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { PendingButton } from '@/components/ui/pending-button';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { ApiError, serverMessage } from '@/lib/request';
import { useSaveTest } from '../api/tests';
import { formValuesOf, testCaseFormSchema, type TestCaseFormInput, type TestCaseFormValues } from '../model/tests';

interface TestCaseDialogProps {
  botId: number;
  /** Open: `null` adds a case, a case edits it; `undefined` is closed. */
  test: TestCase | null | undefined;
  onClose: () => void;
}

export function TestCaseDialog({ botId, test, onClose }: TestCaseDialogProps) {
  return (
    <FormDialog open={test !== undefined} onClose={onClose} className="sm:max-w-lg">
      {/* Keyed, so each opening starts from that case's values. */}
      {test !== undefined && <TestCaseForm key={test?.id ?? 'new'} botId={botId} test={test} onClose={onClose} />}
    </FormDialog>
  );
}

function TestCaseForm({ botId, test, onClose }: { botId: number; test: TestCase | null; onClose: () => void }) {
  const save = useSaveTest(botId);
  const form = useForm<TestCaseFormInput, unknown, TestCaseFormValues>({
    resolver: zodResolver(testCaseFormSchema),
    defaultValues: formValuesOf(test),
  });
  const { errors } = form.formState;
  const serverError =
    save.error instanceof ApiError ? (serverMessage(save.error) ?? 'Something went wrong. Please try again.') : null;

  const submit = form.handleSubmit((values) =>
    save.mutate(
      { id: test?.id, body: { query: values.query, expected: values.expected || null, tags: values.tags } },
      {
        onSuccess: () => {
          toast({ title: test ? 'Test case saved' : 'Test case added' });
          onClose();
        },
      },
    ),
  );

  return (
    <form className="grid gap-4" onSubmit={submit} noValidate>
      <DialogHeader>
        <DialogTitle>{test ? 'Edit test case' : 'Add a test case'}</DialogTitle>
        <DialogDescription>
          A question the bot is tested on, and what a good answer says or must do. The judge reads it either way.
        </DialogDescription>
      </DialogHeader>
      <FormField label="Question" error={errors.query?.message}>
        <Textarea rows={3} {...form.register('query')} />
      </FormField>
      <FormField
        label="Expected answer or criteria"
        error={errors.expected?.message}
        hint="Optional. Empty: any fitting answer passes."
      >
        <Textarea rows={4} {...form.register('expected')} />
      </FormField>
      <FormField label="Tags" error={errors.tags?.message} hint="Optional, separated by commas.">
        <Input {...form.register('tags')} />
      </FormField>
      {serverError && <FormMessage>{serverError}</FormMessage>}
      <DialogFooter>
        <Button type="button" variant="outline" disabled={save.isPending} onClick={onClose}>
          Cancel
        </Button>
        <PendingButton type="submit" pending={save.isPending} pendingLabel="Saving...">
          {test ? 'Save' : 'Add test case'}
        </PendingButton>
      </DialogFooter>
    </form>
  );
}
