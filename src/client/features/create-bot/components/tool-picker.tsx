import { useId } from 'react';
import { Link } from 'react-router';
import type { BotTool } from '@shared/bots/bot-settings';
import type { McpServer, McpTool } from '@shared/contracts/mcp-servers';
import { Badge } from '@/components/ui/badge';
import { Checkbox } from '@/components/ui/checkbox';
import { FormMessage } from '@/components/ui/form';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { useMcpServers } from '@/entities/mcp-server/api/mcp-servers';
import { toolLabel } from '@/entities/mcp-server/model/tools';
import { ToolBadge } from '@/entities/mcp-server/ui/tool-badge';

const SETTINGS_TOOLS = '/settings?tab=tools';

const sameTool = (serverId: number, name: string) => (tool: BotTool) =>
  tool.serverId === serverId && tool.name === name;

interface ToolPickerProps {
  label: string;
  hint: string;
  value: BotTool[];
  onChange: (tools: BotTool[]) => void;
  error: string | undefined;
}

/**
 * The bot's `tools` setting: the tools of the person's MCP servers, server by server. Tools their server does not
 * mark read-only can be auto-approved, which lets them run without anyone asked.
 */
export function ToolPicker({ label, hint, value, onChange, error }: ToolPickerProps) {
  const servers = useMcpServers();
  const id = useId();

  const set = (serverId: number, tools: readonly McpTool[], on: boolean) => {
    const others = value.filter((chosen) => !tools.some((tool) => sameTool(serverId, tool.name)(chosen)));
    onChange(on ? [...others, ...tools.map((tool) => ({ serverId, name: tool.name }))] : others);
  };
  const setAutoApprove = (serverId: number, name: string, autoApprove: boolean) =>
    onChange(value.map((tool) => (sameTool(serverId, name)(tool) ? { serverId, name, autoApprove } : tool)));

  if (servers.isPending) return <Skeleton className="h-24 w-full rounded-xl" />;
  const list = servers.data ?? [];
  // A chosen tool whose server was deleted, or that its server no longer lists, stays visible to be removed.
  const gone = value.filter(
    (chosen) => !list.some((server) => server.tools.some((tool) => sameTool(server.id, tool.name)(chosen))),
  );

  return (
    <div className="grid gap-3" role="group" aria-labelledby={`${id}-label`} aria-describedby={`${id}-hint`}>
      {/* The section above is headed Tools already: the label is for screen readers only. */}
      <span id={`${id}-label`} className="sr-only">
        {label}
      </span>
      <p id={`${id}-hint`} className="text-sm text-muted-foreground">
        {hint}
      </p>
      {list.length === 0 ? (
        <p className="rounded-xl border border-dashed p-4 text-sm text-muted-foreground">
          {servers.isError ? 'Your MCP servers could not be loaded. ' : 'You have not connected an MCP server yet. '}
          <Link to={SETTINGS_TOOLS} className="font-medium text-primary underline-offset-4 hover:underline">
            Add one in Settings → Tools
          </Link>
        </p>
      ) : (
        list.map((server) => (
          <ServerTools
            key={server.id}
            server={server}
            chosen={value.filter((tool) => tool.serverId === server.id)}
            onSet={(tools, on) => set(server.id, tools, on)}
            onAutoApprove={(name, on) => setAutoApprove(server.id, name, on)}
          />
        ))
      )}
      {gone.length > 0 && (
        <GoneTools
          tools={gone}
          onRemove={(tool) => onChange(value.filter((t) => !sameTool(tool.serverId, tool.name)(t)))}
        />
      )}
      <FormMessage>{error}</FormMessage>
    </div>
  );
}

interface ServerToolsProps {
  server: McpServer;
  chosen: BotTool[];
  onSet: (tools: readonly McpTool[], on: boolean) => void;
  onAutoApprove: (name: string, on: boolean) => void;
}

