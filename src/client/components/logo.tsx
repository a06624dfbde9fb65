import { useId } from 'react';
import { cn } from '@/lib/cn';

export function LogoMark({ className }: { className?: string }) {
  // useId may contain characters that break a url(#id) reference.
  const gradientId = `logo${useId().replace(/[^A-Za-z0-9_-]/g, '')}`;
  return (
    <svg viewBox="0 0 64 64" className={cn('size-8', className)} aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#8b5cf6" />
          <stop offset="1" stopColor="#4f46e5" />
        </linearGradient>
      </defs>
      <rect width="64" height="64" rx="16" fill={`url(#${gradientId})`} />
      <rect x="30" y="8" width="4" height="9" rx="2" fill="#fff" />
      <circle cx="32" cy="8" r="4" fill="#fff" />
      <rect x="12" y="18" width="40" height="32" rx="10" fill="#fff" />
      <circle cx="24" cy="33" r="4.5" fill="#6d28d9" />
      <circle cx="40" cy="33" r="4.5" fill="#6d28d9" />
      <rect x="25" y="42" width="14" height="3" rx="1.5" fill="#6d28d9" />
    </svg>
  );
}

/** Brand mark plus wordmark; the wordmark text is the accessible name. */
export function Logo({ className, size = 'default' }: { className?: string; size?: 'default' | 'lg' }) {
  return (
    <span className={cn('inline-flex items-center gap-2 font-semibold tracking-tight', className)}>
      <LogoMark className={size === 'lg' ? 'size-10' : 'size-8'} />
      <span className={size === 'lg' ? 'text-2xl' : 'text-lg'}>Botty</span>
    </span>
  );
}
