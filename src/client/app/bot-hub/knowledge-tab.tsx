import { useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { PageContainer, PageHeader } from '@/components/page-header';
import { botKeys } from '@/entities/bot/api/bot-keys';
import { useBot } from '@/entities/bot/api/get-bot';
import { useKnowledge } from '@/features/create-bot/hooks/use-knowledge';
import { KnowledgeSection } from '@/features/create-bot/components/knowledge-section';

/** Route /bots/:id/knowledge: the editor's knowledge files, each saved as soon as it is added. */
export function KnowledgeTab() {
  const botId = Number(useParams().id);
  const bot = useBot(botId);
  const queryClient = useQueryClient();
  // The server turns Document analysis on with the first file; the bot is read again to show it.
  const knowledge = useKnowledge(
    { toggleCapability: () => void queryClient.invalidateQueries({ queryKey: botKeys.detail(botId), exact: true }) },
    botId,
  );
  return (
    <PageContainer className="grid max-w-4xl gap-6">
      <PageHeader title={bot.data ? `Knowledge of ${bot.data.name}` : 'Knowledge'} />
      <KnowledgeSection
        knowledge={knowledge}
        documentAnalysis={bot.data?.capabilities.includes('document_analysis') ?? false}
      />
    </PageContainer>
  );
}
