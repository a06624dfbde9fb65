import { type ReactElement, type ReactNode, useId } from 'react';
import { Slot } from 'radix-ui';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/cn';

interface FormFieldProps {
  label: string;
  error?: string;
  hint?: ReactNode;
  className?: string;
  /** The single control; it receives the id, aria-invalid and aria-describedby that tie it to the label and messages. */
  children: ReactElement;
}

export function FormField({ label, error, hint, className, children }: FormFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;

  return (
    <div className={cn('grid gap-2', className)}>
      <Label htmlFor={id}>{label}</Label>
      <Slot.Root id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy}>
        {children}
      </Slot.Root>
      {hint && (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
      <FormMessage id={errorId}>{error}</FormMessage>
    </div>
  );
}

/** A message under a field, or for a whole form when no one field caused it. */
export function FormMessage({ id, children }: { id?: string; children?: ReactNode }) {
  if (!children) return null;
  return (
    <p id={id} role="alert" className="text-sm font-medium text-error">
      {children}
    </p>
  );
}
