import { CircleCheck, CircleX, MailCheck } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, useParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { AuthIcon, AuthLayout } from '@/features/auth/components/auth-layout';
import { useVerifyEmail } from '@/features/auth/api/verify-email';
import { serverMessage } from '@/lib/request';

export function VerifyEmailPage() {
  const { token } = useParams();
  const verify = useVerifyEmail();
  const { mutate } = verify;
  // StrictMode runs effects twice in development; the token is single-use, so it is sent once.
  const sent = useRef(false);

  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    mutate(token);
  }, [token, mutate]);

  if (!token || verify.isError) {
    return (
      <AuthLayout
        title="Verification failed"
        icon={
          <AuthIcon tone="error">
            <CircleX />
          </AuthIcon>
        }
        description={
          token
            ? (serverMessage(verify.error) ?? 'Verification failed. The link may have expired or is invalid.')
            : 'Invalid verification link. Please check your email and try again.'
        }
      >
        <Button asChild className="w-full">
          <Link to="/login">Return to login</Link>
        </Button>
      </AuthLayout>
    );
  }

  if (verify.isSuccess) {
    return (
      <AuthLayout
        title="Email verified"
        icon={
          <AuthIcon tone="success">
            <CircleCheck />
          </AuthIcon>
        }
        description={verify.data.message || 'Your email address has been verified. You can now sign in.'}
      >
        <Button asChild className="w-full">
          <Link to="/login">Log in</Link>
        </Button>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Verifying your email"
      icon={
        <AuthIcon>
          <MailCheck />
        </AuthIcon>
      }
      description="This only takes a moment."
    >
      <div className="flex justify-center text-primary">
        <Spinner className="size-6" label="Verifying your email" />
      </div>
    </AuthLayout>
  );
}
