import { useMutation } from '@tanstack/react-query';
import { Pencil } from 'lucide-react';
import { useState } from 'react';
import { BOT_PROMPT_MAX } from '@shared/constants';
import { Button } from '@/components/ui/button';
import { PendingButton } from '@/components/ui/pending-button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';

/** Spec §9: prompt save 500 ms, next step 300 ms. */
const DELAY_PROMPT_SAVE_MS = 500;
const DELAY_NEXT_STEP_MS = 300;

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface PromptDialogProps {
  prompt: string;
  /** Stores the prompt; throws when it cannot be kept. */
  onSave: (prompt: string) => void;
  /** Runs a moment after the dialog has closed (the wizard moves on to the review). */
  onSaved: () => void;
}

/** Spec §4: save sets the prompt, waits, confirms with a toast, closes, then moves to the next step. */
export function PromptDialog({ prompt, onSave, onSaved }: PromptDialogProps) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState(prompt);
  const save = useMutation({
    mutationFn: async (value: string) => {
      await wait(DELAY_PROMPT_SAVE_MS);
      onSave(value);
    },
    onSuccess: () => {
      toast({ title: 'Prompt updated' });
      setOpen(false);
      setTimeout(onSaved, DELAY_NEXT_STEP_MS);
    },
    onError: () =>
      toast({
        variant: 'destructive',
        title: 'Error saving prompt',
        description: 'There was a problem saving your custom prompt.',
      }),
  });

  const changeOpen = (next: boolean) => {
    if (save.isPending) return;
    // Each opening starts from the prompt as it is now.
    if (next) setText(prompt);
    setOpen(next);
  };

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm">
          <Pencil aria-hidden="true" />
          Edit prompt
        </Button>
      </DialogTrigger>
      <DialogContent className="sm:max-w-2xl">
        <form
          className="grid gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            if (text.trim()) save.mutate(text.trim());
          }}
        >
          <DialogHeader>
            <DialogTitle>Edit prompt</DialogTitle>
            <DialogDescription>The instructions your botty follows in every conversation.</DialogDescription>
          </DialogHeader>
          <FormField label="Prompt">
            <Textarea
              value={text}
              onChange={(e) => setText(e.target.value)}
              maxLength={BOT_PROMPT_MAX}
              rows={14}
              className="max-h-[50dvh] font-mono text-sm"
            />
          </FormField>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline" disabled={save.isPending}>
                Cancel
              </Button>
            </DialogClose>
            <PendingButton type="submit" pending={save.isPending} pendingLabel="Saving..." disabled={!text.trim()}>
              Save prompt
            </PendingButton>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
