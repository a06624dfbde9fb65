import { Upload } from 'lucide-react';
import { useRef, type ChangeEvent } from 'react';
import { useImportBot } from '@/entities/bot/api/transfer-bot';
import { PendingButton } from '@/components/ui/pending-button';
import { toast } from '@/components/ui/use-toast';

/** Picks a bot file exported from any Botty and adds it as a new private botty (decision 0019). */
export function ImportBotButton() {
  const input = useRef<HTMLInputElement>(null);
  const importBot = useImportBot();

  const picked = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Cleared, so picking the same file again (after fixing it) fires a change too.
    event.target.value = '';
    if (!file) return;
    importBot.mutate(file, {
      onSuccess: (bot) =>
        toast({ title: 'Botty imported', description: `"${bot.name}" is now one of your botties, private to you.` }),
      onError: (error) =>
        toast({ variant: 'destructive', title: `Could not import ${file.name}`, description: error.message }),
    });
  };

  return (
    <>
      <input
        ref={input}
        type="file"
        accept=".json,.zip,application/json,application/zip"
        className="hidden"
        tabIndex={-1}
        aria-hidden="true"
        onChange={picked}
      />
      <PendingButton
        variant="outline"
        pending={importBot.isPending}
        pendingLabel="Importing..."
        onClick={() => input.current?.click()}
      >
        <Upload aria-hidden="true" />
        Import Botty
      </PendingButton>
    </>
  );
}
