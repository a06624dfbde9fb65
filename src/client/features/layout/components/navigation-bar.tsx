import { CircleUser, Compass, History, House, LayoutGrid, LogOut, Menu, Settings, ShieldCheck, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { Logo } from '@/components/logo';
import { Button } from '@/components/ui/button';
import { WithTooltip } from '@/components/ui/tooltip';
import { useAuth, useLogout } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { isAdminRole } from '@/lib/roles';

const LINKS = [
  { to: '/', label: 'Home', icon: House },
  { to: '/dashboard', label: 'My Botties', icon: LayoutGrid },
  { to: '/explore', label: 'Explore', icon: Compass },
  { to: '/history', label: 'History', icon: History },
] as const;
const ADMIN_LINK = { to: '/admin', label: 'Admin', icon: ShieldCheck } as const;

const focusRing =
  'focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background focus-visible:outline-none';

export function NavigationBar() {
  const { isAuthenticated, user } = useAuth();
  // The console's own page refuses others too; the entry is only for those it serves.
  const links = isAdminRole(user?.role) ? [...LINKS, ADMIN_LINK] : LINKS;
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
          {links.map(({ to, label }) => (
            <NavLink
              key={to}
              to={to}
              end={to !== ADMIN_LINK.to}
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
          <WithTooltip label="Account settings">
            <Button asChild variant="ghost" size="icon" className="ml-2 rounded-full">
              <NavLink to="/settings" aria-label="Settings">
                <CircleUser className="size-5" aria-hidden="true" />
              </NavLink>
            </Button>
          </WithTooltip>
          {isAuthenticated && (
            <WithTooltip label="Log out">
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
            </WithTooltip>
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
        <div id="mobile-menu" className="border-t bg-background md:hidden">
          <ul className="mx-auto grid max-w-6xl gap-1 px-4 py-3">
            {[...links, { to: '/settings', label: 'Settings', icon: Settings }].map(({ to, label, icon: Icon }) => (
              <li key={to}>
                <NavLink
                  to={to}
                  end={to !== ADMIN_LINK.to}
                  className={({ isActive }) =>
                    cn(
                      'flex min-h-11 items-center gap-3 rounded-md px-3 text-base font-medium hover:bg-accent',
                      isActive && 'bg-accent text-accent-foreground',
                      focusRing,
                    )
                  }
                >
                  <Icon className="size-5 text-muted-foreground" aria-hidden="true" />
                  {label}
                </NavLink>
              </li>
            ))}
            <li>
              <button
                type="button"
                className={cn(
                  'flex min-h-11 w-full items-center gap-3 rounded-md px-3 text-left text-base font-medium hover:bg-accent',
                  focusRing,
                )}
                disabled={logout.isPending}
                onClick={() => logout.mutate()}
              >
                <LogOut className="size-5 text-muted-foreground" aria-hidden="true" />
                Logout
              </button>
            </li>
          </ul>
        </div>
      )}
    </header>
  );
}
