import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { KnowledgeFile } from '@shared/contracts/files';
import { ConfirmDeleteDialog } from '@/components/confirm-delete-dialog';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { serverMessage } from '@/lib/request';
import { useDeleteFile } from '../api/delete-file';

/** Removes a saved knowledge file after asking; its passages go with it. */
export function RemoveFileButton({ file }: { file: KnowledgeFile }) {
  const [open, setOpen] = useState(false);
  const remove = useDeleteFile();
  const confirm = () =>
    remove.mutate(file, {
      onSuccess: () => setOpen(false),
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Error removing file',
          description: serverMessage(error) ?? 'Please try again later.',
        }),
    });

  return (
    <>
      <Button variant="ghost" size="icon" aria-label={`Remove ${file.name}`} onClick={() => setOpen(true)}>
        <Trash2 aria-hidden="true" />
      </Button>
      <ConfirmDeleteDialog
        open={open}
        onClose={() => setOpen(false)}
        title="Remove this file?"
        description={
          <>
            <span className="font-medium break-all text-foreground">{file.name}</span> and its passages leave this
            botty&apos;s knowledge. This cannot be undone.
          </>
        }
        confirmLabel="Remove"
        pending={remove.isPending}
        onConfirm={confirm}
      />
    </>
  );
}
