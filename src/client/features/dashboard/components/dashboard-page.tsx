import { PageContainer, PageHeader } from '@/components/page-header';

export function DashboardPage() {
  return (
    <PageContainer>
      <PageHeader title="Dashboard" description="Create and manage your AI research botties" />
    </PageContainer>
  );
}
