import { useEffect } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { PageSpinner } from '@/components/ui/spinner';
import { useAuth } from '@/lib/auth';
import { setRedirectAfterLogin } from '@/lib/storage';

export function ProtectedRoute() {
  const { isAuthenticated, isLoading } = useAuth();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();

  useEffect(() => {
    if (isLoading || isAuthenticated) return;
    setRedirectAfterLogin(pathname + search);
    void navigate('/login', { replace: true });
  }, [isAuthenticated, isLoading, navigate, pathname, search]);

  return isAuthenticated ? <Outlet /> : <PageSpinner />;
}
