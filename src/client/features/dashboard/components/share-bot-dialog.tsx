import { Globe, Link2, Lock, Users } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { BotVisibility } from '@shared/contracts/bot-sharing';
import type { Bot } from '@shared/contracts/bots';
import type { ShareLink } from '@shared/contracts/shared-bots';
import { useCreateShareLink, useUpdateSharing, useUsableBot } from '@/entities/bot/api/sharing';
import { CopyButton } from '@/entities/chat/ui/copy-button';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PendingButton } from '@/components/ui/pending-button';
import { RadioCard, RadioGroup } from '@/components/ui/radio-group';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/use-toast';
import { serverMessage } from '@/lib/request';

const CHOICES: { value: BotVisibility; label: string; explain: string; done: string; icon: typeof Lock }[] = [
  { value: 'private', label: 'Private', explain: 'Only you can chat with it.', done: 'is now private', icon: Lock },
  {
    value: 'link',
    label: 'Link',
    explain: 'Signed-in people who have the link can chat with it and add a copy to their botties.',
    done: 'can now be used by people with its link',
    icon: Link2,
  },
  {
    value: 'public',
    label: 'Public',
    explain: 'Listed on Explore for every signed-in user, who can chat with it and add a copy.',
    done: 'is now public',
    icon: Globe,
  },
];

const fail = (title: string) => (error: unknown) =>
  toast({ variant: 'destructive', title, description: serverMessage(error) ?? 'Please try again.' });

/** How many people besides its owner use a shared botty, on its card and in this dialog. */
export const othersText = (n: number) =>
  n === 0 ? 'Nobody else uses it yet' : `Used by ${n} ${n === 1 ? 'person' : 'people'} besides you`;

function UsersCount({ botId }: { botId: number }) {
  const { data } = useUsableBot(botId);
  if (!data) return null;
  return (
    <p className="inline-flex items-center gap-1.5 text-sm text-muted-foreground">
      <Users className="size-4" aria-hidden="true" />
      {othersText(data.usersCount)}.
    </p>
  );
}

function LinkSection({ bot, link, onLink }: { bot: Bot; link: ShareLink | null; onLink: (l: ShareLink) => void }) {
  const id = useId();
  const create = useCreateShareLink();
  const url = link ? `${window.location.origin}${link.url}` : '';
  const make = () => create.mutate(bot.id, { onSuccess: onLink, onError: fail('Could not make the link') });

  if (link) {
    return (
      <div className="grid gap-2">
        <Label htmlFor={id}>Link to {bot.name}</Label>
        <div className="flex items-center gap-2">
          <Input id={id} readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
          <CopyButton text={() => url} label="Copy link" />
        </div>
        <p className="text-sm text-muted-foreground">
          Copy it now: it is shown only once (Botty keeps only a fingerprint of it). You can make a new one at any time.
        </p>
      </div>
    );
  }
  return (
    <div className="grid gap-2 rounded-xl border p-3">
      <p className="text-sm text-muted-foreground">
        {bot.sharing.hasLink
          ? 'The botty has a link. It was shown when it was made; a new link replaces it and the old one stops working at once.'
          : 'Make a link to send to people. It is shown once, so copy it when it appears.'}
      </p>
      <PendingButton
        variant={bot.sharing.hasLink ? 'outline' : 'default'}
        className="justify-self-start"
        pending={create.isPending}
        pendingLabel="Making link..."
        onClick={make}
      >
        <Link2 aria-hidden="true" />
        {bot.sharing.hasLink ? 'Make a new link' : 'Create link'}
      </PendingButton>
    </div>
  );
}

