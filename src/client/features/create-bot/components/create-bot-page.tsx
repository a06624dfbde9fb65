import { PageContainer, PageHeader } from '@/components/page-header';

export function CreateBotPage() {
  return (
    <PageContainer>
      <PageHeader title="Create a Botty" description="Define, customise and train your own AI research assistant." />
    </PageContainer>
  );
}
