import { Share2 } from 'lucide-react';
import { useId, useState } from 'react';
import { WithTooltip } from '@/components/ui/tooltip';
import { sharePath } from '@shared/chat/share-path';
import type { ShareLink } from '@shared/contracts/shares';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PendingButton } from '@/components/ui/pending-button';
import { toast } from '@/components/ui/use-toast';
import { useRevokeShare, useShareConversation, useShareStatus } from '@/entities/chat/api/share-conversation';
import { CopyButton } from './copy-button';
import { expiresAtIn, formatExpiry, type ExpiryChoice } from '@/lib/expiry';
import { serverMessage } from '@/lib/request';

const EXPIRY_CHOICES: ExpiryChoice[] = [
  { label: 'Never', days: null },
  { label: 'In 1 day', days: 1 },
  { label: 'In 7 days', days: 7 },
  { label: 'In 30 days', days: 30 },
];

interface ShareDialogProps {
  conversationId: number;
  open: boolean;
  onClose: () => void;
}

/**
 * Shares a read-only snapshot of the conversation as it is now: anyone with the link can read it without an
 * account. The link is shown once (only its hash is kept); sharing again makes a new one and ends the old.
 */
function ShareDialog({ conversationId, open, onClose }: ShareDialogProps) {
  const expiryId = useId();
  const [days, setDays] = useState<number | null>(null);
  const [link, setLink] = useState<ShareLink | null>(null);
  const status = useShareStatus(conversationId, open);
  const share = useShareConversation(conversationId);
  const revoke = useRevokeShare(conversationId);
  const url = link ? `${window.location.origin}${sharePath(link.token)}` : '';
  const live = status.data?.share ?? null;
  const fail = (title: string) => (error: unknown) =>
    toast({ variant: 'destructive', title, description: serverMessage(error) ?? 'Please try again.' });

  const close = () => {
    setLink(null);
    onClose();
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !next && close()}>
      {open && (
        <DialogContent className="sm:max-w-lg">
          <DialogHeader>
            <DialogTitle>Share conversation</DialogTitle>
            <DialogDescription>
              Anyone with the link can read this conversation as it is now, without an account. Later messages are not
              included.
            </DialogDescription>
          </DialogHeader>
          {link ? (
            <div className="grid gap-2">
              <Label htmlFor={`${expiryId}-url`}>Link</Label>
              <div className="flex items-center gap-2">
                <Input id={`${expiryId}-url`} readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
                <CopyButton text={() => url} label="Copy link" />
              </div>
              <p className="text-sm text-muted-foreground">
                Copy it now: it is shown only once. Expires: {formatExpiry(link.expiresAt)}.
              </p>
            </div>
          ) : (
            <div className="grid gap-2">
              {live && (
                <p className="text-sm text-muted-foreground">
                  This conversation is shared (expires: {formatExpiry(live.expiresAt)}). A new link replaces it.
                </p>
              )}
              <Label htmlFor={expiryId}>Link expires</Label>
              <select
                id={expiryId}
                value={days ?? ''}
                onChange={(event) => setDays(event.target.value ? Number(event.target.value) : null)}
                className="h-11 rounded-lg border border-input bg-background px-3 text-base md:h-9 md:text-sm"
              >
                {EXPIRY_CHOICES.map((choice) => (
                  <option key={choice.label} value={choice.days ?? ''}>
                    {choice.label}
                  </option>
                ))}
              </select>
            </div>
          )}
          <DialogFooter>
            {live && (
              <PendingButton
                variant="destructive"
                pending={revoke.isPending}
                pendingLabel="Revoking..."
                onClick={() =>
                  revoke.mutate(undefined, {
                    onSuccess: () => {
                      setLink(null);
                      toast({ title: 'Link revoked', description: 'The shared link no longer opens.' });
                    },
                    onError: fail('Could not revoke the link'),
                  })
                }
              >
                Revoke link
              </PendingButton>
            )}
            {link ? (
              <Button onClick={close}>Done</Button>
            ) : (
              <PendingButton
                pending={share.isPending}
                pendingLabel="Creating..."
                onClick={() =>
                  share.mutate(
                    { expiresAt: expiresAtIn(days) },
                    { onSuccess: setLink, onError: fail('Could not share') },
                  )
                }
              >
                <Share2 className="size-4" aria-hidden="true" />
                Create link
              </PendingButton>
            )}
          </DialogFooter>
        </DialogContent>
      )}
    </Dialog>
  );
}

/** The header's Share button and its dialog, for a conversation that exists. */
export function ShareConversationButton({ conversationId }: { conversationId: number }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <WithTooltip label="Share conversation">
        <Button variant="ghost" size="icon" aria-label="Share conversation" onClick={() => setOpen(true)}>
          <Share2 aria-hidden="true" />
        </Button>
      </WithTooltip>
      <ShareDialog conversationId={conversationId} open={open} onClose={() => setOpen(false)} />
    </>
  );
}
