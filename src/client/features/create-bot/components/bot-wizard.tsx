import { History, MessageSquareCode, RotateCcw } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { WIZARD_STEPS, type WizardState, type WizardStep } from '../model/wizard';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { useKnowledge } from '../hooks/use-knowledge';
import { useWizard } from '../hooks/use-wizard';
import { CustomizeStep } from './customize-step';
import { DefineStep } from './define-step';
import { FinishStep } from './finish-step';
import { StepIndicator } from './step-indicator';
import { TrainStep } from './train-step';
import { LinkButton } from '@/components/link-button';

const STEP_INTROS: Record<WizardStep, string> = {
  1: 'Give your botty a name, a purpose and a face.',
  2: 'Choose how your botty writes and what it may use.',
  3: 'Add example queries, then train your botty to write its prompt.',
  4: 'Check everything before your botty goes live.',
};

interface BotWizardProps {
  title: string;
  initial: WizardState;
  /** Where the draft is kept between reloads; null when editing, which must leave the create draft alone. */
  storageKey: string | null;
  /** The bot being edited (the wizard's active bot id); null when creating. */
  botId: number | null;
}

export function BotWizard({ title, initial, storageKey, botId }: BotWizardProps) {
  const wizard = useWizard(initial, storageKey);
  // Kept here, above the steps, so moving between steps neither loses chosen files nor stops an upload.
  const knowledge = useKnowledge(wizard, botId);
  const [training, setTraining] = useState(false);
  const { step } = wizard.state;
  const heading = useRef<HTMLHeadingElement>(null);
  const shownStep = useRef(step);

  // After a step change, focus goes to the new step's title so keyboard and screen-reader users start there.
  useEffect(() => {
    if (shownStep.current === step) return;
    shownStep.current = step;
    heading.current?.focus({ preventScroll: true });
  }, [step]);

  const label = WIZARD_STEPS[step - 1]?.label;

  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8 sm:px-6 sm:py-10">
      <PageHeader
        title={title}
        description={
          botId === null
            ? 'Define, customise and train your own AI assistant in four steps.'
            : 'Change any step, then save your changes.'
        }
        actions={
          botId === null ? (
            <ResetDialog
              onReset={() => {
                wizard.reset();
                knowledge.clear();
              }}
              disabled={training}
            />
          ) : (
            <div className="flex flex-wrap gap-2">
              <LinkButton to={`/bots/${botId}/versions`} icon={History}>
                Versions
              </LinkButton>
              <LinkButton to={`/bots/${botId}/widget`} icon={MessageSquareCode}>
                Widget
              </LinkButton>
            </div>
          )
        }
      />
      <div className="mt-8">
        <StepIndicator current={step} onSelect={wizard.goTo} disabled={training} />
      </div>
      <Card className="mt-6">
        <CardHeader>
          <CardTitle ref={heading} tabIndex={-1} className="outline-none">
            {label}
          </CardTitle>
          <CardDescription>{STEP_INTROS[step]}</CardDescription>
        </CardHeader>
        <CardContent>
          {step === 1 && <DefineStep wizard={wizard} />}
          {step === 2 && <CustomizeStep wizard={wizard} knowledge={knowledge} />}
          {step === 3 && <TrainStep wizard={wizard} botId={botId} onTrainingChange={setTraining} />}
          {step === 4 && <FinishStep wizard={wizard} knowledge={knowledge} botId={botId} />}
        </CardContent>
      </Card>
    </div>
  );
}

function ResetDialog({ onReset, disabled }: { onReset: () => void; disabled: boolean }) {
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button variant="ghost" disabled={disabled} className="-ml-3 self-start sm:ml-0 sm:self-auto">
          <RotateCcw aria-hidden="true" />
          Reset
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Start over?</DialogTitle>
          <DialogDescription>This clears everything entered so far and returns to the first step.</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Cancel</Button>
          </DialogClose>
          <DialogClose asChild>
            <Button variant="destructive" onClick={onReset}>
              Reset
            </Button>
          </DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
