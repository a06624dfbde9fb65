import { zodResolver } from '@hookform/resolvers/zod';
import { MailCheck } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import { type EmailBody, emailBodySchema } from '@shared/contracts/auth';
import { Button } from '@/components/ui/button';
import { PendingButton } from '@/components/ui/pending-button';
import { FormField } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { AuthIcon, AuthLayout, linkClass } from '@/features/auth/components/auth-layout';
import { useForgotPassword } from '@/features/auth/api/forgot-password';

export function ForgotPasswordPage() {
  const forgot = useForgotPassword();
  const [sent, setSent] = useState(false);
  const form = useForm<z.input<typeof emailBodySchema>, unknown, EmailBody>({
    resolver: zodResolver(emailBodySchema),
    defaultValues: { email: '' },
  });

  // The same answer whether or not the call succeeds, so nobody can probe which addresses have accounts.
  const onSubmit = form.handleSubmit((values) => forgot.mutate(values, { onSettled: () => setSent(true) }));

  if (sent) {
    return (
      <AuthLayout
        title="Check your email"
        icon={
          <AuthIcon>
            <MailCheck />
          </AuthIcon>
        }
        description="If an account exists with that email, we've sent a password reset link."
      >
        <Button asChild className="w-full">
          <Link to="/login">Return to login</Link>
        </Button>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Forgot your password?"
      description="Enter the email address of your account and we'll send you a link to choose a new password."
      footer={
        <p>
          Remembered it?{' '}
          <Link to="/login" className={linkClass}>
            Sign in
          </Link>
        </p>
      }
    >
      <form onSubmit={onSubmit} noValidate className="grid gap-5">
        <FormField label="Email" error={form.formState.errors.email?.message}>
          <Input type="email" autoComplete="email" {...form.register('email')} />
        </FormField>
        <PendingButton type="submit" className="w-full" pending={forgot.isPending} pendingLabel="Sending...">
          Send reset link
        </PendingButton>
      </form>
    </AuthLayout>
  );
}
