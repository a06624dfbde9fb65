import { Controller, useForm } from 'react-hook-form';
import type { User } from '@shared/contracts/auth';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { FormField } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { SettingsFormFooter } from './settings-form-footer';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { useUpdateProfile } from '@/features/settings/api/update-profile';
import { ApiError } from '@/lib/request';
import { setTheme, useTheme } from '@/lib/theme';

interface ProfileForm {
  fullName: string;
  email: string;
  username: string;
  notificationsEnabled: boolean;
}

function formValues(user: User): ProfileForm {
  return { fullName: user.fullName ?? '', email: user.email, username: user.username, notificationsEnabled: true };
}

/** Spec §5: no client-side validation here; the server's field messages are shown under the fields. */
export function ProfileTab({ user }: { user: User }) {
  const update = useUpdateProfile();
  const theme = useTheme();
  const form = useForm<ProfileForm>({ defaultValues: formValues(user) });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(({ fullName, username, notificationsEnabled }) => {
    update.mutate(
      { fullName, username, profileImageUrl: user.profileImageUrl ?? '' },
      {
        onSuccess: (saved) => form.reset({ ...formValues(saved), notificationsEnabled }),
        onError: (error) => {
          if (!(error instanceof ApiError)) return;
          for (const { path, message } of error.data?.errors ?? []) {
            if (path === 'fullName' || path === 'username') form.setError(path, { message });
          }
          if (error.status === 409 && error.data?.message) form.setError('username', { message: error.data.message });
        },
      },
    );
  });

  return (
    <Card>
      <form onSubmit={onSubmit} noValidate>
        <CardHeader>
          <CardTitle>Profile Information</CardTitle>
          <CardDescription>Update how you appear in Botty.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5">
          <FormField label="Full Name" error={errors.fullName?.message}>
            <Input autoComplete="name" {...form.register('fullName')} />
          </FormField>
          <FormField label="Email" hint="Changing your email address is not supported yet.">
            <Input type="email" disabled {...form.register('email')} />
          </FormField>
          <FormField label="Username" error={errors.username?.message}>
            <Input autoComplete="username" autoCapitalize="none" spellCheck={false} {...form.register('username')} />
          </FormField>
          <Controller
            control={form.control}
            name="notificationsEnabled"
            render={({ field }) => (
              <div className="flex min-h-11 items-center gap-3">
                <Checkbox
                  id="notifications-enabled"
                  name={field.name}
                  checked={field.value}
                  onCheckedChange={(checked) => field.onChange(checked === true)}
                  onBlur={field.onBlur}
                  ref={field.ref}
                />
                <Label htmlFor="notifications-enabled" touchTarget className="font-normal">
                  Enable email notifications
                </Label>
              </div>
            )}
          />

          <div className="grid gap-3 border-t pt-5">
            <h3 className="text-base font-semibold">Preferences</h3>
            <div className="flex items-center justify-between gap-4">
              <div className="grid gap-1">
                <Label htmlFor="dark-mode" touchTarget>
                  Dark mode
                </Label>
                <p id="dark-mode-hint" className="text-sm text-muted-foreground">
                  Applies at once, and follows your account to your other devices.
                </p>
              </div>
              <Switch
                id="dark-mode"
                aria-describedby="dark-mode-hint"
                checked={theme === 'dark'}
                onCheckedChange={(checked) => setTheme(checked ? 'dark' : 'light')}
              />
            </div>
          </div>
        </CardContent>
        <SettingsFormFooter pending={update.isPending} label="Save Changes" pendingLabel="Saving..." />
      </form>
    </Card>
  );
}
