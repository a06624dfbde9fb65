import type { ComponentProps } from 'react';
import { Label as LabelPrimitive } from 'radix-ui';
import { cn } from '@/lib/cn';

type LabelProps = ComponentProps<typeof LabelPrimitive.Root> & {
  /**
   * The label of a checkbox or switch, which is smaller than a finger: on phones the label is its 44 px touch
   * target (design.md).
   */
  touchTarget?: boolean;
};

export function Label({ className, touchTarget = false, ...props }: LabelProps) {
  return (
    <LabelPrimitive.Root
      className={cn(
        'text-sm leading-none font-medium select-none peer-disabled:cursor-not-allowed',
        touchTarget && 'flex min-h-11 cursor-pointer items-center md:min-h-0',
        className,
      )}
      {...props}
    />
  );
}
