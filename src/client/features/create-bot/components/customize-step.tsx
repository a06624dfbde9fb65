import { zodResolver } from '@hookform/resolvers/zod';
import { ArrowRight } from 'lucide-react';
import { type ReactNode, useEffect, useId } from 'react';
import { Controller, useForm, type Control } from 'react-hook-form';
import type { z } from 'zod';
import { customizationOf, customizationSchema, type Customization } from '../model/wizard';
import { greetingFor } from '@/entities/chat/model/greeting';
import { BOT_GREETING_MAX, CONTEXT_WINDOW_MAX, CONTEXT_WINDOW_MIN, TRUSTED_SOURCES_MAX } from '@shared/constants';
import { BOT_MESSAGES, TONES, WRITING_STYLES } from '@shared/contracts/bots';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { RadioCard, RadioGroup } from '@/components/ui/radio-group';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import type { Knowledge } from '../hooks/use-knowledge';
import type { CustomizationChange, Wizard } from '../hooks/use-wizard';
import { FieldGroup } from './field-group';
import { KnowledgeSection } from './knowledge-section';
import { TONE_LABELS, WRITING_STYLE_LABELS } from './labels';
import { StepFooter } from './step-footer';

type CustomizationInput = z.input<typeof customizationSchema>;
type ChoiceName = 'tone' | 'writingStyle';

const SWITCHES = {
  webBrowsing: {
    label: 'Web browsing',
    description: 'Search the web for current information (the Web search capability).',
  },
  useKnowledgeCutoff: { label: 'Knowledge cutoff', description: 'Say when an answer may be out of date.' },
  citationGeneration: { label: 'Citation generation', description: 'Name the sources behind each answer.' },
  conversationMemory: { label: 'Conversation memory', description: 'Remember earlier messages of the conversation.' },
} as const;
type SwitchName = keyof typeof SWITCHES;

/** Step 2: how the bot writes and what it may use, validated by the shared config schema. */
export function CustomizeStep({ wizard, knowledge }: { wizard: Wizard; knowledge: Knowledge }) {
  const { draft } = wizard.state;
  const { customize, next } = wizard;
  const form = useForm<CustomizationInput, unknown, Customization>({
    resolver: zodResolver(customizationSchema),
    defaultValues: customizationOf(draft),
    mode: 'onTouched',
  });
  const { errors } = form.formState;

  // Every change goes into the draft at once, so a reload mid-step keeps it; the web browsing switch also
  // switches the web_search capability of step 1.
  useEffect(() => {
    const subscription = form.watch((values) => customize(values as CustomizationChange));
    return () => subscription.unsubscribe();
  }, [form, customize]);

  const onSubmit = form.handleSubmit((values) => {
    customize(values);
    next();
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-8">
      <Section title="Style">
        <Choice control={form.control} name="tone" label="Tone" options={TONES} labels={TONE_LABELS} />
        <Choice
          control={form.control}
          name="writingStyle"
          label="Writing style"
          options={WRITING_STYLES}
          labels={WRITING_STYLE_LABELS}
        />
        <FormField
          label="Greeting"
          error={errors.greeting?.message}
          hint="The first message people see. Leave it empty to use the suggestion."
        >
          <Textarea
            rows={3}
            maxLength={BOT_GREETING_MAX}
            placeholder={greetingFor({ name: draft.name.trim(), description: draft.description })}
            {...form.register('greeting')}
          />
        </FormField>
      </Section>

      <Section title="Knowledge">
        <KnowledgeSection knowledge={knowledge} documentAnalysis={draft.capabilities.includes('document_analysis')} />
      </Section>

      <Section title="Web and citations">
        <SwitchRow control={form.control} name="webBrowsing" />
        <SwitchRow control={form.control} name="useKnowledgeCutoff" />
        <SwitchRow control={form.control} name="citationGeneration" />
        <FormField
          label="Trusted sources"
          error={errors.trustedSources?.message}
          hint={errors.trustedSources ? undefined : 'Comma-separated domains to prefer, e.g. nature.com, arxiv.org'}
        >
          <Input
            maxLength={TRUSTED_SOURCES_MAX}
            placeholder="nature.com, arxiv.org"
            autoCapitalize="none"
            spellCheck={false}
            {...form.register('trustedSources')}
          />
        </FormField>
      </Section>

      <Section title="Memory">
        <SwitchRow control={form.control} name="conversationMemory" />
        <FormField
          label="Context window"
          error={errors.maxContextMessages?.message}
          hint={errors.maxContextMessages ? undefined : BOT_MESSAGES.contextWindow}
        >
          <Input
            className="sm:max-w-32"
            type="number"
            inputMode="numeric"
            min={CONTEXT_WINDOW_MIN}
            max={CONTEXT_WINDOW_MAX}
            step={1}
            {...form.register('maxContextMessages', { valueAsNumber: true })}
          />
        </FormField>
      </Section>

      <StepFooter onBack={wizard.back}>
        <Button type="submit">
          Continue
          <ArrowRight aria-hidden="true" />
        </Button>
      </StepFooter>
    </form>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="grid gap-5">
      <h3 className="text-base font-semibold">{title}</h3>
      {children}
    </section>
  );
}

interface ChoiceProps<T extends string> {
  control: Control<CustomizationInput, unknown, Customization>;
  name: ChoiceName;
  label: string;
  options: readonly T[];
  labels: Record<T, string>;
}

function Choice<T extends string>({ control, name, label, options, labels }: ChoiceProps<T>) {
  const id = useId();
  return (
    <FieldGroup label={label} id={id}>
      <Controller
        control={control}
        name={name}
        render={({ field }) => (
          <RadioGroup
            aria-labelledby={id}
            value={field.value}
            onValueChange={field.onChange}
            onBlur={field.onBlur}
            ref={field.ref}
            className="grid-cols-1 gap-2 min-[420px]:grid-cols-3"
          >
            {options.map((option) => (
              <RadioCard key={option} value={option} className="justify-center font-medium">
                {labels[option]}
              </RadioCard>
            ))}
          </RadioGroup>
        )}
      />
    </FieldGroup>
  );
}

interface SwitchRowProps {
  control: Control<CustomizationInput, unknown, Customization>;
  name: SwitchName;
}

function SwitchRow({ control, name }: SwitchRowProps) {
  const id = useId();
  const { label, description } = SWITCHES[name];
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <div className="flex items-center justify-between gap-4">
          <div className="grid gap-1">
            <Label htmlFor={id} touchTarget>
              {label}
            </Label>
            <p id={`${id}-description`} className="text-sm text-muted-foreground">
              {description}
            </p>
          </div>
          <Switch
            id={id}
            aria-describedby={`${id}-description`}
            checked={field.value}
            onCheckedChange={field.onChange}
            onBlur={field.onBlur}
            ref={field.ref}
          />
        </div>
      )}
    />
  );
}
