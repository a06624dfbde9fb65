import { ChevronLeft, ChevronRight } from 'lucide-react';
import type { Message } from '@shared/contracts/chat';
import { Button } from '@/components/ui/button';

/**
 * `‹ 2/3 ›`: the versions of a message (an edited question, a regenerated reply); choosing one shows the
 * conversation as it went from there.
 */
export function VersionSwitcher({
  versions,
  onSwitch,
  disabled,
}: {
  versions: NonNullable<Message['versions']>;
  onSwitch: (messageId: number) => void;
  disabled: boolean;
}) {
  const { index, count, ids } = versions;
  const go = (to: number) => {
    const id = ids[to];
    if (id !== undefined) onSwitch(id);
  };
  return (
    <div role="group" aria-label="Message versions" className="flex items-center text-xs text-muted-foreground">
      <Button
        variant="quiet"
        size="icon-sm"
        aria-label="Previous version"
        disabled={disabled || index === 0}
        onClick={() => go(index - 1)}
      >
        <ChevronLeft aria-hidden="true" />
      </Button>
      <span className="tabular-nums">
        {index + 1}/{count}
      </span>
      <Button
        variant="quiet"
        size="icon-sm"
        aria-label="Next version"
        disabled={disabled || index === count - 1}
        onClick={() => go(index + 1)}
      >
        <ChevronRight aria-hidden="true" />
      </Button>
    </div>
  );
}