function ServerTools({ server, chosen, onSet, onAutoApprove }: ServerToolsProps) {
  const id = useId();
  const { tools } = server;
  const count = tools.filter((tool) => chosen.some((c) => c.name === tool.name)).length;
  return (
    <fieldset className="grid gap-3 rounded-xl border p-4">
      <legend className="sr-only">{server.name}</legend>
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1">
        <span className="flex min-w-0 flex-wrap items-center gap-2 font-medium break-words" aria-hidden="true">
          {server.name}
          {server.scope === 'everyone' && <Badge variant="outline">For everyone</Badge>}
        </span>
        {tools.length > 1 && (
          <div className="flex items-center gap-3">
            <Checkbox
              id={`${id}-all`}
              aria-label={`Select all tools of ${server.name}`}
              checked={count === tools.length ? true : count > 0 ? 'indeterminate' : false}
              onCheckedChange={(checked) => onSet(tools, checked === true)}
            />
            <Label htmlFor={`${id}-all`} touchTarget className="font-normal">
              Select all
            </Label>
          </div>
        )}
      </div>
      {server.status === 'error' && <p className="text-sm text-error">{server.error ?? 'Could not connect.'}</p>}
      {tools.length === 0 ? (
        <p className="text-sm text-muted-foreground">This server offers no tools.</p>
      ) : (
        <ul className="grid gap-4">
          {tools.map((tool, index) => (
            <ToolRow
              key={tool.name}
              id={`${id}-${index}`}
              tool={tool}
              chosen={chosen.find((c) => c.name === tool.name)}
              onChosen={(on) => onSet([tool], on)}
              onAutoApprove={(on) => onAutoApprove(tool.name, on)}
            />
          ))}
        </ul>
      )}
    </fieldset>
  );
}

interface ToolRowProps {
  id: string;
  tool: McpTool;
  chosen: BotTool | undefined;
  onChosen: (on: boolean) => void;
  onAutoApprove: (on: boolean) => void;
}

function ToolRow({ id, tool, chosen, onChosen, onAutoApprove }: ToolRowProps) {
  return (
    <li className="grid gap-2">
      <div className="flex items-start gap-3">
        <Checkbox
          id={id}
          className="mt-3 md:mt-0.5"
          checked={chosen !== undefined}
          aria-describedby={tool.description ? `${id}-description` : undefined}
          onCheckedChange={(checked) => onChosen(checked === true)}
        />
        <div className="grid min-w-0 gap-1">
          <div className="flex flex-wrap items-center gap-2">
            <Label htmlFor={id} touchTarget className="min-w-11 break-all md:min-w-0">
              {toolLabel(tool)}
            </Label>
            <ToolBadge tool={tool} />
          </div>
          {tool.description && (
            <p id={`${id}-description`} className="text-sm break-words text-muted-foreground">
              {tool.description}
            </p>
          )}
        </div>
      </div>
      {chosen && !tool.readOnly && (
        <div className="ml-8 flex items-center justify-between gap-4 rounded-lg bg-muted/50 px-3 py-2">
          <div className="grid gap-0.5">
            <Label htmlFor={`${id}-auto`} touchTarget>
              Auto-approve
            </Label>
            <p id={`${id}-auto-hint`} className="text-xs text-muted-foreground">
              Runs without asking, also in the widget, the API and shared links.
            </p>
          </div>
          <Switch
            id={`${id}-auto`}
            aria-label={`Auto-approve ${toolLabel(tool)}`}
            aria-describedby={`${id}-auto-hint`}
            checked={chosen.autoApprove === true}
            onCheckedChange={onAutoApprove}
          />
        </div>
      )}
    </li>
  );
}

function GoneTools({ tools, onRemove }: { tools: BotTool[]; onRemove: (tool: BotTool) => void }) {
  const id = useId();
  return (
    <fieldset className="grid gap-3 rounded-xl border border-dashed p-4">
      <legend className="px-1 text-sm font-medium">No longer offered</legend>
      <ul className="grid gap-2">
        {tools.map((tool, index) => (
          <li key={`${tool.serverId}/${tool.name}`} className="flex items-center gap-3">
            <Checkbox id={`${id}-${index}`} checked onCheckedChange={() => onRemove(tool)} />
            <Label htmlFor={`${id}-${index}`} touchTarget className="font-normal break-all">
              {tool.name}
            </Label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
