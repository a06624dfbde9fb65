import { Rocket } from 'lucide-react';
import { useState } from 'react';
import type { Bot } from '@shared/contracts/bots';
import { Badge } from '@/components/ui/badge';
import { FormMessage } from '@/components/ui/form';
import { PendingButton } from '@/components/ui/pending-button';
import { Skeleton } from '@/components/ui/skeleton';
import { serverMessage } from '@/lib/request';
import { usePublish, useRelease, useReleases } from '../api/releases';
import { PublishAnywayDialog } from './publish-anyway-dialog';
import { ReleaseGateSettings } from './release-gate-form';
import { ReleaseHistory } from './release-history';
import { ReleaseResult } from './release-result';

/** Whether the owner's latest version differs from what everyone else gets. */
export const isDraft = (bot: Pick<Bot, 'version' | 'publishedVersion'>) =>
  bot.publishedVersion !== null && bot.version !== bot.publishedVersion;

/**
 * Releases: publish the latest version through the gate, watch it being checked (it goes on when the page is
 * left: the newest release still checking is picked up again), publish anyway with a reason, roll back, and
 * set the gate.
 */
export function ReleasesSection({ bot }: { bot: Bot }) {
  const releases = useReleases(bot.id);
  const publish = usePublish(bot.id);
  const [overriding, setOverriding] = useState<number>();
  // The release to show: the one just asked for, else the newest still being checked.
  const [askedFor, setAskedFor] = useState<number>();
  const checking = releases.data?.find((release) => release.status === 'checking');
  const current = useRelease(bot.id, askedFor ?? checking?.id);
  const busy = publish.isPending || current.data?.status === 'checking' || checking !== undefined;
  const upToDate = bot.version === bot.publishedVersion;

  const ask = (body: Parameters<typeof publish.mutate>[0]) =>
    publish.mutate(body, { onSuccess: (release) => setAskedFor(release.id) });

  return (
    <section aria-labelledby="releases-title" className="grid gap-4 rounded-xl border p-4 sm:p-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="grid gap-1">
          <h2 id="releases-title" className="text-lg font-semibold">
            Releases
          </h2>
          <p className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
            {bot.publishedVersion === null
              ? 'Not published yet: everyone gets the latest version.'
              : `Published: version ${bot.publishedVersion}`}
            {isDraft(bot) && <Badge variant="secondary">Draft: version {bot.version}</Badge>}
          </p>
        </div>
        <PendingButton
          pending={publish.isPending}
          pendingLabel="Publishing..."
          disabled={busy || upToDate}
          onClick={() => ask({})}
        >
          <Rocket aria-hidden="true" />
          Publish version {bot.version}
        </PendingButton>
      </div>
      {publish.isError && overriding === undefined && (
        <FormMessage>{serverMessage(publish.error) ?? 'The release could not be started.'}</FormMessage>
      )}
      {current.data && (
        <ReleaseResult release={current.data} onPublishAnyway={() => setOverriding(current.data.version)} />
      )}
      <PublishAnywayDialog
        version={overriding}
        publish={publish}
        onClose={() => setOverriding(undefined)}
        onPublished={(release) => setAskedFor(release.id)}
      />
      <h3 className="font-semibold">History</h3>
      {releases.isError ? (
        <p role="alert" className="text-sm text-error">
          The release history could not be loaded.
        </p>
      ) : releases.data ? (
        <ReleaseHistory
          releases={releases.data}
          publishedVersion={bot.publishedVersion}
          busy={busy}
          onRollBack={(version) => ask({ version, skipGate: true })}
        />
      ) : (
        <Skeleton className="h-20" />
      )}
      <h3 className="font-semibold">Gate</h3>
      <ReleaseGateSettings botId={bot.id} />
    </section>
  );
}
