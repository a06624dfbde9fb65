import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useNavigate } from 'react-router';
import type { z } from 'zod';
import { type RegisterForm, registerFormSchema } from '@shared/contracts/auth';
import { PendingButton } from '@/components/ui/pending-button';
import { FormField } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { PageSpinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { AuthLayout, linkClass } from '@/features/auth/components/auth-layout';
import { useRegister } from '@/features/auth/api/register';
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
  const needsSetupCode = setup.data?.setupCodeRequired === true;
  const form = useForm<z.input<typeof registerFormSchema>, unknown, RegisterForm>({
    resolver: zodResolver(registerFormSchema),
    defaultValues: { username: '', email: '', password: '', confirmPassword: '', setupCode: '' },
  });
  const { errors } = form.formState;

  if (isLoading) return <PageSpinner />;
  if (isAuthenticated) return <Navigate to="/dashboard" replace />;

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
    // A 403 on sign-up is the setup code's (decision 0030).
    if (error.status === 403 && message) form.setError('setupCode', { message });
  };

  const onSubmit = form.handleSubmit(({ username, email, password, setupCode }) => {
    registration.mutate(
      { username, email, password, fullName: '', role: 'user', ...(needsSetupCode ? { setupCode } : {}) },
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
        <PendingButton type="submit" className="w-full" pending={busy} pendingLabel="Creating account...">
          Register
        </PendingButton>
      </form>
    </AuthLayout>
  );
}
