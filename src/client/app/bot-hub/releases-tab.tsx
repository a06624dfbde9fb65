import { FlaskConical, History } from 'lucide-react';
import { useParams } from 'react-router';
import { PageContainer, PageHeader } from '@/components/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { useBot } from '@/entities/bot/api/get-bot';
import { ReleasesSection } from '@/features/bot-releases/components/releases-section';
import { BotTests } from '@/features/bot-tests/components/tests-page';
import { LinkButton } from '@/components/link-button';

/** Route /bots/:id/releases: publishing through the tests, and the tests themselves. */
export function ReleasesTab() {
  const botId = Number(useParams().id);
  const bot = useBot(botId);
  return (
    <PageContainer className="grid max-w-4xl gap-6">
      <PageHeader
        title={bot.data ? `Tests & releases of ${bot.data.name}` : 'Tests & releases'}
        description="Everyone you share this botty with gets its published version; publishing checks it against the tests first."
        actions={
          <LinkButton to={`/bots/${botId}/versions`} icon={History}>
            Versions and evaluations
          </LinkButton>
        }
      />
      {bot.isError ? (
        <p role="alert" className="text-destructive">
          This botty could not be loaded.
        </p>
      ) : bot.data ? (
        <>
          <ReleasesSection bot={bot.data} />
          <section aria-labelledby="tests-title" className="grid gap-3">
            <h2 id="tests-title" className="flex items-center gap-2 text-lg font-semibold">
              <FlaskConical className="size-5" aria-hidden="true" />
              Tests
            </h2>
            <BotTests botId={botId} currentVersion={bot.data.version} />
          </section>
        </>
      ) : (
        <Skeleton className="h-64" />
      )}
    </PageContainer>
  );
}
