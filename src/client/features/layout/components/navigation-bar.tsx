import { CircleUser, LogOut, Menu, X } from 'lucide-react';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { Logo } from '@/components/logo';
import { Button } from '@/components/ui/button';
import { DeferredTooltip } from '@/components/ui/deferred-tooltip';
import { useAuth, useLogout } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { focusRing, type NavEntry } from './nav-entries';

const LINKS: NavEntry[] = [
  { to: '/', label: 'Home' },
  { to: '/dashboard', label: 'My Botties' },
  { to: '/explore', label: 'Explore' },
  { to: '/history', label: 'History' },
];
const ADMIN_LINK: NavEntry = { to: '/admin', label: 'Admin', section: true };

// The phone menu, with its icons, loads when first opened: it is not part of the first page (decision 0016).
const MobileMenu = lazy(async () => ({ default: (await import('./mobile-menu')).MobileMenu }));

export function NavigationBar() {
  const { isAuthenticated, isAdmin } = useAuth();
  // The console's own page refuses others too; the entry is only for those it serves.
  const links = isAdmin ? [...LINKS, ADMIN_LINK] : LINKS;
  const logout = useLogout();
  const { pathname } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);

  useEffect(() => setMenuOpen(false), [pathname]);

  useEffect(() => {
    if (!menuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [menuOpen]);

  return (
    <header className="sticky top-0 z-40 border-b bg-background/90 backdrop-blur supports-[backdrop-filter]:bg-background/75">
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <Link to="/" className={cn('-mx-1 rounded-md px-1', focusRing)}>
          <Logo />
        </Link>

        <div className="hidden items-center gap-1 md:flex">
          {links.map(({ to, label, section }) => (
            <NavLink
              key={to}
              to={to}
              end={!section}
              className={({ isActive }) =>
                cn(
                  'rounded-md px-3 py-2 text-sm font-medium transition-colors hover:bg-accent hover:text-accent-foreground',
                  isActive ? 'text-foreground' : 'text-muted-foreground',
                  isActive && 'bg-accent text-accent-foreground',
                  focusRing,
                )
              }
            >
              {label}
            </NavLink>
          ))}
          <DeferredTooltip label="Account settings">
            <Button asChild variant="ghost" size="icon" className="ml-2 rounded-full">
              <NavLink to="/settings" aria-label="Settings">
                <CircleUser className="size-5" aria-hidden="true" />
              </NavLink>
            </Button>
          </DeferredTooltip>
          {isAuthenticated && (
            <DeferredTooltip label="Log out">
              <Button
                variant="ghost"
                size="icon"
                className="rounded-full"
                aria-label="Logout"
                disabled={logout.isPending}
                onClick={() => logout.mutate()}
              >
                <LogOut className="size-5" aria-hidden="true" />
              </Button>
            </DeferredTooltip>
          )}
        </div>

        <Button
          ref={toggleRef}
          variant="ghost"
          size="icon"
          className="md:hidden"
          aria-label="Menu"
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? <X className="size-5" aria-hidden="true" /> : <Menu className="size-5" aria-hidden="true" />}
        </Button>
      </nav>

      {menuOpen && (
        <Suspense>
          <MobileMenu links={links} onLogout={() => logout.mutate()} loggingOut={logout.isPending} />
        </Suspense>
      )}
    </header>
  );
}
