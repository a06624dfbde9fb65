import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { useToast } from '@/components/ui/use-toast';
import { queryClient } from '@/lib/query-client';

const Toaster = lazy(async () => ({ default: (await import('@/components/ui/toaster')).Toaster }));

/**
 * The toast UI (Radix Toast) loads with the first toast and then stays: most first visits never raise one
 * (bundle budget: scripts/check-bundle.ts). Toasts raised meanwhile wait in the store and show when it arrives.
 */
function OnDemandToaster() {
  const { toasts } = useToast();
  const [needed, setNeeded] = useState(false);
  if (!needed && toasts.length > 0) setNeeded(true);
  return needed ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <OnDemandToaster />
    </QueryClientProvider>
  );
}
