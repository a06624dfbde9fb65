import { PageSpinner } from '@/components/ui/spinner';
import { LazyHomePage } from '@/app/lazy-home';
import { LandingPage } from '@/features/landing/components/landing-page';
import { useAuth } from '@/lib/auth';

/** `/` is public (spec §2): the home screen when signed in, the landing page for guests. */
export function RootRoute() {
  const { isAuthenticated, isLoading } = useAuth();
  if (isLoading) return <PageSpinner />;
  return isAuthenticated ? <LazyHomePage /> : <LandingPage />;
}
