import { MapPinOff } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { Button } from '@/components/ui/button';
import { useDocumentTitle } from '@/lib/use-document-title';

export function NotFoundPage() {
  const { pathname } = useLocation();
  useDocumentTitle('Page not found');

  return (
    <div className="mx-auto flex w-full max-w-lg flex-1 flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <div
        className="flex size-14 items-center justify-center rounded-full bg-accent text-accent-foreground"
        aria-hidden="true"
      >
        <MapPinOff className="size-7" />
      </div>
      <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">404 Page Not Found</h1>
      <p className="text-muted-foreground">
        There is no page at{' '}
        <code className="rounded bg-muted px-1.5 py-0.5 text-sm break-all text-foreground">{pathname}</code>. Check the
        address for typos. If a link inside Botty brought you here, the page may be missing from the app&apos;s router.
      </p>
      <Button asChild>
        <Link to="/">Go to the home page</Link>
      </Button>
    </div>
  );
}
