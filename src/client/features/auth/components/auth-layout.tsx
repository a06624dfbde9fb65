import type { ReactNode } from 'react';
import { Logo } from '@/components/logo';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { useDocumentTitle } from '@/lib/use-document-title';

interface AuthLayoutProps {
  title: string;
  description?: ReactNode;
  icon?: ReactNode;
  footer?: ReactNode;
  children?: ReactNode;
}

/** The centred card every signed-out screen shares; its title is the page's only h1. */
export function AuthLayout({ title, description, icon, footer, children }: AuthLayoutProps) {
  useDocumentTitle(title);
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-6 bg-[radial-gradient(ellipse_80%_50%_at_50%_0%,var(--color-accent),transparent)] px-4 py-10 sm:py-16">
      <Logo size="lg" className="text-foreground" />
      <Card className="w-full max-w-md">
        <CardHeader className="items-center text-center">
          {icon}
          <CardTitle asChild className="text-2xl">
            <h1>{title}</h1>
          </CardTitle>
          {description && <CardDescription>{description}</CardDescription>}
        </CardHeader>
        {children && <CardContent>{children}</CardContent>}
        {footer && (
          <CardFooter className="justify-center text-center text-sm text-muted-foreground">{footer}</CardFooter>
        )}
      </Card>
    </div>
  );
}

/** A round tinted badge for the state icons shown above an auth card's title. */
export function AuthIcon({
  tone = 'primary',
  children,
}: {
  tone?: 'primary' | 'success' | 'error';
  children: ReactNode;
}) {
  const tones = {
    primary: 'bg-accent text-accent-foreground',
    success: 'bg-success text-success-foreground',
    error: 'bg-destructive/10 text-error',
  } as const;
  return (
    <div
      className={`mb-2 flex size-12 items-center justify-center rounded-full [&_svg]:size-6 ${tones[tone]}`}
      aria-hidden="true"
    >
      {children}
    </div>
  );
}

export const linkClass =
  'font-medium text-primary underline-offset-4 hover:underline focus-visible:rounded-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none';
