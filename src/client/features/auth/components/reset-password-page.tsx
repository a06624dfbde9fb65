import { zodResolver } from '@hookform/resolvers/zod';
import { CircleCheck, CircleX } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { Link, useParams } from 'react-router';
import type { z } from 'zod';
import { type ResetPasswordForm, resetPasswordFormSchema } from '@shared/contracts/auth';
import { Button } from '@/components/ui/button';
import { PendingButton } from '@/components/ui/pending-button';
import { FormField } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { AuthIcon, AuthLayout } from '@/features/auth/components/auth-layout';
import { useResetPassword } from '@/features/auth/api/reset-password';

export function ResetPasswordPage() {
  const { token } = useParams();
  const reset = useResetPassword();
  const form = useForm<z.input<typeof resetPasswordFormSchema>, unknown, ResetPasswordForm>({
    resolver: zodResolver(resetPasswordFormSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });
  const { errors } = form.formState;

  if (!token) {
    return (
      <AuthLayout
        title="Invalid reset link"
        icon={
          <AuthIcon tone="error">
            <CircleX />
          </AuthIcon>
        }
        description="The password reset link is invalid or has expired."
      >
        <Button asChild className="w-full">
          <Link to="/forgot-password">Request a new reset link</Link>
        </Button>
      </AuthLayout>
    );
  }

  if (reset.isSuccess) {
    return (
      <AuthLayout
        title="Password reset successful"
        icon={
          <AuthIcon tone="success">
            <CircleCheck />
          </AuthIcon>
        }
        description="Your password has been changed. You can now sign in with your new password."
      >
        <Button asChild className="w-full">
          <Link to="/login">Go to login</Link>
        </Button>
      </AuthLayout>
    );
  }

  const onSubmit = form.handleSubmit(({ password }) => reset.mutate({ token, newPassword: password }));

  return (
    <AuthLayout title="Choose a new password" description="Enter a new password for your Botty account.">
      <form onSubmit={onSubmit} noValidate className="grid gap-5">
        <FormField label="New Password" error={errors.password?.message}>
          <Input type="password" autoComplete="new-password" {...form.register('password')} />
        </FormField>
        <FormField label="Confirm Password" error={errors.confirmPassword?.message}>
          <Input type="password" autoComplete="new-password" {...form.register('confirmPassword')} />
        </FormField>
        <PendingButton type="submit" className="w-full" pending={reset.isPending} pendingLabel="Resetting...">
          Reset password
        </PendingButton>
      </form>
    </AuthLayout>
  );
}
