import { MailPlus, TriangleAlert } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { Invitation } from '@shared/contracts/admin';
import { ConfirmDeleteDialog } from '@/components/confirm-delete-dialog';
import { RelativeTime } from '@/components/relative-time';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { PendingButton } from '@/components/ui/pending-button';
import { toast } from '@/components/ui/use-toast';
import {
  type CreatedInvitation,
  useCreateInvitation,
  useInvitations,
  useRevokeInvitation,
} from '@/entities/admin/api/invitations';
import { CopyButton } from '@/entities/chat/ui/copy-button';
import { formatExpiry } from '@/lib/expiry';
import { serverMessage } from '@/lib/request';
import { formErrors } from '../model/field-errors';

type Status = 'pending' | 'used' | 'expired';

const statusOf = (invitation: Invitation, now = Date.now()): Status =>
  invitation.usedAt ? 'used' : Date.parse(invitation.expiresAt) <= now ? 'expired' : 'pending';

const STATUS_BADGE = { pending: 'success', used: 'secondary', expired: 'outline' } as const;

/** Invitation links: made here, shown once (the server keeps only a hash), revocable while unused. */
export function InvitationsCard() {
  const invitations = useInvitations();
  const create = useCreateInvitation();
  const revoke = useRevokeInvitation();
  const [email, setEmail] = useState('');
  const [days, setDays] = useState('7');
  const [created, setCreated] = useState<CreatedInvitation | null>(null);
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  const { fields, message } = formErrors(create.error);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = { expiresInDays: Number(days), ...(email.trim() ? { email: email.trim() } : {}) };
    create.mutate(body, {
      onSuccess: (invitation) => {
        setCreated(invitation);
        setEmail('');
      },
    });
  };

  const confirmRevoke = () => {
    if (!revoking) return;
    revoke.mutate(revoking.id, {
      onSuccess: () => {
        toast({ title: 'Invitation revoked', description: 'Its link no longer works.' });
        setRevoking(null);
      },
      onError: (error) =>
        toast({ variant: 'destructive', title: 'Could not revoke', description: serverMessage(error) ?? '' }),
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Invitations</CardTitle>
        <CardDescription>A link that lets one person sign up, even when registration is not open.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {created ? (
          <NewLink invitation={created} onDone={() => setCreated(null)} />
        ) : (
          <form className="grid gap-4 sm:grid-cols-[1fr_10rem_auto]" onSubmit={submit} noValidate>
            <FormField label="E-mail (optional)" error={fields.email}>
              <Input type="email" autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} />
            </FormField>
            <FormField label="Expires in (days)" error={fields.expiresInDays}>
              <Input type="number" min={1} max={30} value={days} onChange={(e) => setDays(e.target.value)} />
            </FormField>
            <PendingButton
              type="submit"
              className="self-start sm:mt-6"
              pending={create.isPending}
              pendingLabel="Creating..."
            >
              <MailPlus aria-hidden="true" />
              Create invitation
            </PendingButton>
            {message && (
              <p role="alert" className="text-sm font-medium text-error sm:col-span-3">
                {message}
              </p>
            )}
          </form>
        )}
        {invitations.data?.length ? (
          <ul className="divide-y" aria-label="Invitations">
            {invitations.data.map((invitation) => {
              const status = statusOf(invitation);
              return (
                <li key={invitation.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                  <div className="grid min-w-0 gap-1">
                    <p className="flex flex-wrap items-center gap-2 font-medium">
                      <span className="break-all">{invitation.email ?? 'Anyone with the link'}</span>
                      <Badge variant={STATUS_BADGE[status]}>{status}</Badge>
                    </p>
                    <p className="text-sm text-muted-foreground">
                      Created <RelativeTime date={invitation.createdAt} /> ·{' '}
                      {status === 'used' && invitation.usedAt ? (
                        <>
                          used <RelativeTime date={invitation.usedAt} />
                        </>
                      ) : (
                        `${status === 'expired' ? 'expired' : 'expires'} ${formatExpiry(invitation.expiresAt)}`
                      )}
                    </p>
                  </div>
                  {status === 'pending' && (
                    <Button variant="outline" size="sm" onClick={() => setRevoking(invitation)}>
                      Revoke
                    </Button>
                  )}
                </li>
              );
            })}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">
            {invitations.isPending
              ? 'Loading invitations…'
              : invitations.isError
                ? 'The invitations could not be loaded.'
                : 'No invitations yet.'}
          </p>
        )}
      </CardContent>
      <ConfirmDeleteDialog
        open={revoking !== null}
        onClose={() => setRevoking(null)}
        title="Revoke invitation?"
        description="Its link will no longer let anyone sign up."
        confirmLabel="Revoke invitation"
        pending={revoke.isPending}
        onConfirm={confirmRevoke}
      />
    </Card>
  );
}

/** Focus moves to the link as it appears, so it can be copied at once (and a screen reader reads it). */
function NewLink({ invitation, onDone }: { invitation: CreatedInvitation; onDone: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  return (
    <div className="grid gap-3 rounded-xl border border-amber-500/50 bg-amber-500/10 p-4" role="status">
      <p className="flex items-center gap-2 font-medium">
        <TriangleAlert className="size-4 shrink-0" aria-hidden="true" />
        Copy the invitation link now. It will not be shown again.
      </p>
      <div className="flex items-center gap-2">
        <Input
          ref={input}
          readOnly
          value={invitation.url}
          aria-label="Invitation link"
          onFocus={(e) => e.currentTarget.select()}
        />
        <CopyButton text={() => invitation.url} label="Copy invitation link" />
      </div>
      <Button variant="outline" className="justify-self-start" onClick={onDone}>
        Done
      </Button>
    </div>
  );
}
