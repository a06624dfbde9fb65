import type { McpTool } from '@shared/contracts/mcp-servers';
import { Badge } from '@/components/ui/badge';
import { toolRisk, type ToolRisk } from '../model/tools';

const BADGES: Record<ToolRisk, { label: string; variant: 'secondary' | 'outline' | 'destructive'; title: string }> = {
  'read-only': { label: 'Read-only', variant: 'secondary', title: 'Changes nothing; runs without asking' },
  'asks-first': { label: 'Asks first', variant: 'outline', title: 'May change something; asks before it runs' },
  destructive: {
    label: 'Destructive',
    variant: 'destructive',
    title: 'May delete or overwrite something; asks before it runs',
  },
};

/** Whether a tool runs at once or asks first, as its server marks it. */
export function ToolBadge({ tool }: { tool: Pick<McpTool, 'readOnly' | 'destructive'> }) {
  const { label, variant, title } = BADGES[toolRisk(tool)];
  return (
    <Badge variant={variant} title={title}>
      {label}
    </Badge>
  );
}
