import { PageContainer, PageHeader } from '@/components/page-header';
import { ApiKeysTab } from '@/features/settings/components/api-keys-tab';

/** Route /bots/:id/api: the API keys, each for one botty (this one among them), with how to call it. */
export function ApiTab() {
  return (
    <PageContainer className="grid max-w-4xl gap-6">
      <PageHeader title="API" description="Call your botty from your own code, as an OpenAI-compatible model." />
      <ApiKeysTab />
    </PageContainer>
  );
}
