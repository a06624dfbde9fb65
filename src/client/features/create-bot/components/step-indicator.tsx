import { Check } from 'lucide-react';
import { isStepCompleted, WIZARD_STEPS, type WizardStep } from '../model/wizard';
import { cn } from '@/lib/cn';

interface StepIndicatorProps {
  current: WizardStep;
  onSelect: (step: WizardStep) => void;
  /** While training runs the user stays put, so completed steps stop being links back. */
  disabled?: boolean;
}

/** Spec §2: completed steps carry a check and lead back; the current and later ones cannot be chosen. */
export function StepIndicator({ current, onSelect, disabled = false }: StepIndicatorProps) {
  return (
    <nav aria-label="Wizard steps">
      <ol className="grid grid-cols-4">
        {WIZARD_STEPS.map(({ step, label }) => {
          const completed = isStepCompleted(step, current);
          const isCurrent = step === current;
          const content = (
            <>
              <span
                className={cn(
                  'relative z-10 flex size-10 items-center justify-center rounded-full border-2 bg-background text-sm font-semibold transition-colors duration-200',
                  completed && 'border-primary bg-primary text-primary-foreground group-hover:bg-primary/85',
                  isCurrent && 'border-primary text-primary ring-4 ring-primary/15',
                  !completed && !isCurrent && 'border-border text-muted-foreground',
                )}
              >
                {completed ? <Check className="size-5" strokeWidth={3} aria-hidden="true" /> : step}
              </span>
              <span
                className={cn(
                  'text-xs font-medium sm:text-sm',
                  isCurrent || completed ? 'text-foreground' : 'text-muted-foreground',
                )}
              >
                {label}
                {completed && <span className="sr-only"> (completed)</span>}
              </span>
            </>
          );
          return (
            <li key={step} aria-current={isCurrent ? 'step' : undefined} className="relative flex justify-center">
              {step > 1 && (
                <span
                  aria-hidden="true"
                  className={cn(
                    'absolute top-5 right-1/2 h-0.5 w-full -translate-y-1/2',
                    step <= current ? 'bg-primary' : 'bg-border',
                  )}
                />
              )}
              {completed ? (
                <button
                  type="button"
                  disabled={disabled}
                  onClick={() => onSelect(step)}
                  className="group flex min-h-11 flex-col items-center gap-2 rounded-lg px-1 outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:pointer-events-none"
                >
                  {content}
                </button>
              ) : (
                <div className="flex flex-col items-center gap-2 px-1">{content}</div>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
