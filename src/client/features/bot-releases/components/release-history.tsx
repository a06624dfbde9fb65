import { RotateCcw } from 'lucide-react';
import type { Release, ReleaseStatus } from '@shared/contracts/releases';
import { RelativeTime } from '@/components/relative-time';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';

const STATUS: Record<ReleaseStatus, { label: string; variant: 'secondary' | 'success' | 'destructive' | 'outline' }> = {
  checking: { label: 'Checking', variant: 'secondary' },
  published: { label: 'Published', variant: 'success' },
  blocked: { label: 'Blocked', variant: 'destructive' },
  failed: { label: 'Failed', variant: 'outline' },
};

interface ReleaseHistoryProps {
  releases: Release[];
  publishedVersion: number | null;
  /** Set while a release is being asked for: no rollback meanwhile. */
  busy: boolean;
  onRollBack: (version: number) => void;
}

/** Every release asked for, newest first, with what each decided and why. */
export function ReleaseHistory({ releases, publishedVersion, busy, onRollBack }: ReleaseHistoryProps) {
  if (releases.length === 0) return <p className="text-sm text-muted-foreground">No release yet.</p>;
  // A rollback is offered once per version that was published before and is not the published one now.
  const offered = new Set<number>();
  return (
    <ol aria-label="Release history" className="grid gap-2">
      {releases.map((release) => {
        const canRollBack =
          release.status === 'published' && release.version !== publishedVersion && !offered.has(release.version);
        if (canRollBack) offered.add(release.version);
        const status = STATUS[release.status];
        return (
          <li key={release.id} className="grid gap-1 rounded-lg border p-3 text-sm">
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-medium">Version {release.version}</span>
              <Badge variant={status.variant}>{status.label}</Badge>
              {release.skipGate && <Badge variant="outline">Rolled back</Badge>}
              <span className="text-muted-foreground">
                <RelativeTime date={release.createdAt} />
              </span>
              {canRollBack && (
                <Button
                  variant="ghost"
                  size="sm"
                  className="ml-auto"
                  disabled={busy}
                  onClick={() => onRollBack(release.version)}
                >
                  <RotateCcw aria-hidden="true" />
                  Roll back to this version
                </Button>
              )}
            </div>
            {release.verdict?.tested && <p className="text-muted-foreground">{release.verdict.summary}</p>}
            {release.status === 'published' && !release.skipGate && release.verdict?.tested === false && (
              <p className="text-muted-foreground">Nothing was tested.</p>
            )}
            {release.overrideReason && (
              <p className="break-words">
                <span className="font-medium">Published anyway:</span> {release.overrideReason}
              </p>
            )}
          </li>
        );
      })}
    </ol>
  );
}
