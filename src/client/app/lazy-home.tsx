import { lazy, Suspense } from 'react';
import { PageSpinner } from '@/components/ui/spinner';

// The home screen (particles, pinned bots, the chat panel) is the heaviest page: a guest on `/` or `/login`
// never needs it, so it loads on demand rather than with the first page (bundle budget: scripts/check-bundle.ts).
const HomePage = lazy(async () => ({ default: (await import('@/features/home/components/home-page')).HomePage }));

export function LazyHomePage() {
  return (
    <Suspense fallback={<PageSpinner />}>
      <HomePage />
    </Suspense>
  );
}
