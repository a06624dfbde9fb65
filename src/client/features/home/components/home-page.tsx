import { useState } from 'react';
import { ParticleBackground } from '@/components/particle-background';
import { useAuth } from '@/lib/auth';
import { useDocumentTitle } from '@/lib/use-document-title';
import { ChatEntry } from './chat-entry';
import { TopBottiesPanel } from './top-botties-panel';

export function HomePage() {
  useDocumentTitle('Home');
  const { user } = useAuth();
  const name = user?.fullName?.trim() || user?.username;
  const [chatBotId, setChatBotId] = useState<number | null>(null);

  // The chat opens in the main area, which on phones sits above the pinned list that may have opened it.
  const openChat = (botId: number) => {
    setChatBotId(botId);
    window.scrollTo({ top: 0 });
  };

  return (
    <div className="relative isolate flex flex-1 flex-col">
      <ParticleBackground className="absolute inset-0 -z-10 size-full" />
      <div className="mx-auto grid w-full max-w-6xl grid-cols-[minmax(0,1fr)] items-start gap-6 px-4 py-8 sm:px-6 sm:py-10 lg:grid-cols-[minmax(0,4fr)_minmax(16rem,1fr)]">
        <div className="grid min-w-0 gap-6">
          <div>
            <h1 className="text-2xl font-semibold tracking-tight wrap-anywhere sm:text-3xl">
              Welcome{name ? `, ${name}` : ''}
            </h1>
            <p className="mt-1 text-muted-foreground">
              Chat with one of your botties, and keep your favourites close at hand.
            </p>
          </div>
          <ChatEntry chatBotId={chatBotId} onOpenChat={openChat} onCloseChat={() => setChatBotId(null)} />
        </div>
        <TopBottiesPanel onOpenChat={openChat} />
      </div>
    </div>
  );
}
