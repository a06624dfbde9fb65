import { useState, type FormEvent } from 'react';
import { ROLES, type AdminSettings } from '@shared/contracts/admin';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { PendingButton } from '@/components/ui/pending-button';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { useAdminSettings, useUpdateAdminSettings } from '@/entities/admin/api/admin-settings';
import { formErrors } from '../model/field-errors';
import { LIMIT_FIELDS, limitText, parseLimit } from '../model/format';

const ROLE_TITLES = { user: 'Users', admin: 'Admins', superadmin: 'Superadmin' } as const;
type Role = (typeof ROLES)[number];
type LimitTexts = Record<Role, { dailyTokens: string; dailyReplies: string }>;

const textsOf = (limits: AdminSettings['defaultLimits']): LimitTexts =>
  Object.fromEntries(
    ROLES.map((role) => [
      role,
      {
        dailyTokens: limitText(limits[role].dailyTokens),
        dailyReplies: limitText(limits[role].dailyReplies),
      },
    ]),
  ) as LimitTexts;

/** Daily limits per role; an account's own limits (People → Limits) take precedence. */
export function RoleLimitsCard() {
  const settings = useAdminSettings();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Default daily limits</CardTitle>
        <CardDescription>
          Per role, per day (UTC). Empty means no limit. An account’s own limits come first.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {settings.data ? (
          <RoleLimitsForm saved={settings.data.defaultLimits} />
        ) : settings.isError ? (
          <p role="alert" className="text-destructive">
            The limits could not be loaded.
          </p>
        ) : (
          <Skeleton className="h-40" />
        )}
      </CardContent>
    </Card>
  );
}

function RoleLimitsForm({ saved }: { saved: AdminSettings['defaultLimits'] }) {
  const update = useUpdateAdminSettings();
  const [texts, setTexts] = useState(() => textsOf(saved));
  const { fields, message } = formErrors(update.error);
  const set = (role: Role, field: 'dailyTokens' | 'dailyReplies', value: string) =>
    setTexts({ ...texts, [role]: { ...texts[role], [field]: value } });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const limit = (role: Role) => ({
      dailyTokens: parseLimit(texts[role].dailyTokens),
      dailyReplies: parseLimit(texts[role].dailyReplies),
    });
    update.mutate(
      { defaultLimits: { user: limit('user'), admin: limit('admin'), superadmin: limit('superadmin') } },
      { onSuccess: () => toast({ title: 'Default limits saved' }) },
    );
  };

  return (
    <form className="grid gap-5" onSubmit={submit} noValidate>
      {ROLES.map((role) => (
        <fieldset key={role} className="grid gap-3 sm:grid-cols-2">
          <legend className="mb-2 text-sm font-semibold">{ROLE_TITLES[role]}</legend>
          {LIMIT_FIELDS.map(({ key, label }) => (
            <FormField key={key} label={label} error={fields[`defaultLimits.${role}.${key}`]}>
              <Input
                type="number"
                min={0}
                inputMode="numeric"
                value={texts[role][key]}
                onChange={(e) => set(role, key, e.target.value)}
              />
            </FormField>
          ))}
        </fieldset>
      ))}
      {message && (
        <p role="alert" className="text-sm font-medium text-error">
          {message}
        </p>
      )}
      <PendingButton type="submit" className="justify-self-start" pending={update.isPending} pendingLabel="Saving...">
        Save limits
      </PendingButton>
    </form>
  );
}
