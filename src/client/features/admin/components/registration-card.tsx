import { REGISTRATION_MODES, type RegistrationMode } from '@shared/contracts/admin';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { RadioCard, RadioGroup } from '@/components/ui/radio-group';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { useAdminSettings, useUpdateAdminSettings } from '@/entities/admin/api/admin-settings';
import { serverMessage } from '@/lib/request';

const MODES: Record<RegistrationMode, { label: string; description: string }> = {
  open: { label: 'Open', description: 'Anyone can create an account.' },
  closed: { label: 'Closed', description: 'No one can sign up on their own.' },
  invitation: { label: 'Invitation only', description: 'Only people with an invitation link can sign up.' },
};

/** Who may sign up; saved as soon as it is chosen. */
export function RegistrationCard() {
  const settings = useAdminSettings();
  const update = useUpdateAdminSettings();
  const choose = (mode: string) =>
    update.mutate(
      { registrationMode: mode as RegistrationMode },
      {
        onSuccess: () =>
          toast({ title: 'Registration updated', description: MODES[mode as RegistrationMode].description }),
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'Could not change registration',
            description: serverMessage(error) ?? '',
          }),
      },
    );

  return (
    <Card>
      <CardHeader>
        <CardTitle id="registration-title">Registration</CardTitle>
        <CardDescription>Who can create an account on this Botty.</CardDescription>
      </CardHeader>
      <CardContent>
        {settings.data ? (
          <RadioGroup
            aria-labelledby="registration-title"
            className="sm:grid-cols-3"
            value={settings.data.registrationMode}
            disabled={update.isPending}
            onValueChange={choose}
          >
            {REGISTRATION_MODES.map((mode) => (
              <RadioCard key={mode} value={mode} aria-describedby={`registration-${mode}`}>
                <span className="grid gap-0.5">
                  <span className="font-medium">{MODES[mode].label}</span>
                  <span id={`registration-${mode}`} className="text-xs text-muted-foreground">
                    {MODES[mode].description}
                  </span>
                </span>
              </RadioCard>
            ))}
          </RadioGroup>
        ) : settings.isError ? (
          <p role="alert" className="text-destructive">
            The registration setting could not be loaded.
          </p>
        ) : (
          <Skeleton className="h-20" />
        )}
      </CardContent>
    </Card>
  );
}
