import { zodResolver } from '@hookform/resolvers/zod';
import type { FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { changePasswordBodySchema } from '@shared/contracts/auth';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { SettingsFormFooter } from './settings-form-footer';
import { toast } from '@/components/ui/use-toast';
import { useChangePassword } from '@/features/settings/api/change-password';

const passwordFormSchema = changePasswordBodySchema.extend({ confirmPassword: z.string() });
type PasswordForm = z.infer<typeof passwordFormSchema>;

const EMPTY: PasswordForm = { currentPassword: '', newPassword: '', confirmPassword: '' };

export function SecurityTab() {
  const change = useChangePassword();
  const form = useForm<z.input<typeof passwordFormSchema>, unknown, PasswordForm>({
    resolver: zodResolver(passwordFormSchema),
    defaultValues: EMPTY,
  });
  const { errors } = form.formState;

  const submit = form.handleSubmit(({ currentPassword, newPassword }) => {
    change.mutate({ currentPassword, newPassword }, { onSuccess: () => form.reset(EMPTY) });
  });

  // Spec §5: a mismatch is reported by toast and stops everything, before any other check.
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { newPassword, confirmPassword } = form.getValues();
    if (newPassword !== confirmPassword) {
      toast({
        variant: 'destructive',
        title: "Passwords don't match",
        description: 'Please make sure your new password and confirmation match.',
      });
      return;
    }
    void submit(event);
  };

  return (
    <Card>
      <form onSubmit={onSubmit} noValidate>
        <CardHeader>
          <CardTitle>Password &amp; Security</CardTitle>
          <CardDescription>Changing your password signs you out on your other devices.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5">
          <FormField label="Current Password" error={errors.currentPassword?.message}>
            <Input type="password" autoComplete="current-password" {...form.register('currentPassword')} />
          </FormField>
          <FormField label="New Password" error={errors.newPassword?.message}>
            <Input type="password" autoComplete="new-password" {...form.register('newPassword')} />
          </FormField>
          <FormField label="Confirm New Password" error={errors.confirmPassword?.message}>
            <Input type="password" autoComplete="new-password" {...form.register('confirmPassword')} />
          </FormField>
        </CardContent>
        <SettingsFormFooter pending={change.isPending} label="Update Password" pendingLabel="Updating..." />
      </form>
    </Card>
  );
}
