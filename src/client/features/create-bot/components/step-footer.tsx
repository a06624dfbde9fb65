import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';

/** Back on the left (from step 2 on), the step's forward action on the right. */
export function StepFooter({
  onBack,
  backDisabled,
  children,
}: {
  onBack?: () => void;
  backDisabled?: boolean;
  children?: ReactNode;
}) {
  return (
    <div className="mt-8 flex items-center justify-between gap-3 border-t pt-5">
      {onBack ? (
        <Button variant="outline" onClick={onBack} disabled={backDisabled}>
          <ArrowLeft aria-hidden="true" />
          Back
        </Button>
      ) : (
        <span />
      )}
      {children}
    </div>
  );
}
