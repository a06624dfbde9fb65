import type { ReactNode } from 'react';

/** A titled part of a settings tab; parts are ruled off from each other. */
export function SettingsSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="grid gap-3 border-t py-5 first:border-t-0 first:pt-0 last:pb-0">
      <h3 className="text-base font-semibold">{title}</h3>
      {children}
    </section>
  );
}
