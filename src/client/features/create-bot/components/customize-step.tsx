import { zodResolver } from '@hookform/resolvers/zod';
import { ArrowRight } from 'lucide-react';
import { type ReactNode, useEffect, useId } from 'react';
import { Controller, useForm, type Control, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { customizationOf, customizationSchema, type Customization } from '../model/wizard';
import { greetingFor } from '@/entities/chat/model/greeting';
import {
  BOT_SETTINGS,
  CUSTOMIZE_KEYS,
  type BotTool,
  type CustomizeKey,
  type SettingSection,
} from '@shared/bots/bot-settings';
import { hasCapability } from '@shared/bots/capabilities';
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
import { ModelField } from './model-field';
import { StepFooter } from './step-footer';
import { ToolPicker } from './tool-picker';

type CustomizationInput = z.input<typeof customizationSchema>;
type CustomizationForm = UseFormReturn<CustomizationInput, unknown, Customization>;
type FormControl = Control<CustomizationInput, unknown, Customization>;

/** Step 2: how the bot writes and what it may use, each control drawn from its setting's descriptor. */
export function CustomizeStep({ wizard, knowledge }: { wizard: Wizard; knowledge: Knowledge }) {
  const { draft } = wizard.state;
  const { customize, next } = wizard;
  const form = useForm<CustomizationInput, unknown, Customization>({
    resolver: zodResolver(customizationSchema),
    defaultValues: customizationOf(draft),
    mode: 'onTouched',
  });
  const { errors } = form.formState;
  const suggestedGreeting = greetingFor({ name: draft.name.trim(), description: draft.description });

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

  const fields = (section: SettingSection) =>
    CUSTOMIZE_KEYS.filter((key) => BOT_SETTINGS[key].control.section === section).map((key) => (
      <SettingField
        key={key}
        form={form}
        name={key}
        error={errors[key]?.message}
        suggestedGreeting={suggestedGreeting}
      />
    ));

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-8">
      <Section title="Language model">{fields('model')}</Section>

      <Section title="Style">{fields('style')}</Section>

      <Section title="Knowledge">
        <KnowledgeSection knowledge={knowledge} documentAnalysis={hasCapability(draft, 'document_analysis')} />
      </Section>

      <Section title="Web and citations">{fields('web')}</Section>

      <Section title="Tools">
        {hasCapability(draft, 'tools') ? (
          fields('tools')
        ) : (
          <p className="text-sm text-muted-foreground">
            Turn on Tools in step 1 to let this botty call the tools of your MCP servers.
          </p>
        )}
      </Section>

      <Section title="Memory">{fields('memory')}</Section>

      <StepFooter onBack={wizard.back}>
        <Button type="submit">
          Continue
          <ArrowRight aria-hidden="true" />
        </Button>
      </StepFooter>
    </form>
  );
}

interface SettingFieldProps {
  form: CustomizationForm;
  name: CustomizeKey;
  error: string | undefined;
  suggestedGreeting: string;
}

function SettingField({ form, name, error, suggestedGreeting }: SettingFieldProps) {
  const { label, control } = BOT_SETTINGS[name];
  switch (control.kind) {
    case 'switch':
      return <SwitchRow control={form.control} name={name} label={label} description={control.description} />;
    case 'choice':
      return <Choice control={form.control} name={name} label={label} options={control.options} />;
    case 'model':
      return (
        <Controller
          control={form.control}
          name={name}
          render={({ field }) => (
            <ModelField
              label={label}
              hint={control.hint}
              error={error}
              value={field.value as string | null | undefined}
              onChange={field.onChange}
              onBlur={field.onBlur}
              ref={field.ref}
            />
          )}
        />
      );
    case 'tools':
      return (
        <Controller
          control={form.control}
          name={name}
          render={({ field }) => (
            <ToolPicker
              label={label}
              hint={control.hint}
              error={error}
              value={field.value as BotTool[]}
              onChange={field.onChange}
            />
          )}
        />
      );
    case 'number':
      return (
        <FormField label={label} error={error} hint={error ? undefined : control.hint}>
          <Input
            className="sm:max-w-32"
            type="number"
            inputMode="numeric"
            min={control.min}
            max={control.max}
            step={1}
            {...form.register(name, { valueAsNumber: true })}
          />
        </FormField>
      );
    case 'text': {
      const props = {
        maxLength: control.maxLength,
        placeholder: control.placeholder ?? suggestedGreeting,
        autoCapitalize: control.spellCheck ? undefined : 'none',
        spellCheck: control.spellCheck ? undefined : false,
        ...form.register(name),
      };
      return (
        <FormField label={label} error={error} hint={error ? undefined : control.hint}>
          {control.rows ? <Textarea rows={control.rows} {...props} /> : <Input {...props} />}
        </FormField>
      );
    }
  }
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="grid gap-5">
      <h3 className="text-base font-semibold">{title}</h3>
      {children}
    </section>
  );
}

interface ChoiceProps {
  control: FormControl;
  name: CustomizeKey;
  label: string;
  /** Each value's label, in the order offered. */
  options: Readonly<Record<string, string>>;
}

function Choice({ control, name, label, options }: ChoiceProps) {
  const id = useId();
  return (
    <FieldGroup label={label} id={id}>
      <Controller
        control={control}
        name={name}
        render={({ field }) => (
          <RadioGroup
            aria-labelledby={id}
            value={String(field.value)}
            onValueChange={field.onChange}
            onBlur={field.onBlur}
            ref={field.ref}
            className="grid-cols-1 gap-2 min-[420px]:grid-cols-3"
          >
            {Object.entries(options).map(([value, optionLabel]) => (
              <RadioCard key={value} value={value} className="justify-center font-medium">
                {optionLabel}
              </RadioCard>
            ))}
          </RadioGroup>
        )}
      />
    </FieldGroup>
  );
}

interface SwitchRowProps {
  control: FormControl;
  name: CustomizeKey;
  label: string;
  description: string;
}

function SwitchRow({ control, name, label, description }: SwitchRowProps) {
  const id = useId();
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
            checked={field.value === true}
            onCheckedChange={field.onChange}
            onBlur={field.onBlur}
            ref={field.ref}
          />
        </div>
      )}
    />
  );
}
