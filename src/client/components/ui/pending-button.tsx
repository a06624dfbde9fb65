import { LoaderCircle } from 'lucide-react';
import { Button, type ButtonProps } from './button';

type PendingButtonProps = ButtonProps & {
  pending: boolean;
  /** What the button says while pending (the spec's 'Signing in...', 'Saving...'); the usual label otherwise. */
  pendingLabel?: string;
};

/** A button that answers a press at once: disabled, with a spinner and its busy label, until the work is done. */
export function PendingButton({ pending, pendingLabel, disabled, children, ...props }: PendingButtonProps) {
  return (
    <Button {...props} disabled={pending || disabled} aria-busy={pending || undefined}>
      {pending && <LoaderCircle className="motion-safe:animate-spin" aria-hidden="true" />}
      {pending && pendingLabel ? pendingLabel : children}
    </Button>
  );
}
