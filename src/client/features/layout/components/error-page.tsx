import { TriangleAlert } from 'lucide-react';
import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { Button } from '@/components/ui/button';
import { useDocumentTitle } from '@/lib/use-document-title';

/** Last line of defence for render errors, instead of React Router's developer-facing default. */
export function ErrorPage() {
  const error = useRouteError();
  useDocumentTitle('Something went wrong');

  useEffect(() => {
    console.error(error);
  }, [error]);

  return (
    <main className="mx-auto flex min-h-dvh w-full max-w-lg flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <div
        className="flex size-14 items-center justify-center rounded-full bg-destructive/10 text-error"
        aria-hidden="true"
      >
        <TriangleAlert className="size-7" />
      </div>
      <h1 className="text-2xl font-semibold tracking-tight">Something went wrong</h1>
      <p className="text-muted-foreground">
        An unexpected error stopped this page from loading. Reloading usually helps; if it keeps happening, please tell
        us.
      </p>
      <Button onClick={() => window.location.reload()}>Reload the page</Button>
    </main>
  );
}