/** Mounted each time it opens, so a link shown once is gone when the dialog closes. */
function ShareForm({ bot }: { bot: Bot }) {
  const update = useUpdateSharing();
  const create = useCreateShareLink();
  const [link, setLink] = useState<ShareLink | null>(null);
  const promptId = useId();
  const { visibility, showPrompt } = bot.sharing;

  // Moving through the options (arrow keys) only chooses; Save applies, so passing over Link shares nothing.
  const [choice, setChoice] = useState<BotVisibility>(visibility);
  const [saved, setSaved] = useState('');
  const save = () =>
    update.mutate(
      { id: bot.id, changes: { visibility: choice } },
      {
        onSuccess: (saved) => {
          if (saved.sharing.visibility === 'private') setLink(null);
          // The first time a bot is shared, its link is made at once: that is what the owner came for.
          else if (!saved.sharing.hasLink)
            create.mutate(saved.id, { onSuccess: setLink, onError: fail('Could not make the link') });
          // Said in the dialog, not as a toast: a toast above the dialog would take the next Escape for itself.
          setSaved(`${bot.name} ${CHOICES.find((c) => c.value === saved.sharing.visibility)?.done}.`);
        },
        onError: fail('Could not change who can use the botty'),
      },
    );

  return (
    <div className="grid gap-5">
      <fieldset className="grid gap-2">
        <legend id={`${promptId}-legend`} className="mb-2 text-sm font-medium">
          Who can use it
        </legend>
        <RadioGroup
          value={choice}
          onValueChange={(next) => setChoice(next as BotVisibility)}
          aria-labelledby={`${promptId}-legend`}
        >
          {CHOICES.map(({ value, label, explain, icon: Icon }) => (
            <RadioCard key={value} value={value} aria-describedby={`${promptId}-${value}`}>
              <Icon className="size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
              <span className="grid gap-0.5">
                <span className="font-medium">{label}</span>
                <span id={`${promptId}-${value}`} className="text-xs text-muted-foreground">
                  {explain}
                </span>
              </span>
            </RadioCard>
          ))}
        </RadioGroup>
        {choice !== visibility && (
          <PendingButton
            className="mt-2 justify-self-start"
            pending={update.isPending}
            pendingLabel="Saving..."
            onClick={save}
          >
            Save
          </PendingButton>
        )}
        <p role="status" className="text-sm text-muted-foreground">
          {choice === visibility ? saved : ''}
        </p>
      </fieldset>

      {visibility !== 'private' && (
        <>
          <LinkSection bot={bot} link={link} onLink={setLink} />
          <div className="flex items-start justify-between gap-4">
            <div className="grid gap-0.5">
              <Label htmlFor={promptId}>Show the prompt and settings</Label>
              <p id={`${promptId}-explain`} className="text-xs text-muted-foreground">
                People can read how the botty is set up, and their copies take its prompt. Your knowledge files always
                stay private; the botty answers from them without handing them out.
              </p>
            </div>
            <Switch
              id={promptId}
              checked={showPrompt}
              aria-describedby={`${promptId}-explain`}
              disabled={update.isPending}
              onCheckedChange={(checked) =>
                update.mutate(
                  { id: bot.id, changes: { showPrompt: checked } },
                  { onError: fail('Could not save the setting') },
                )
              }
            />
          </div>
          {visibility === 'public' && (
            <Button asChild variant="link" className="justify-self-start px-0">
              <Link to="/explore">See it on Explore</Link>
            </Button>
          )}
        </>
      )}
      <UsersCount botId={bot.id} />
      <p className="text-xs text-muted-foreground">
        People chat in conversations of their own: you never see their messages, and their use counts in the
        botty&apos;s usage.
      </p>
    </div>
  );
}

export function ShareBotDialog({ bot, onClose }: { bot: Bot | undefined; onClose: () => void }) {
  return (
    <Dialog open={bot !== undefined} onOpenChange={(open) => !open && onClose()}>
      {bot && (
        <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-lg">
          <DialogHeader>
            <DialogTitle>Share {bot.name}</DialogTitle>
            <DialogDescription>Choose who besides you can chat with this botty.</DialogDescription>
          </DialogHeader>
          <ShareForm bot={bot} />
        </DialogContent>
      )}
    </Dialog>
  );
}
