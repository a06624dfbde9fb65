import { useQueryClient } from '@tanstack/react-query';
import { MailWarning } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Controller, type Resolver, useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import type { z } from 'zod';
import type { LoginBody, loginBodySchema } from '@shared/contracts/auth';
import { PendingButton } from '@/components/ui/pending-button';
import { Checkbox } from '@/components/ui/checkbox';
import { FormField, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PageSpinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { AuthLayout, linkClass } from '@/features/auth/components/auth-layout';
import { useLogin } from '@/features/auth/api/login';
import { useResendVerification } from '@/features/auth/api/resend-verification';
import { USER_QUERY_KEY, useAuth } from '@/lib/auth';
import { carryToast } from '@/lib/carried-toast';
import { applyAccountPreferences } from '@/lib/preferences';
import { ApiError, serverMessage } from '@/lib/request';
import { saveSession, takeRedirectAfterLogin } from '@/lib/storage';

/** Spec §9: a signed-in visitor leaves /login after 100 ms. */
const DELAY_LOGIN_REDIRECT_MS = 100;

const LOGIN_FAILED = 'Invalid username or password. Please try again.';

type LoginFields = z.input<typeof loginBodySchema>;

/** The contract's rules and messages, with zod, load at the first check rather than with the page (bundle budget). */
const loginResolver: Resolver<LoginFields, unknown, LoginBody> = async (...args) => {
  const [{ zodResolver }, { loginBodySchema }] = await Promise.all([
    import('@hookform/resolvers/zod'),
    import('@shared/contracts/auth'),
  ]);
  return zodResolver(loginBodySchema)(...args);
};

export function LoginPage() {
  const { isAuthenticated, isLoading } = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const login = useLogin();
  const resend = useResendVerification();
  // Once this sign-in succeeds a full page load follows; the "already signed in" redirect must not race it.
  const [signedIn, setSignedIn] = useState(false);
  const [unverifiedEmail, setUnverifiedEmail] = useState<string | null>(null);

  const form = useForm<LoginFields, unknown, LoginBody>({
    resolver: loginResolver,
    defaultValues: { username: '', password: '', rememberMe: false },
  });
  const { errors } = form.formState;

  const alreadySignedIn = isAuthenticated && !signedIn;
  useEffect(() => {
    if (!alreadySignedIn) return;
    const timer = setTimeout(() => void navigate('/', { replace: true }), DELAY_LOGIN_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [alreadySignedIn, navigate]);

  if (isLoading || alreadySignedIn) return <PageSpinner />;

  const onSubmit = form.handleSubmit((values) => {
    setUnverifiedEmail(null);
    login.mutate(values, {
      onSuccess: async ({ token, user }) => {
        setSignedIn(true);
        saveSession(token, user, values.rememberMe ?? false);
        await queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
        // A full page load follows at once: the toast is shown by the next page.
        carryToast({ title: 'Login successful', description: 'Welcome back to Botty!' });
        await applyAccountPreferences({ signingIn: true });
        window.location.assign(takeRedirectAfterLogin() ?? '/');
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status === 403 && error.data?.needsVerification) {
          setUnverifiedEmail(error.data.email ?? values.username);
          toast({
            variant: 'destructive',
            title: 'Email verification required',
            description: 'Please verify your email address before logging in',
          });
          return;
        }
        // Refused for a reason of its own (the account is disabled): said in the form, where it stays.
        const refused = error instanceof ApiError && error.status === 403 && serverMessage(error);
        if (refused) {
          form.setError('root.server', { message: refused });
          return;
        }
        const tooMany = error instanceof ApiError && error.status === 429;
        toast({
          variant: 'destructive',
          title: 'Login failed',
          description: (tooMany && serverMessage(error)) || LOGIN_FAILED,
        });
      },
    });
  });

  const busy = login.isPending || signedIn;

  return (
    <AuthLayout
      title="Sign in to Botty"
      description="Welcome back! Sign in to chat with your botties."
      footer={
        <p>
          Don&apos;t have an account?{' '}
          <Link to="/register" className={linkClass}>
            Create one
          </Link>
        </p>
      }
    >
      {unverifiedEmail && (
        <section
          aria-labelledby="verify-heading"
          className="mb-6 rounded-lg border border-primary/30 bg-accent/60 p-4 text-sm"
        >
          <div className="flex gap-3">
            <MailWarning className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
            <div className="grid gap-2">
              <h2 id="verify-heading" className="font-semibold">
                Email verification required
              </h2>
              <p className="text-muted-foreground">
                We sent a verification link to <strong className="break-all text-foreground">{unverifiedEmail}</strong>.
                Open it to activate your account, then sign in.
              </p>
              <PendingButton
                variant="outline"
                size="sm"
                className="justify-self-start"
                pending={resend.isPending}
                onClick={() => resend.mutate({ email: unverifiedEmail })}
              >
                Resend verification email
              </PendingButton>
            </div>
          </div>
        </section>
      )}
      <form onSubmit={onSubmit} noValidate className="grid gap-5">
        <FormField label="Username" error={errors.username?.message}>
          <Input
            autoComplete="username"
            placeholder="Username or email"
            autoCapitalize="none"
            spellCheck={false}
            {...form.register('username')}
          />
        </FormField>
        <FormField label="Password" error={errors.password?.message}>
          <Input type="password" autoComplete="current-password" {...form.register('password')} />
        </FormField>
        <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
          <Controller
            control={form.control}
            name="rememberMe"
            render={({ field }) => (
              <div className="flex min-h-11 items-center gap-3">
                <Checkbox
                  id="remember-me"
                  name={field.name}
                  checked={field.value ?? false}
                  onCheckedChange={(checked) => field.onChange(checked === true)}
                  onBlur={field.onBlur}
                  ref={field.ref}
                />
                <Label htmlFor="remember-me" touchTarget className="font-normal">
                  Remember me
                </Label>
              </div>
            )}
          />
          <Link to="/forgot-password" className={`${linkClass} inline-flex min-h-11 items-center text-sm`}>
            Forgot password
          </Link>
        </div>
        <FormMessage>{errors.root?.server?.message}</FormMessage>
        <PendingButton type="submit" className="w-full" pending={busy} pendingLabel="Signing in...">
          Sign in
        </PendingButton>
      </form>
    </AuthLayout>
  );
}
