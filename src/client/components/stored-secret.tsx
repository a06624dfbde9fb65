import { Button } from '@/components/ui/button';

/** What happens to a stored secret on save: kept, replaced by what is typed, or removed. */
export type SecretAction = 'keep' | 'replace' | 'remove';

interface StoredSecretProps {
  label: string;
  /** What may be shown of it: the token's last four characters, the headers' names. */
  shown: string;
  removing: boolean;
  onChange: (action: SecretAction) => void;
}

/** A secret saved earlier, never sent back: kept unless replaced or removed. */
export function StoredSecret({ label, shown, removing, onChange }: StoredSecretProps) {
  return (
    <div className="grid gap-2">
      <span className="text-sm leading-none font-medium">{label}</span>
      <div className="flex flex-wrap items-center gap-2">
        <code className="rounded bg-muted px-2 py-1 text-sm break-all">{removing ? 'Will be removed' : shown}</code>
        <Button variant="outline" size="sm" onClick={() => onChange('replace')} aria-label={`Replace ${label}`}>
          Replace
        </Button>
        <Button
          variant="outline"
          size="sm"
          onClick={() => onChange(removing ? 'keep' : 'remove')}
          aria-label={`${removing ? 'Keep' : 'Remove'} ${label}`}
        >
          {removing ? 'Keep' : 'Remove'}
        </Button>
      </div>
    </div>
  );
}
