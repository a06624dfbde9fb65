import { Skeleton } from '@/components/ui/skeleton';

interface BotCardSkeletonsProps {
  /** What a screen reader hears while the cards load. */
  label: string;
  count: number;
  /** The grid's classes, the same as the loaded list's so nothing jumps. */
  className: string;
  /** The line under the name: the card's badge or its text. */
  sublineClassName: string;
}

/** Placeholder bot cards while a grid of them loads. */
export function BotCardSkeletons({ label, count, className, sublineClassName }: BotCardSkeletonsProps) {
  return (
    <div role="status" className={className}>
      <span className="sr-only">{label}</span>
      {Array.from({ length: count }, (_, index) => (
        <div key={index} className="grid gap-4 rounded-xl border p-5">
          <div className="flex gap-3">
            <Skeleton className="size-10 rounded-xl" />
            <div className="grid flex-1 gap-2">
              <Skeleton className="h-4 w-2/3" />
              <Skeleton className={sublineClassName} />
            </div>
          </div>
          <Skeleton className="h-12" />
          <Skeleton className="h-10" />
        </div>
      ))}
    </div>
  );
}
