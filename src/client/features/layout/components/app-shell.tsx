import { lazy, Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { showCarriedToast } from '@/lib/carried-toast';
import { applyAccountPreferences } from '@/lib/preferences';
import { getAuthToken } from '@/lib/storage';

// Sign-in screens hide the bar, so it (with its tooltips) is its own chunk: `/login` never loads it (bundle budget).
const NavigationBar = lazy(async () => ({
  default: (await import('@/features/layout/components/navigation-bar')).NavigationBar,
}));

/** Paths on which the navigation bar is hidden (spec §2). */
const AUTH_PATH_PREFIXES = ['/login', '/register', '/forgot-password', '/reset-password', '/verify-email'];

function isAuthPath(pathname: string): boolean {
  return AUTH_PATH_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

/** A shared conversation read by a guest: no navigation of an account they do not have. */
const isSnapshotPath = (pathname: string) => pathname.startsWith('/s/');

export function AppShell() {
  const { pathname } = useLocation();
  useEffect(() => {
    showCarriedToast();
    // Pins and theme saved from another device since this one last loaded.
    if (getAuthToken()) void applyAccountPreferences();
  }, []);

  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-primary px-4 py-2 text-primary-foreground focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      {!isAuthPath(pathname) && !(isSnapshotPath(pathname) && !getAuthToken()) && (
        // The bar's height, held while its chunk arrives, so the page below does not jump.
        <Suspense fallback={<div className="h-16 border-b" />}>
          <NavigationBar />
        </Suspense>
      )}
      <main id="main" tabIndex={-1} className="flex flex-1 flex-col outline-none">
        <Outlet />
      </main>
    </div>
  );
}
