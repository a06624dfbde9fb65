import type { ReactNode } from 'react';

/** A caption for a group of controls (radio cards, icon grid, toggles); the group points at it by id. */
export function FieldGroup({ label, id, children }: { label: string; id: string; children: ReactNode }) {
  return (
    <div className="grid gap-3">
      <span id={id} className="text-sm leading-none font-medium">
        {label}
      </span>
      {children}
    </div>
  );
}
