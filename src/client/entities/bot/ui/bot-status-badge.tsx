import { Badge } from '@/components/ui/badge';

/** The spec's 'Active' / 'Inactive' badge, shown on bot cards and in the chat header. */
export function BotStatusBadge({ active }: { active: boolean }) {
  return <Badge variant={active ? 'success' : 'secondary'}>{active ? 'Active' : 'Inactive'}</Badge>;
}
