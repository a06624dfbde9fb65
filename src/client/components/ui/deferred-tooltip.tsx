import { lazy, Suspense, type ReactNode } from 'react';

const WithTooltip = lazy(async () => ({ default: (await import('./tooltip')).WithTooltip }));

/**
 * A tooltip for a control every page shows (the navigation bar's): the control renders at once, and its tooltip
 * joins it when Radix Tooltip has loaded, after the first paint. Radix Tooltip and its positioning code are ~19 KB
 * gzip, more than the first page's budget leaves (decision 0052); screens that load it anyway use WithTooltip.
 */
export function DeferredTooltip({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Suspense fallback={children}>
      <WithTooltip label={label}>{children}</WithTooltip>
    </Suspense>
  );
}
