import { ChartColumn, PlugZap, Users } from 'lucide-react';
import { Navigate, NavLink, useParams } from 'react-router';
import { PageContainer, PageHeader } from '@/components/page-header';
import { useAuth } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { ConnectionsSection } from './connections-section';
import { PeopleSection } from './people-section';
import { UsageSection } from './usage-section';

const SECTIONS = [
  { path: 'connections', label: 'Connections', icon: PlugZap, Section: ConnectionsSection },
  { path: 'people', label: 'People', icon: Users, Section: PeopleSection },
  { path: 'usage', label: 'Usage', icon: ChartColumn, Section: UsageSection },
] as const;

/** The admin console (route /admin/*): each section has its own address, so a reload or a link opens it again. */
export function AdminPage() {
  const { user, isAdmin } = useAuth();
  const asked = useParams()['*']?.split('/')[0] || 'connections';
  const section = SECTIONS.find((s) => s.path === asked);
  if (!user) return null;
  if (!section) return <Navigate to="/admin" replace />;

  return (
    <PageContainer className="grid gap-6">
      <PageHeader title="Admin" description="AI connections and models, people, and usage of this Botty." />
      {isAdmin ? (
        <>
          <nav aria-label="Admin sections">
            <ul className="grid grid-cols-3 gap-1 rounded-lg bg-muted p-1 text-muted-foreground sm:inline-flex">
              {SECTIONS.map(({ path, label, icon: Icon }) => (
                <li key={path}>
                  <NavLink
                    to={`/admin/${path}`}
                    aria-current={path === section.path ? 'page' : undefined}
                    className={cn(
                      'flex min-h-11 items-center justify-center gap-1.5 rounded-md px-2 text-sm sm:px-3 font-medium whitespace-nowrap transition-colors md:min-h-9',
                      'hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
                      path === section.path && 'bg-background text-foreground shadow-sm',
                    )}
                  >
                    <Icon className="size-4 max-sm:hidden" aria-hidden="true" />
                    {label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <section.Section />
        </>
      ) : (
        <p role="alert" className="text-destructive">
          Only an administrator can do this.
        </p>
      )}
    </PageContainer>
  );
}
