import { PendingButton } from '@/components/ui/pending-button';

/** The end of each of the page's forms: the server's message when saving failed, and the save button. */
export function SaveRow({ error, pending, label }: { error: string | null; pending: boolean; label: string }) {
  return (
    <>
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
      <PendingButton type="submit" pending={pending} className="justify-self-start">
        {label}
      </PendingButton>
    </>
  );
}
