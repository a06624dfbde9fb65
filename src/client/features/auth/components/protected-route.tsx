import { useEffect, useRef } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { PageSpinner } from '@/components/ui/spinner';
import { useAuth } from '@/lib/auth';
import { setRedirectAfterLogin } from '@/lib/storage';

export function ProtectedRoute() {
  const { isAuthenticated, isLoading } = useAuth();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  // Logout clears the user while this page is still on screen (router updates are transitions);
  // a signed-in user leaving must not leave this page behind as the next post-login target.
  const wasAuthenticated = useRef(false);

  useEffect(() => {
    if (isLoading) return;
    if (isAuthenticated) {
      wasAuthenticated.current = true;
      return;
    }
    if (!wasAuthenticated.current) setRedirectAfterLogin(pathname + search);
    void navigate('/login', { replace: true });
  }, [isAuthenticated, isLoading, navigate, pathname, search]);

  return isAuthenticated ? <Outlet /> : <PageSpinner />;
}
