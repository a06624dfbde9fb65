import { ChevronDown, CircleCheck, CircleX, RefreshCw } from 'lucide-react';
import { useId, useState } from 'react';
import type { McpServer } from '@shared/contracts/mcp-servers';
import { EditDeleteButtons } from '@/components/edit-delete-buttons';
import { RelativeTime } from '@/components/relative-time';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { PendingButton } from '@/components/ui/pending-button';
import { toast } from '@/components/ui/use-toast';
import { useRefreshMcpServer } from '@/entities/mcp-server/api/mcp-servers';
import { TRANSPORT_LABELS, toolLabel } from '@/entities/mcp-server/model/tools';
import { ToolBadge } from '@/entities/mcp-server/ui/tool-badge';
import { cn } from '@/lib/cn';
import { serverMessage } from '@/lib/request';

const toolCount = (count: number) => `${count} ${count === 1 ? 'tool' : 'tools'}`;

interface McpServerCardProps {
  server: McpServer;
  onEdit: () => void;
  onDelete: () => void;
}

/** One MCP server: where it is, whether Botty reached it, and (opened) the tools it offers. */
export function McpServerCard({ server, onEdit, onDelete }: McpServerCardProps) {
  const refresh = useRefreshMcpServer();
  const [open, setOpen] = useState(false);
  const toolsId = useId();
  const runRefresh = () =>
    refresh.mutate(server.id, {
      onSuccess: (saved) =>
        saved.status === 'ok'
          ? toast({ title: 'Tools refreshed', description: `${saved.name}: ${toolCount(saved.tools.length)}` })
          : toast({ variant: 'destructive', title: 'Could not connect', description: saved.error ?? '' }),
      onError: (error) =>
        toast({ variant: 'destructive', title: 'Could not refresh', description: serverMessage(error) ?? '' }),
    });

  return (
    <li className="grid gap-3 rounded-xl border p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="grid min-w-0 gap-1">
          <h3 className="flex flex-wrap items-center gap-2 font-semibold break-words">
            {server.name}
            <Badge variant="secondary">{TRANSPORT_LABELS[server.transport]}</Badge>
            {server.scope === 'everyone' && <Badge variant="outline">For everyone</Badge>}
          </h3>
          <p className="text-sm break-all text-muted-foreground">{server.url}</p>
          <Status server={server} />
        </div>
        {server.editable && (
          <div className="flex flex-wrap gap-2">
            <PendingButton
              variant="outline"
              size="sm"
              pending={refresh.isPending}
              pendingLabel="Refreshing..."
              onClick={runRefresh}
              aria-label={`Refresh ${server.name}`}
            >
              <RefreshCw aria-hidden="true" />
              Refresh
            </PendingButton>
            <EditDeleteButtons name={server.name} onEdit={onEdit} onDelete={onDelete} />
          </div>
        )}
      </div>
      {server.tools.length > 0 && (
        <div className="grid gap-2">
          <Button
            variant="ghost"
            size="sm"
            className="justify-self-start"
            aria-expanded={open}
            aria-controls={toolsId}
            onClick={() => setOpen(!open)}
          >
            <ChevronDown
              className={cn('transition-transform duration-150 motion-reduce:transition-none', open && 'rotate-180')}
              aria-hidden="true"
            />
            {open ? 'Hide tools' : `Show ${toolCount(server.tools.length)}`}
          </Button>
          {open && (
            <ul id={toolsId} className="grid gap-3 border-t pt-3" aria-label={`Tools of ${server.name}`}>
              {server.tools.map((tool) => (
                <li key={tool.name} className="grid gap-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="text-sm font-medium break-all">{toolLabel(tool)}</span>
                    <ToolBadge tool={tool} />
                  </div>
                  {tool.description && <p className="text-sm text-muted-foreground">{tool.description}</p>}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </li>
  );
}

function Status({ server }: { server: McpServer }) {
  const refreshed = server.refreshedAt && (
    <>
      {' · refreshed '}
      <RelativeTime date={server.refreshedAt} />
    </>
  );
  if (server.status === 'error')
    return (
      <p className="flex items-start gap-2 text-sm font-medium text-error">
        <CircleX className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <span className="break-words">{server.error ?? 'Could not connect.'}</span>
      </p>
    );
  if (server.status === 'unknown') return <p className="text-sm text-muted-foreground">Not connected yet</p>;
  return (
    <p className="flex items-start gap-2 text-sm text-muted-foreground">
      <CircleCheck className="mt-0.5 size-4 shrink-0 text-success-foreground" aria-hidden="true" />
      <span>
        Connected · {toolCount(server.tools.length)}
        {refreshed}
      </span>
    </p>
  );
}
