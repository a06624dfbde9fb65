import { Compass, History, House, LayoutGrid, LogOut, Settings, ShieldCheck, type LucideIcon } from 'lucide-react';
import { NavLink } from 'react-router';
import { cn } from '@/lib/cn';
import { focusRing, type NavEntry } from './nav-entries';

const ICONS: Record<string, LucideIcon> = {
  '/': House,
  '/dashboard': LayoutGrid,
  '/explore': Compass,
  '/history': History,
  '/admin': ShieldCheck,
  '/settings': Settings,
};

interface MobileMenuProps {
  links: NavEntry[];
  onLogout: () => void;
  loggingOut: boolean;
}

/** The navigation bar's menu on phones: every entry with its icon, Settings and Logout. */
export function MobileMenu({ links, onLogout, loggingOut }: MobileMenuProps) {
  return (
    <div id="mobile-menu" className="border-t bg-background md:hidden">
      <ul className="mx-auto grid max-w-6xl gap-1 px-4 py-3">
        {[...links, { to: '/settings', label: 'Settings' }].map(({ to, label, section }) => {
          const Icon = ICONS[to] ?? House;
          return (
            <li key={to}>
              <NavLink
                to={to}
                end={!section}
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
          );
        })}
        <li>
          <button
            type="button"
            className={cn(
              'flex min-h-11 w-full items-center gap-3 rounded-md px-3 text-left text-base font-medium hover:bg-accent',
              focusRing,
            )}
            disabled={loggingOut}
            onClick={onLogout}
          >
            <LogOut className="size-5 text-muted-foreground" aria-hidden="true" />
            Logout
          </button>
        </li>
      </ul>
    </div>
  );
}
