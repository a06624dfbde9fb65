import {
  ArrowRight,
  CalendarCheck,
  ChartColumn,
  MessageCircleQuestionMark,
  PenLine,
  type LucideIcon,
} from 'lucide-react';
import { useId } from 'react';
import { CAPABILITIES, CAPABILITY_INFO, hasCapability } from '@shared/bots/capabilities';
import { BOT_ICONS, FALLBACK_ICON } from '@shared/bots/icons';
import { isPurpose, PURPOSE_LABELS, PURPOSES, type Purpose } from '@shared/bots/purposes';
import { isDefined } from '../model/wizard';
import { BOT_DESCRIPTION_MAX, BOT_NAME_MAX } from '@shared/constants';
import { BotIcon } from '@/entities/bot/ui/bot-icon';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { FormField } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { RadioCard, RadioGroup } from '@/components/ui/radio-group';
import { Textarea } from '@/components/ui/textarea';
import { cn } from '@/lib/cn';
import type { Wizard } from '../hooks/use-wizard';
import { FieldGroup } from './field-group';
import { ICON_LABELS } from './labels';
import { StepFooter } from './step-footer';

const PURPOSE_INFO: Record<Purpose, { icon: LucideIcon; description: string }> = {
  answering: { icon: MessageCircleQuestionMark, description: 'Clear, accurate answers to your questions' },
  creating: { icon: PenLine, description: 'Drafts, ideas and polished writing' },
  analyzing: { icon: ChartColumn, description: 'Patterns and insights in your data' },
  planning: { icon: CalendarCheck, description: 'Schedules, steps and priorities' },
};

/** Step 1: name, description, purpose, icon and capabilities. */
export function DefineStep({ wizard }: { wizard: Wizard }) {
  const { draft } = wizard.state;
  const id = useId();

  return (
    <div className="grid gap-8">
      <div className="grid gap-5">
        <FormField label="Name">
          <Input
            value={draft.name}
            onChange={(e) => wizard.editDraft({ name: e.target.value })}
            maxLength={BOT_NAME_MAX}
            autoComplete="off"
            placeholder="e.g. Meal Planner"
          />
        </FormField>
        <FormField label="Description">
          <Textarea
            value={draft.description}
            onChange={(e) => wizard.editDraft({ description: e.target.value })}
            maxLength={BOT_DESCRIPTION_MAX}
            rows={3}
            placeholder="What should your botty help with? e.g. Suggests weekly meal plans and recipes from what is in my fridge."
          />
        </FormField>
      </div>

      <FieldGroup label="Purpose" id={`${id}-purpose`}>
        <RadioGroup
          aria-labelledby={`${id}-purpose`}
          value={draft.purpose}
          onValueChange={(value) => isPurpose(value) && wizard.editDraft({ purpose: value })}
          className="sm:grid-cols-2"
        >
          {PURPOSES.map((purpose) => {
            const { icon: Icon, description } = PURPOSE_INFO[purpose];
            return (
              <RadioCard
                key={purpose}
                value={purpose}
                aria-labelledby={`${id}-${purpose}-label`}
                aria-describedby={`${id}-${purpose}-description`}
                className="group items-start"
              >
                <span className="mt-0.5 flex size-9 shrink-0 items-center justify-center rounded-lg bg-muted text-muted-foreground transition-colors group-data-[state=checked]:bg-primary group-data-[state=checked]:text-primary-foreground">
                  <Icon className="size-4.5" aria-hidden="true" />
                </span>
                <span className="grid gap-0.5">
                  <span id={`${id}-${purpose}-label`} className="font-medium text-foreground">
                    {PURPOSE_LABELS[purpose]}
                  </span>
                  <span id={`${id}-${purpose}-description`} className="text-muted-foreground">
                    {description}
                  </span>
                </span>
              </RadioCard>
            );
          })}
        </RadioGroup>
      </FieldGroup>

      <FieldGroup label="Icon" id={`${id}-icon`}>
        <div role="group" aria-labelledby={`${id}-icon`} className="grid grid-cols-5 gap-2 sm:grid-cols-10">
          {BOT_ICONS.map((icon) => {
            const selected = draft.icon === icon;
            return (
              <button
                key={icon}
                type="button"
                aria-label={ICON_LABELS[icon]}
                aria-pressed={selected}
                title={ICON_LABELS[icon]}
                // Pressing the chosen icon again returns to the default robot.
                onClick={() => wizard.editDraft({ icon: selected ? FALLBACK_ICON : icon })}
                className={cn(
                  'flex aspect-square min-h-11 items-center justify-center rounded-xl border-2 border-transparent transition-[border-color,box-shadow,transform] duration-150 ease-out',
                  'hover:border-primary/40 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background focus-visible:outline-none active:scale-95',
                  selected && 'border-primary ring-2 ring-primary/20',
                )}
              >
                <BotIcon icon={icon} />
              </button>
            );
          })}
        </div>
      </FieldGroup>

      <FieldGroup label="Capabilities" id={`${id}-capabilities`}>
        <div role="group" aria-labelledby={`${id}-capabilities`} className="grid gap-3 sm:grid-cols-2">
          {CAPABILITIES.map((capability) => {
            const { label, description } = CAPABILITY_INFO[capability];
            const checked = hasCapability(draft, capability);
            return (
              <label
                key={capability}
                className={cn(
                  'flex min-h-11 cursor-pointer items-start gap-3 rounded-xl border p-3 text-sm transition-colors duration-150 hover:border-primary/50',
                  checked && 'border-primary bg-accent',
                )}
              >
                <Checkbox
                  className="mt-0.5"
                  checked={checked}
                  onCheckedChange={(value) => wizard.toggleCapability(capability, value === true)}
                  aria-labelledby={`${id}-${capability}-label`}
                  aria-describedby={`${id}-${capability}-description`}
                />
                <span className="grid gap-0.5">
                  <span id={`${id}-${capability}-label`} className="font-medium">
                    {label}
                  </span>
                  <span id={`${id}-${capability}-description`} className="text-muted-foreground">
                    {description}
                  </span>
                </span>
              </label>
            );
          })}
        </div>
      </FieldGroup>

      <StepFooter>
        <Button onClick={wizard.next} disabled={!isDefined(draft)}>
          Continue
          <ArrowRight aria-hidden="true" />
        </Button>
      </StepFooter>
    </div>
  );
}
