import { Download, FlaskConical, Plus, Upload } from 'lucide-react';
import { useRef, useState } from 'react';
import { TEST_CASES_MAX } from '@shared/constants';
import type { TestCase } from '@shared/contracts/test-cases';
import { ConfirmDeleteDialog } from '@/components/confirm-delete-dialog';
import { EditDeleteButtons } from '@/components/edit-delete-buttons';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { serverMessage } from '@/lib/request';
import { downloadTestsCsv, useDeleteTest, useImportTests, useTests } from '../api/tests';
import { tagsOf, withTag } from '../model/tests';
import { TestCaseDialog } from './test-case-dialog';

const failed = (title: string) => (error: unknown) =>
  toast({ variant: 'destructive', title, description: serverMessage(error) ?? 'Please try again.' });

/** The bot's test cases: add, edit, delete, filter by tag, CSV in and out. */
export function TestCasesSection({ botId }: { botId: number }) {
  const tests = useTests(botId);
  const remove = useDeleteTest(botId);
  const importing = useImportTests(botId);
  const [editing, setEditing] = useState<TestCase | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<TestCase | null>(null);
  const [tag, setTag] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const list = tests.data ?? [];
  const tags = tagsOf(list);
  // A tag whose last case went is no filter any more.
  const active = tag !== null && tags.includes(tag) ? tag : null;
  const shown = withTag(list, active);

  const onFile = (file: File | undefined) => {
    if (!file) return;
    importing.mutate(file, {
      onSuccess: ({ added, updated }) =>
        toast({ title: 'Tests imported', description: `${added} added, ${updated} updated.` }),
      onError: failed('Import failed'),
    });
    if (fileInput.current) fileInput.current.value = '';
  };
  const onDelete = () =>
    deleting &&
    remove.mutate(deleting.id, {
      onSuccess: () => {
        toast({ title: 'Test case deleted' });
        setDeleting(null);
      },
      onError: failed('Delete failed'),
    });

  return (
    <section aria-labelledby="test-cases-title" className="grid gap-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="grid gap-1">
          <h2 id="test-cases-title" className="flex items-center gap-2 text-lg font-semibold">
            <FlaskConical className="size-5 text-primary" aria-hidden="true" />
            Test cases
          </h2>
          <p className="text-sm text-muted-foreground">
            {list.length} of {TEST_CASES_MAX}. Each version is checked against these before it ships.
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button onClick={() => setEditing(null)} disabled={list.length >= TEST_CASES_MAX}>
            <Plus aria-hidden="true" />
            Add test case
          </Button>
          <Button variant="outline" onClick={() => fileInput.current?.click()} disabled={importing.isPending}>
            <Upload aria-hidden="true" />
            {importing.isPending ? 'Importing...' : 'Import CSV'}
          </Button>
          <input
            ref={fileInput}
            type="file"
            accept=".csv,text/csv"
            className="sr-only"
            tabIndex={-1}
            aria-label="CSV file of test cases"
            onChange={(event) => onFile(event.target.files?.[0])}
          />
          <Button
            variant="outline"
            disabled={list.length === 0}
            onClick={() => void downloadTestsCsv(botId).catch(failed('Export failed'))}
          >
            <Download aria-hidden="true" />
            Export CSV
          </Button>
        </div>
      </div>
      {tags.length > 0 && (
        <div role="group" aria-label="Filter by tag" className="flex flex-wrap gap-2">
          {[null, ...tags].map((t) => (
            <Button
              key={t ?? ''}
              size="sm"
              variant={t === active ? 'default' : 'outline'}
              aria-pressed={t === active}
              onClick={() => setTag(t)}
            >
              {t ?? 'All'}
            </Button>
          ))}
        </div>
      )}
      {tests.isError ? (
        <p role="alert" className="text-destructive">
          The test cases could not be loaded.
        </p>
      ) : !tests.data ? (
        <Skeleton className="h-40" />
      ) : list.length === 0 ? (
        <div className="grid justify-items-start gap-3 rounded-xl border border-dashed p-6">
          <p className="text-sm text-muted-foreground">
            No test cases yet. Add the questions this bot must answer well, import a CSV, or add rated replies from the
            feedback log.
          </p>
          <Button onClick={() => setEditing(null)}>
            <Plus aria-hidden="true" />
            Add test case
          </Button>
        </div>
      ) : (
        <ul className="grid gap-3">
          {shown.map((test) => (
            <li key={test.id} className="grid gap-2 rounded-xl border p-4">
              <p className="font-medium break-words whitespace-pre-wrap">{test.query}</p>
              <p className="text-sm break-words whitespace-pre-wrap text-muted-foreground">
                {test.expected ?? 'Any fitting answer passes.'}
              </p>
              <div className="flex flex-wrap items-center gap-2">
                {test.tags.map((t) => (
                  <Badge key={t} variant="secondary">
                    {t}
                  </Badge>
                ))}
                {test.sourceMessageId !== null && <Badge variant="outline">From feedback</Badge>}
                <span className="ml-auto flex gap-2">
                  <EditDeleteButtons
                    name={test.query.slice(0, 60)}
                    onEdit={() => setEditing(test)}
                    onDelete={() => setDeleting(test)}
                  />
                </span>
              </div>
            </li>
          ))}
        </ul>
      )}
      <TestCaseDialog botId={botId} test={editing} onClose={() => setEditing(undefined)} />
      <ConfirmDeleteDialog
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete this test case?"
        description={deleting?.query}
        confirmLabel="Delete test case"
        pending={remove.isPending}
        onConfirm={onDelete}
      />
    </section>
  );
}
