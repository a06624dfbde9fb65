import { Popover } from 'radix-ui';
import { SUPPORT_METHOD_LABELS } from '@shared/chat/cited-sources';
import type { SupportMethod } from '@shared/contracts/chat';

export const UNSUPPORTED_LABEL = 'No source supports this sentence';

/**
 * After a sentence none of the reply's sources supports (decision 0044): a quiet superscript mark that opens a
 * short explanation, saying how the sentence was checked.
 */
export function UnsupportedMarker({ method }: { method: SupportMethod }) {
  return (
    <Popover.Root>
      <Popover.Trigger className="md-unsupported" aria-label={UNSUPPORTED_LABEL}>
        ?
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          aria-label="About this sentence"
          side="top"
          sideOffset={6}
          collisionPadding={8}
          className="z-50 max-w-64 rounded-md border bg-popover px-3 py-2 text-xs text-popover-foreground shadow-md"
        >
          <p className="font-medium">{UNSUPPORTED_LABEL}.</p>
          <p className="mt-1 text-muted-foreground">
            It may still be right, but none of the sources listed under the reply says it.{' '}
            {SUPPORT_METHOD_LABELS[method]}.
          </p>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
