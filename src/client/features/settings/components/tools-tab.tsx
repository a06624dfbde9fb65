import { Plus, Wrench } from 'lucide-react';
import { useState } from 'react';
import type { McpServer } from '@shared/contracts/mcp-servers';
import { ConfirmDeleteDialog } from '@/components/confirm-delete-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { useDeleteMcpServer, useMcpServers } from '@/entities/mcp-server/api/mcp-servers';
import { serverMessage } from '@/lib/request';
import { McpServerCard } from './mcp-server-card';
import { McpServerDialog } from './mcp-server-dialog';

/** The dialog open: adding (no server) or editing one. */
type Editing = { server?: McpServer } | null;

/** Settings → Tools: the MCP servers whose tools the person's botties may call. */
export function ToolsTab() {
  const servers = useMcpServers();
  const remove = useDeleteMcpServer();
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<McpServer | null>(null);

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        setDeleting(null);
        toast({ title: 'Server deleted', description: `Botties no longer use the tools of “${deleting.name}”.` });
      },
      onError: (error) =>
        toast({ variant: 'destructive', title: 'Could not delete', description: serverMessage(error) ?? '' }),
    });
  };

  const addButton = (
    <Button onClick={() => setEditing({})}>
      <Plus aria-hidden="true" />
      Add server
    </Button>
  );

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4">
        <div className="grid min-w-64 flex-1 gap-1.5">
          <CardTitle>Tools</CardTitle>
          <CardDescription>
            MCP servers your botties may call for tools. Tools that change something ask the person chatting first.
          </CardDescription>
        </div>
        {servers.data?.length ? addButton : null}
      </CardHeader>
      <CardContent>
        {servers.isPending ? (
          <div className="grid gap-3">
            <Skeleton className="h-24 w-full rounded-xl" />
            <Skeleton className="h-24 w-full rounded-xl" />
          </div>
        ) : servers.data?.length ? (
          <ul className="grid gap-3" aria-label="MCP servers">
            {servers.data.map((server) => (
              <McpServerCard
                key={server.id}
                server={server}
                onEdit={() => setEditing({ server })}
                onDelete={() => setDeleting(server)}
              />
            ))}
          </ul>
        ) : (
          <div className="grid justify-items-center gap-3 rounded-xl border border-dashed p-8 text-center">
            <Wrench className="size-8 text-muted-foreground" aria-hidden="true" />
            <p className="max-w-md text-sm text-muted-foreground">
              {servers.isError
                ? 'Your servers could not be loaded. Please try again.'
                : 'An MCP (Model Context Protocol) server offers tools — search a wiki, file a ticket, look up an order — that your botties can call while they answer.'}
            </p>
            {addButton}
          </div>
        )}
      </CardContent>
      <McpServerDialog open={editing !== null} server={editing?.server} onClose={() => setEditing(null)} />
      <ConfirmDeleteDialog
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete MCP server?"
        description={`Botties lose the tools of “${deleting?.name ?? ''}”. This cannot be undone.`}
        confirmLabel="Delete server"
        pending={remove.isPending}
        onConfirm={confirmDelete}
      />
    </Card>
  );
}
