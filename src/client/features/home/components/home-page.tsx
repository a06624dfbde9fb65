import { PageContainer, PageHeader } from '@/components/page-header';

export function HomePage() {
  return (
    <PageContainer>
      <PageHeader title="Home" description="Chat with your botties and keep your favourites close at hand." />
    </PageContainer>
  );
}
