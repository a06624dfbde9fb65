import { Gauge, MailCheck, Trash2 } from 'lucide-react';
import { useId } from 'react';
import type { AdminUser } from '@shared/contracts/admin';
import type { User } from '@shared/contracts/auth';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/use-toast';
import { useResendVerification, useUpdateAdminUser } from '@/entities/admin/api/users';
import { serverMessage } from '@/lib/request';
import { formatCount } from '@/lib/format-count';
import { NativeSelect } from './native-select';

interface UserRowProps {
  person: AdminUser;
  viewer: User;
  onLimits: () => void;
  onDelete: () => void;
}

const ROLE_LABELS = { user: 'User', admin: 'Admin', superadmin: 'Superadmin' } as const;

/** "120 of 5,000 tokens", or "120 tokens · no limit" (not "120 of no limit tokens"). */
const usedOf = (used: number, limit: number | null, unit: string) =>
  limit === null ? `${formatCount(used)} ${unit} · no limit` : `${formatCount(used)} of ${formatCount(limit)} ${unit}`;

/**
 * One account as a card (it stacks on a phone, lines up on wider screens). Only a superadmin changes roles, and
 * the superadmin's own account, and the viewer's, cannot be disabled or deleted here.
 */
export function UserRow({ person, viewer, onLimits, onDelete }: UserRowProps) {
  const id = useId();
  const update = useUpdateAdminUser();
  const resend = useResendVerification();
  const fixed = person.role === 'superadmin' || person.id === viewer.id;
  const canChangeRole = viewer.role === 'superadmin' && person.role !== 'superadmin';
  const failed = (title: string) => (error: Error) =>
    toast({ variant: 'destructive', title, description: serverMessage(error) ?? '' });

  const changeRole = (role: 'user' | 'admin') =>
    update.mutate(
      { id: person.id, body: { role } },
      {
        onSuccess: () =>
          toast({
            title: 'Role changed',
            description: `${person.username} is now ${ROLE_LABELS[role].toLowerCase()}.`,
          }),
        onError: failed('Could not change the role'),
      },
    );
  const setDisabled = (disabled: boolean) =>
    update.mutate(
      { id: person.id, body: { disabled } },
      {
        onSuccess: () =>
          toast({
            title: disabled ? 'Account disabled' : 'Account enabled',
            description: disabled
              ? `${person.username} is signed out and cannot sign in.`
              : `${person.username} can sign in again.`,
          }),
        onError: failed(disabled ? 'Could not disable' : 'Could not enable'),
      },
    );
  const sendVerification = () =>
    resend.mutate(person.id, {
      onSuccess: () => toast({ title: 'Verification e-mail sent', description: person.email }),
      onError: failed('Could not send'),
    });

  const { today } = person;
  return (
    <li className="grid gap-3 rounded-xl border p-4 sm:grid-cols-2 lg:grid-cols-[minmax(0,1fr)_8rem_13rem_25rem] lg:items-center">
      <div className="grid min-w-0 gap-0.5">
        <p className="flex flex-wrap items-center gap-2 font-medium">
          <span className="break-all">{person.username}</span>
          {person.emailVerified ? (
            <Badge variant="success">verified</Badge>
          ) : (
            <Badge variant="outline">not verified</Badge>
          )}
          {person.disabled && <Badge variant="destructive">disabled</Badge>}
        </p>
        <p className="text-sm break-all text-muted-foreground">{person.email}</p>
        {person.fullName && <p className="text-sm text-muted-foreground">{person.fullName}</p>}
      </div>
      <div className="grid gap-1">
        {canChangeRole ? (
          <>
            <Label htmlFor={`${id}-role`} className="text-xs text-muted-foreground">
              Role
            </Label>
            <NativeSelect
              id={`${id}-role`}
              aria-label={`Role of ${person.username}`}
              value={person.role}
              disabled={update.isPending}
              onChange={(e) => changeRole(e.target.value as 'user' | 'admin')}
            >
              <option value="user">User</option>
              <option value="admin">Admin</option>
            </NativeSelect>
          </>
        ) : (
          <p className="text-sm">
            <span className="text-muted-foreground">Role: </span>
            {ROLE_LABELS[person.role]}
          </p>
        )}
      </div>
      <div className="grid gap-1 text-sm">
        <p>
          <span className="text-muted-foreground">Today: </span>
          {usedOf(today.tokens, today.limits.dailyTokens, 'tokens')}
        </p>
        <p>{usedOf(today.replies, today.limits.dailyReplies, 'replies')}</p>
      </div>
      <div className="flex flex-wrap items-center gap-2 lg:justify-end">
        <div className="flex items-center gap-2">
          <Switch
            id={`${id}-disabled`}
            checked={person.disabled}
            disabled={fixed || update.isPending}
            aria-label={`Disable ${person.username}`}
            onCheckedChange={setDisabled}
          />
          <Label htmlFor={`${id}-disabled`} touchTarget className="font-normal" aria-hidden="true">
            Disabled
          </Label>
        </div>
        <Button variant="outline" size="sm" onClick={onLimits} aria-label={`Limits of ${person.username}`}>
          <Gauge aria-hidden="true" />
          Limits
        </Button>
        {!person.emailVerified && (
          <Button
            variant="outline"
            size="sm"
            disabled={resend.isPending}
            onClick={sendVerification}
            aria-label={`Resend verification to ${person.username}`}
          >
            <MailCheck aria-hidden="true" />
            Resend
          </Button>
        )}
        {!fixed && (
          <Button variant="outline" size="sm" onClick={onDelete} aria-label={`Delete ${person.username}`}>
            <Trash2 aria-hidden="true" />
            Delete
          </Button>
        )}
      </div>
    </li>
  );
}
