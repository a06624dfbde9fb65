import { CircleCheck, Info } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { CUSTOM_PROMPT_GUIDANCE_TEXT, customPromptGuidance } from '../model/custom-prompt';
import { BOT_PROMPT_MAX } from '@shared/constants';
import type { Bot } from '@shared/contracts/bots';
import { useUpdateBot } from '@/entities/bot/api/update-bot';
import { Button } from '@/components/ui/button';
import { formatEnglishCount } from '@/lib/format-count';
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
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { cn } from '@/lib/cn';
import { PromptGuide } from './prompt-guide';

function Guidance({ id, text }: { id: string; text: string }) {
  const guidance = customPromptGuidance(text);
  return (
    <p id={id} role="status" className="min-h-5 text-sm">
      {guidance && (
        <span
          className={cn(
            'inline-flex items-start gap-1.5',
            guidance === 'short' ? 'text-amber-700 dark:text-amber-400' : 'text-emerald-700 dark:text-emerald-400',
          )}
        >
          {guidance === 'short' ? (
            <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          ) : (
            <CircleCheck className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          )}
          {CUSTOM_PROMPT_GUIDANCE_TEXT[guidance]}
        </span>
      )}
    </p>
  );
}

/** Mounted each time the dialog opens, so the text always starts from the saved prompt (spec §4). */
function CustomPromptForm({ bot, onSaved }: { bot: Bot; onSaved: () => void }) {
  const [text, setText] = useState(bot.config.customPrompt ?? '');
  const update = useUpdateBot();
  const id = useId();

  const save = (event: FormEvent) => {
    event.preventDefault();
    update.mutate(
      { id: bot.id, changes: { config: { customPrompt: text.trim() } } },
      {
        onSuccess: () => {
          toast({
            title: 'Custom prompt saved',
            description: 'Your bot will now use this custom prompt for interactions.',
          });
          onSaved();
        },
        onError: (error) => {
          console.error('Failed to save custom prompt', error);
          toast({
            variant: 'destructive',
            title: 'Failed to save prompt',
            description: 'There was an error saving your custom prompt. Please try again.',
          });
        },
      },
    );
  };

  return (
    <form onSubmit={save} className="grid min-w-0 gap-4">
      <DialogHeader>
        <DialogTitle>Edit Custom Prompt for {bot.name}</DialogTitle>
        <DialogDescription>
          Instructions this botty follows in every conversation, in place of its generated system prompt.
        </DialogDescription>
      </DialogHeader>

      <Tabs defaultValue="prompt">
        <TabsList className="grid w-full grid-cols-2">
          <TabsTrigger value="prompt">Custom Prompt</TabsTrigger>
          <TabsTrigger value="guide">Prompt Guide</TabsTrigger>
        </TabsList>
        <TabsContent value="prompt" className="grid gap-2">
          <Label htmlFor={id}>Custom prompt</Label>
          <Textarea
            id={id}
            rows={10}
            value={text}
            maxLength={BOT_PROMPT_MAX}
            placeholder={`You are ${bot.name}, a research assistant who…`}
            aria-describedby={`${id}-count ${id}-guidance`}
            className="max-h-[50dvh] resize-y"
            onChange={(event) => setText(event.target.value)}
          />
          <div className="flex flex-col-reverse gap-1 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
            <Guidance id={`${id}-guidance`} text={text} />
            <p id={`${id}-count`} className="shrink-0 text-xs text-muted-foreground tabular-nums">
              {formatEnglishCount(text.length)} characters
            </p>
          </div>
        </TabsContent>
        <TabsContent value="guide">
          <PromptGuide />
        </TabsContent>
      </Tabs>

      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving...' : 'Save'}
        </Button>
      </DialogFooter>
    </form>
  );
}

export function CustomPromptDialog({ bot, onClose }: { bot: Bot | null; onClose: () => void }) {
  return (
    <Dialog open={bot !== null} onOpenChange={(open) => !open && onClose()}>
      {bot && (
        <DialogContent className="sm:max-w-2xl">
          <CustomPromptForm bot={bot} onSaved={onClose} />
        </DialogContent>
      )}
    </Dialog>
  );
}
