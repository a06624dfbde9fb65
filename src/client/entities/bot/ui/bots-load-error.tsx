import { PendingButton } from '@/components/ui/pending-button';
import { cn } from '@/lib/cn';

/**
 * Shown where a bot list goes when it could not be loaded, instead of an empty list: the toast of spec §8 says
 * it once, this stays until a retry (or coming back to the tab) brings the list.
 */
export function BotsLoadError({
  onRetry,
  retrying,
  className,
}: {
  onRetry: () => void;
  retrying: boolean;
  className?: string;
}) {
  return (
    <div
      className={cn(
        'flex flex-col items-center gap-3 rounded-xl border border-dashed px-6 py-8 text-center',
        className,
      )}
    >
      <p className="text-sm text-muted-foreground">Your botties could not be loaded.</p>
      <PendingButton variant="outline" size="sm" pending={retrying} pendingLabel="Retrying..." onClick={onRetry}>
        Retry
      </PendingButton>
    </div>
  );
}
