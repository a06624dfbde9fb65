import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { ADMIN_MESSAGES } from '@shared/contracts/admin';
import { type RegisterForm, registerFormSchema } from '@shared/contracts/auth';
import { PendingButton } from '@/components/ui/pending-button';
import { Button } from '@/components/ui/button';
import { FormField, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { PageSpinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { AuthLayout, linkClass } from '@/features/auth/components/auth-layout';
import { useRegister } from '@/features/auth/api/register';
import { useRegistrationInfo } from '@/features/auth/api/registration';
import { useAuthSetup } from '@/features/auth/api/setup';
import { useAuth } from '@/lib/auth';
import { ApiError, serverMessage } from '@/lib/request';

type FieldName = keyof RegisterForm;
const FIELDS: readonly FieldName[] = ['username', 'email', 'password', 'confirmPassword', 'setupCode'];

function isField(path: string): path is FieldName {
  return (FIELDS as readonly string[]).includes(path);
}

export function RegisterPage() {
  const { isAuthenticated, isLoading } = useAuth();
  const navigate = useNavigate();
  const registration = useRegister();
  const setup = useAuthSetup();
  const registrationInfo = useRegistrationInfo();
  // An invitation link is /register?invitation=<token>; the token goes with the sign-up.
  const [params] = useSearchParams();
  const invitation = params.get('invitation')?.trim() || undefined;
  const needsSetupCode = setup.data?.setupCodeRequired === true;
  const form = useForm<z.input<typeof registerFormSchema>, unknown, RegisterForm>({
    resolver: zodResolver(registerFormSchema),
    defaultValues: { username: '', email: '', password: '', confirmPassword: '', setupCode: '' },
  });
  const { errors } = form.formState;

  if (isLoading || registrationInfo.isPending) return <PageSpinner />;
  if (isAuthenticated) return <Navigate to="/dashboard" replace />;

  // Unknown (the question failed): the form, whose sign-up the server refuses with its reason if it must.
  const mode = registrationInfo.data?.mode ?? 'open';
  const refusal =
    mode === 'closed'
      ? ADMIN_MESSAGES.registrationClosed
      : mode === 'invitation' && !invitation
        ? ADMIN_MESSAGES.invitationRequired
        : null;
  if (refusal) return <RegistrationRefused message={refusal} />;

  const showServerErrors = (error: unknown) => {
    if (!(error instanceof ApiError)) return;
    for (const fieldError of error.data?.errors ?? []) {
      if (isField(fieldError.path)) form.setError(fieldError.path, { message: fieldError.message });
    }
    // A 409 names the clash ("Username already taken"); put it under the field it concerns.
    const message = error.data?.message;
    if (error.status === 409 && message) {
      form.setError(/e-?mail/i.test(message) ? 'email' : 'username', { message });
    }
    // A 403 on the first account's sign-up is the setup code's (decision 0030); later ones are the
    // registration mode's or the invitation's, about the whole form.
    if (error.status === 403 && message) form.setError(needsSetupCode ? 'setupCode' : 'root.server', { message });
  };

  const onSubmit = form.handleSubmit(({ username, email, password, setupCode }) => {
    registration.mutate(
      {
        username,
        email,
        password,
        fullName: '',
        role: 'user',
        ...(needsSetupCode ? { setupCode } : {}),
        ...(invitation ? { invitation } : {}),
      },
      {
        onSuccess: ({ needsVerification }) => {
          void setup.refetch();
          toast({
            title: 'Registration successful',
            // Without mail delivery configured the server does not ask for verification (decisions §2).
            description:
              needsVerification === false ? 'You can now sign in.' : 'Please check your email to verify your account',
          });
          void navigate('/login');
        },
        onError: (error) => {
          showServerErrors(error);
          // Said once, in the form, when it is about the form as a whole.
          if (error instanceof ApiError && error.status === 403 && !needsSetupCode) return;
          toast({
            variant: 'destructive',
            title: 'Registration failed',
            description: serverMessage(error) ?? 'Something went wrong. Please try again.',
          });
        },
      },
    );
  });

  const busy = registration.isPending;

  return (
    <AuthLayout
      title="Create an account"
      description="Join Botty to create and customise your own AI assistants"
      footer={
        <p>
          Already have an account?{' '}
          <Link to="/login" className={linkClass}>
            Sign in
          </Link>
        </p>
      }
    >
      <form onSubmit={onSubmit} noValidate className="grid gap-5">
        {needsSetupCode && (
          <FormField
            label="Setup code"
            error={errors.setupCode?.message}
            hint="This server has no account yet. Its setup code is printed in the server log; the first account administers the server."
          >
            <Input autoComplete="off" autoCapitalize="characters" spellCheck={false} {...form.register('setupCode')} />
          </FormField>
        )}
        <FormField label="Username" error={errors.username?.message}>
          <Input autoComplete="username" autoCapitalize="none" spellCheck={false} {...form.register('username')} />
        </FormField>
        <FormField label="Email" error={errors.email?.message}>
          <Input type="email" autoComplete="email" {...form.register('email')} />
        </FormField>
        <FormField label="Password" error={errors.password?.message}>
          <Input type="password" autoComplete="new-password" {...form.register('password')} />
        </FormField>
        <FormField label="Confirm Password" error={errors.confirmPassword?.message}>
          <Input type="password" autoComplete="new-password" {...form.register('confirmPassword')} />
        </FormField>
        <FormMessage>{errors.root?.server?.message}</FormMessage>
        <PendingButton type="submit" className="w-full" pending={busy} pendingLabel="Creating account...">
          Register
        </PendingButton>
      </form>
    </AuthLayout>
  );
}

/** Closed, or by invitation without one: why there is no form, and the way to those who already have an account. */
function RegistrationRefused({ message }: { message: string }) {
  return (
    <AuthLayout title="Create an account">
      <div className="grid gap-5">
        <p role="status" className="text-center text-sm">
          {message}
        </p>
        <Button asChild className="w-full">
          <Link to="/login">Sign in</Link>
        </Button>
      </div>
    </AuthLayout>
  );
}
