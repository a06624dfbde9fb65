import { Plus } from 'lucide-react';
import { useState } from 'react';
import type { Connection } from '@shared/contracts/admin';
import { ConfirmDeleteDialog } from '@/components/confirm-delete-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { useConnections, useDeleteConnection } from '@/entities/admin/api/connections';
import { serverMessage } from '@/lib/request';
import { ConnectionCard } from './connection-card';
import { ConnectionDialog } from './connection-dialog';
import { DefaultModelsCard } from './default-models-card';

/** Admin → Connections: the model servers Botty talks to, their models, and the default model per task. */
export function ConnectionsSection() {
  const connections = useConnections();
  const remove = useDeleteConnection();
  const [editing, setEditing] = useState<Connection | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Connection | null>(null);

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        toast({ title: 'Connection deleted', description: deleting.name });
        setDeleting(null);
      },
      onError: (error) =>
        toast({ variant: 'destructive', title: 'Could not delete', description: serverMessage(error) ?? '' }),
    });
  };

  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader className="sm:flex-row sm:items-start sm:justify-between">
          <div className="grid gap-1.5">
            <CardTitle>AI connections</CardTitle>
            <CardDescription>
              Model servers Botty can use. Test one to choose which of its models people may pick.
            </CardDescription>
          </div>
          <Button className="self-start" onClick={() => setEditing('new')}>
            <Plus aria-hidden="true" />
            Add connection
          </Button>
        </CardHeader>
        <CardContent className="grid gap-4">
          {connections.isError ? (
            <p role="alert" className="text-destructive">
              The connections could not be loaded.
            </p>
          ) : !connections.data ? (
            <Skeleton className="h-32" />
          ) : connections.data.length === 0 ? (
            <div className="grid gap-1 rounded-xl border border-dashed p-4 text-sm">
              <p className="font-medium">No connection yet: Botty answers offline.</p>
              <p className="text-muted-foreground">
                Ollama on this machine: <code className="break-all">http://127.0.0.1:11434/v1</code> (kind
                OpenAI-compatible, with “Allow private or loopback address”).
              </p>
            </div>
          ) : (
            <ul className="grid gap-4" aria-label="Connections">
              {connections.data.map((connection) => (
                <ConnectionCard
                  key={connection.id}
                  connection={connection}
                  onEdit={() => setEditing(connection)}
                  onDelete={() => setDeleting(connection)}
                />
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      <DefaultModelsCard />
      <ConnectionDialog
        key={editing === 'new' ? 'new' : editing?.id}
        open={editing !== null}
        connection={editing === 'new' || editing === null ? undefined : editing}
        onClose={() => setEditing(null)}
      />
      <ConfirmDeleteDialog
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete connection?"
        description={`Bots using models of “${deleting?.name ?? ''}” will answer with the default model instead.`}
        confirmLabel="Delete connection"
        pending={remove.isPending}
        onConfirm={confirmDelete}
      />
    </div>
  );
}
