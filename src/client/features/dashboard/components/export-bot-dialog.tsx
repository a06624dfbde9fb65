import { Download } from 'lucide-react';
import { useId, useState } from 'react';
import type { Bot } from '@shared/contracts/bots';
import { useExportBot } from '@/entities/bot/api/transfer-bot';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { PendingButton } from '@/components/ui/pending-button';
import { toast } from '@/components/ui/use-toast';
import { serverMessage } from '@/lib/request';

/** Mounted each time the dialog opens, so the choice starts unticked. */
function ExportForm({ bot, onDone }: { bot: Bot; onDone: () => void }) {
  const [knowledge, setKnowledge] = useState(false);
  const exportBot = useExportBot();
  const id = useId();

  const download = () =>
    exportBot.mutate(
      { id: bot.id, knowledge },
      {
        onSuccess: (name) => {
          toast({ title: 'Botty exported', description: `Saved as ${name}.` });
          onDone();
        },
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'Export failed',
            description: serverMessage(error) ?? 'Please try again later.',
          }),
      },
    );

  return (
    <>
      <DialogHeader>
        <DialogTitle>Export {bot.name}</DialogTitle>
        <DialogDescription>
          A file that you, or anyone you give it to, can import into any Botty. It holds the botty&apos;s settings,
          prompts, example queries and test notes; never your account, conversations, usage or sharing settings.
        </DialogDescription>
      </DialogHeader>
      <div className="flex items-start gap-3">
        <Checkbox
          id={id}
          checked={knowledge}
          onCheckedChange={(checked) => setKnowledge(checked === true)}
          aria-describedby={`${id}-hint`}
        />
        <div className="grid gap-1">
          <Label htmlFor={id} touchTarget>
            Include knowledge files
          </Label>
          <p id={`${id}-hint`} className="text-sm text-muted-foreground">
            Downloads a .zip with the documents this botty has learned from, instead of a .json file.
          </p>
        </div>
      </div>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <PendingButton pending={exportBot.isPending} pendingLabel="Preparing..." onClick={download}>
          <Download aria-hidden="true" />
          Export
        </PendingButton>
      </DialogFooter>
    </>
  );
}

export function ExportBotDialog({ bot, onClose }: { bot: Bot | null; onClose: () => void }) {
  return (
    <Dialog open={bot !== null} onOpenChange={(open) => !open && onClose()}>
      {bot && (
        <DialogContent>
          <ExportForm bot={bot} onDone={onClose} />
        </DialogContent>
      )}
    </Dialog>
  );
}
