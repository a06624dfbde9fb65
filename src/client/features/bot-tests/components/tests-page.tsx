import { ArrowLeft, History } from 'lucide-react';
import { useParams } from 'react-router';
import { PageContainer, PageHeader } from '@/components/page-header';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useBot } from '@/entities/bot/api/get-bot';
import { FeedbackSection } from './feedback-section';
import { TestCasesSection } from './test-cases-section';
import { LinkButton } from '@/components/link-button';

/**
 * A bot's tests, for embedding (the bot hub's "Tests & releases" tab): its test cases, and the feedback log
 * whose rated replies become test cases in one click.
 */
export function BotTests({ botId, currentVersion }: { botId: number; currentVersion: number }) {
  return (
    <Tabs defaultValue="tests" className="grid gap-4">
      <TabsList aria-label="Tests and feedback" className="justify-self-start">
        <TabsTrigger value="tests">Test cases</TabsTrigger>
        <TabsTrigger value="feedback">Feedback</TabsTrigger>
      </TabsList>
      <TabsContent value="tests">
        <TestCasesSection botId={botId} />
      </TabsContent>
      <TabsContent value="feedback">
        <FeedbackSection botId={botId} currentVersion={currentVersion} />
      </TabsContent>
    </Tabs>
  );
}

/** Route /bots/:id/tests: the bot's tests as a page of its own. */
export function TestsPage() {
  const botId = Number(useParams().id);
  const bot = useBot(botId);
  return (
    <PageContainer className="grid max-w-4xl gap-6">
      <PageHeader
        title={bot.data ? `Tests of ${bot.data.name}` : 'Tests'}
        description="The questions every version is checked against, and the feedback that can become new ones."
        actions={
          <div className="flex flex-wrap gap-2">
            <LinkButton to={`/create-bot?edit=${botId}`} icon={ArrowLeft}>
              Edit Botty
            </LinkButton>
            <LinkButton to={`/bots/${botId}/versions`} icon={History}>
              Versions
            </LinkButton>
          </div>
        }
      />
      {bot.isError ? (
        <p role="alert" className="text-destructive">
          This botty could not be loaded.
        </p>
      ) : (
        <BotTests botId={botId} currentVersion={bot.data?.version ?? 1} />
      )}
    </PageContainer>
  );
}
