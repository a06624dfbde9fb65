import { MailPlus } from 'lucide-react';
import { useState, type FormEvent } from 'react';
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
import { ShownOnceSecret } from '@/entities/credential/ui/shown-once-secret';
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
          <ShownOnceSecret
            secret={created.url}
            warning="Copy the invitation link now. It will not be shown again."
            label="Invitation link"
            copyLabel="Copy invitation link"
            doneLabel="Done"
            onDone={() => setCreated(null)}
          />
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
