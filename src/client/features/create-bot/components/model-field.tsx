import { TriangleAlert } from 'lucide-react';
import { type Ref, useEffect, useState } from 'react';
import { useModels } from '@/entities/model/api/get-models';
import { isModelAvailable, MODEL_UNAVAILABLE } from '@/entities/model/model/model-choice';
import { FormField } from '@/components/ui/form';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

/** A select's items need a non-empty value; model ids are `connectionId/model`, so this one cannot clash. */
const DEFAULT_VALUE = 'default';

const NO_MODELS = 'No model is connected yet. An administrator can connect one in the admin console.';
const NOT_LOADED = 'The models could not be loaded. Default is used until they can be.';

interface ModelFieldProps {
  label: string;
  hint: string;
  error: string | undefined;
  value: string | null | undefined;
  onChange: (value: string | null) => void;
  onBlur: () => void;
  ref?: Ref<HTMLButtonElement>;
}

/**
 * The bot's model: "Default (…)" first, then the enabled models (GET /api/models). A saved model that is no
 * longer offered is said so once and becomes Default, which is what the bot answers with meanwhile.
 */
export function ModelField({ label, hint, error, value, onChange, onBlur, ref }: ModelFieldProps) {
  const { data: list, isError } = useModels();
  // The model the bot was saved with, kept to warn about it after the value has become Default.
  const [saved] = useState(value ?? null);
  const unavailable = list !== undefined && !isModelAvailable(list, saved);

  useEffect(() => {
    if (unavailable && value === saved) onChange(null);
  }, [unavailable, value, saved, onChange]);

  const offline = list !== undefined && list.models.length === 0 && list.defaultModel === null;
  const defaultLabel = list?.defaultModel ? `Default (${list.defaultModel.label})` : 'Default';
  const note = isError ? NOT_LOADED : offline ? NO_MODELS : hint;

  return (
    <div className="grid gap-3">
      {unavailable && value == null && (
        <p
          role="status"
          className="flex items-start gap-2 rounded-lg border border-primary/30 bg-accent/60 px-3 py-2 text-sm text-accent-foreground"
        >
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          {MODEL_UNAVAILABLE}
        </p>
      )}
      {/* The root draws nothing: the field's label and messages go to the trigger, the button it shows. */}
      <Select
        value={value ?? DEFAULT_VALUE}
        onValueChange={(next) => onChange(next === DEFAULT_VALUE ? null : next)}
        disabled={list === undefined || offline}
      >
        <FormField label={label} error={error} hint={error ? undefined : note}>
          <SelectTrigger className="sm:max-w-md" onBlur={onBlur} ref={ref}>
            <SelectValue placeholder={isError ? 'Default' : 'Loading models...'} />
          </SelectTrigger>
        </FormField>
        <SelectContent>
          <SelectItem value={DEFAULT_VALUE}>{defaultLabel}</SelectItem>
          {list?.models.map((model) => (
            <SelectItem key={model.id} value={model.id}>
              {model.label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
