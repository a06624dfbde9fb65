import { TriangleAlert } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { CopyButton } from '@/entities/chat/ui/copy-button';

interface ShownOnceSecretProps {
  /** The key or link; the server keeps only its hash, so this is the one time it can be read. */
  secret: string;
  /** Why to copy it now, e.g. "Copy your new key now. It will not be shown again." */
  warning: string;
  /** The field's accessible name. */
  label: string;
  copyLabel: string;
  doneLabel: string;
  onDone: () => void;
}

/** Focus moves to the secret as it appears, so it can be copied at once (and a screen reader reads it). */
export function ShownOnceSecret({ secret, warning, label, copyLabel, doneLabel, onDone }: ShownOnceSecretProps) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  return (
    <div className="grid gap-3 rounded-xl border border-amber-500/50 bg-amber-500/10 p-4" role="status">
      <p className="flex items-center gap-2 font-medium">
        <TriangleAlert className="size-4 shrink-0" aria-hidden="true" />
        {warning}
      </p>
      <div className="flex items-center gap-2">
        <Input ref={input} readOnly value={secret} aria-label={label} onFocus={(e) => e.currentTarget.select()} />
        <CopyButton text={() => secret} label={copyLabel} />
      </div>
      <Button variant="outline" className="justify-self-start" onClick={onDone}>
        {doneLabel}
      </Button>
    </div>
  );
}
