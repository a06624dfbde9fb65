import { Check, Minus } from 'lucide-react';
import { useCallback, type ComponentProps } from 'react';
import { cn } from '@/lib/cn';

export type CheckedState = boolean | 'indeterminate';

type CheckboxProps = Omit<ComponentProps<'input'>, 'type' | 'checked' | 'onChange'> & {
  checked?: CheckedState;
  onCheckedChange?: (checked: boolean) => void;
};

/**
 * A native checkbox (keyboard, forms, labels and screen readers as browsers give them) drawn as the design's box.
 * Native rather than Radix's: the sign-in page carries it, and the first pages have a byte budget. The input
 * itself is invisible and larger than the box, so a finger finds it.
 */
export function Checkbox({ className, checked = false, onCheckedChange, ...props }: CheckboxProps) {
  const indeterminate = checked === 'indeterminate';
  const mark = useCallback(
    (input: HTMLInputElement | null) => void (input && (input.indeterminate = indeterminate)),
    [indeterminate],
  );
  return (
    <span className={cn('relative inline-flex size-5 shrink-0', className)}>
      <input
        ref={mark}
        type="checkbox"
        checked={checked === true}
        onChange={(event) => onCheckedChange?.(event.target.checked)}
        className="peer absolute -top-3 -left-3 z-10 m-0 size-11 cursor-pointer opacity-0 disabled:cursor-not-allowed"
        {...props}
      />
      <span
        aria-hidden="true"
        className={cn(
          'flex size-5 items-center justify-center rounded-[5px] border border-input bg-background shadow-xs transition-colors',
          'peer-focus-visible:ring-2 peer-focus-visible:ring-ring peer-focus-visible:ring-offset-2 peer-focus-visible:ring-offset-background',
          'peer-disabled:opacity-60',
          checked !== false && 'border-primary bg-primary text-primary-foreground',
        )}
      >
        {checked === true && <Check className="size-3.5" strokeWidth={3} />}
        {indeterminate && <Minus className="size-3.5" strokeWidth={3} />}
      </span>
    </span>
  );
}
