import { useState, type FormEvent } from 'react';
import { MODEL_TASKS, type DefaultModels, type ModelTask } from '@shared/contracts/admin';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form';
import { PendingButton } from '@/components/ui/pending-button';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { useAdminSettings, useUpdateAdminSettings } from '@/entities/admin/api/admin-settings';
import { useModels, type ModelList } from '@/entities/model/api/get-models';
import { formErrors } from '../model/field-errors';
import { NativeSelect } from './native-select';

const TASK_LABELS: Record<ModelTask, string> = {
  chat: 'Chat',
  promptGeneration: 'Prompt generation',
  titles: 'Conversation titles',
  judge: 'Evaluation judge',
  embeddings: 'Embeddings',
};

/**
 * What a task left unset uses (the server's model catalog): Botty's other tasks follow Chat, Chat takes the
 * first enabled model, and embeddings only ever the environment's embedding model.
 */
const UNSET_LABELS: Record<ModelTask, string> = {
  chat: 'Automatic: the first enabled model',
  promptGeneration: 'Same as Chat',
  titles: 'Same as Chat',
  judge: 'Same as Chat',
  embeddings: 'The environment’s embedding model, if set',
};

/** The model each task uses when a bot names none: one of the enabled models, or the environment's. */
export function DefaultModelsCard() {
  const settings = useAdminSettings();
  const models = useModels();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Default models</CardTitle>
        <CardDescription>Used when a bot keeps “Default”, and for Botty’s own tasks.</CardDescription>
      </CardHeader>
      <CardContent>
        {settings.isError || models.isError ? (
          <p role="alert" className="text-destructive">
            The default models could not be loaded.
          </p>
        ) : settings.data && models.data ? (
          <DefaultModelsForm saved={settings.data.defaultModels} models={models.data} />
        ) : (
          <Skeleton className="h-40" />
        )}
      </CardContent>
    </Card>
  );
}

function DefaultModelsForm({ saved, models }: { saved: DefaultModels; models: ModelList }) {
  const update = useUpdateAdminSettings();
  const [chosen, setChosen] = useState(saved);
  const { fields, message } = formErrors(update.error);
  const known = new Set(models.models.map((m) => m.id));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    update.mutate({ defaultModels: chosen }, { onSuccess: () => toast({ title: 'Default models saved' }) });
  };

  return (
    <form className="grid gap-4 sm:grid-cols-2" onSubmit={submit} noValidate>
      {MODEL_TASKS.map((task) => {
        const value = chosen[task];
        return (
          <FormField key={task} label={TASK_LABELS[task]} error={fields[`defaultModels.${task}`]}>
            <NativeSelect
              value={value ?? ''}
              onChange={(e) => setChosen({ ...chosen, [task]: e.target.value || null })}
            >
              <option value="">{UNSET_LABELS[task]}</option>
              {/* A default whose model was since disabled stays visible, so it is not changed unnoticed. */}
              {value && !known.has(value) && <option value={value}>{value} (not enabled)</option>}
              {models.models.map((model) => (
                <option key={model.id} value={model.id}>
                  {model.label}
                </option>
              ))}
            </NativeSelect>
          </FormField>
        );
      })}
      {message && (
        <p role="alert" className="text-sm font-medium text-error sm:col-span-2">
          {message}
        </p>
      )}
      <PendingButton
        type="submit"
        className="justify-self-start sm:col-span-2"
        pending={update.isPending}
        pendingLabel="Saving..."
      >
        Save default models
      </PendingButton>
    </form>
  );
}
