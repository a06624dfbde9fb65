import { Search } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { AdminUser } from '@shared/contracts/admin';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { useAdminSettings } from '@/entities/admin/api/admin-settings';
import { useAdminUsers } from '@/entities/admin/api/users';
import { useAuth } from '@/lib/auth';
import { formatCount } from '@/lib/format-count';
import { DeleteUserDialog } from './delete-user-dialog';
import { LimitsDialog } from './limits-dialog';
import { UserRow } from './user-row';

const SEARCH_DELAY_MS = 250;

/** Everyone with an account, searchable and paged, with what an admin can do to each. */
export function UsersCard() {
  const { user: viewer } = useAuth();
  const settings = useAdminSettings();
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const users = useAdminUsers(q, page);
  const [limitsOf, setLimitsOf] = useState<AdminUser | null>(null);
  const [deleting, setDeleting] = useState<AdminUser | null>(null);

  // The list follows the typing once it pauses, from its first page.
  useEffect(() => {
    const timer = setTimeout(() => {
      setQ(text.trim());
      setPage(1);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const pages = users.data ? Math.max(1, Math.ceil(users.data.total / users.data.pageSize)) : 1;
  return (
    <Card>
      <CardHeader>
        <CardTitle>People</CardTitle>
        <CardDescription>Accounts on this Botty: roles, access and daily limits.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="relative">
          <Search
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
            aria-hidden="true"
          />
          <Input
            type="search"
            aria-label="Search people"
            placeholder="Search by username, e-mail or name"
            className="pl-9"
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
        </div>
        {users.isError ? (
          <p role="alert" className="text-destructive">
            The people could not be loaded.
          </p>
        ) : !users.data || !viewer ? (
          <Skeleton className="h-48" />
        ) : users.data.users.length === 0 ? (
          <p className="text-sm text-muted-foreground">{q ? `No one matches “${q}”.` : 'No accounts yet.'}</p>
        ) : (
          <ul className="grid gap-3" aria-label="People">
            {users.data.users.map((person) => (
              <UserRow
                key={person.id}
                person={person}
                viewer={viewer}
                onLimits={() => setLimitsOf(person)}
                onDelete={() => setDeleting(person)}
              />
            ))}
          </ul>
        )}
        {users.data && users.data.total > users.data.pageSize && (
          <nav aria-label="Pages of people" className="flex flex-wrap items-center justify-between gap-2 text-sm">
            <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              Previous
            </Button>
            <span>
              Page {page} of {pages} · {formatCount(users.data.total)} people
            </span>
            <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => setPage(page + 1)}>
              Next
            </Button>
          </nav>
        )}
      </CardContent>
      <LimitsDialog
        key={limitsOf?.id}
        person={limitsOf}
        roleDefaults={limitsOf && settings.data ? settings.data.defaultLimits[limitsOf.role] : undefined}
        onClose={() => setLimitsOf(null)}
      />
      <DeleteUserDialog key={`delete-${deleting?.id}`} person={deleting} onClose={() => setDeleting(null)} />
    </Card>
  );
}
