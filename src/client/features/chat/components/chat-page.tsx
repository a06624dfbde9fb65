import { PageContainer, PageHeader } from '@/components/page-header';

export function ChatPage() {
  return (
    <PageContainer>
      <PageHeader title="Chat" description="Talk with one of your botties." />
    </PageContainer>
  );
}
