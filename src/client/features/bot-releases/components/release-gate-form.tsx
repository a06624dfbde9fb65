import { useForm } from 'react-hook-form';
import type { ReleaseGate } from '@shared/contracts/releases';
import { FormField, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { PendingButton } from '@/components/ui/pending-button';
import { toast } from '@/components/ui/use-toast';
import { serverMessage } from '@/lib/request';
import { useReleaseGate, useSaveReleaseGate } from '../api/releases';
import { gateFromFields, gateToFields, type GateFields } from '../model/gate';

/** What a release must hold to be published: edited as a percentage and a count. */
export function ReleaseGateSettings({ botId }: { botId: number }) {
  const gate = useReleaseGate(botId);
  if (!gate.data) return null;
  return <GateForm key={JSON.stringify(gate.data)} botId={botId} gate={gate.data} />;
}

function GateForm({ botId, gate }: { botId: number; gate: ReleaseGate }) {
  const save = useSaveReleaseGate(botId);
  const form = useForm<GateFields>({ defaultValues: gateToFields(gate) });
  const { errors } = form.formState;

  const submit = form.handleSubmit((fields) => {
    const parsed = gateFromFields(fields);
    if (!parsed.success) {
      for (const [field, message] of Object.entries(parsed.errors))
        form.setError(field as keyof GateFields, { message });
      return;
    }
    save.mutate(parsed.gate, { onSuccess: () => toast({ title: 'Release gate saved' }) });
  });

  return (
    <form aria-label="Release gate" className="grid gap-4 sm:grid-cols-2" onSubmit={submit} noValidate>
      <FormField
        label="Minimum pass rate (%)"
        hint="Empty: not lower than the published version's."
        error={errors.minPassRate?.message}
      >
        <Input inputMode="decimal" placeholder="Same as published" {...form.register('minPassRate')} />
      </FormField>
      <FormField
        label="Maximum regressions"
        hint="Questions that passed before and fail now."
        error={errors.maxRegressions?.message}
      >
        <Input inputMode="numeric" {...form.register('maxRegressions')} />
      </FormField>
      {save.isError && <FormMessage>{serverMessage(save.error) ?? 'The gate could not be saved.'}</FormMessage>}
      <PendingButton
        type="submit"
        variant="outline"
        className="justify-self-start"
        pending={save.isPending}
        pendingLabel="Saving..."
      >
        Save gate
      </PendingButton>
    </form>
  );
}
