import { type FormEvent, useState } from 'react';
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
  const [fields, setFields] = useState<GateFields>(gateToFields(gate));
  const parsed = gateFromFields(fields);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!parsed.success) return;
    save.mutate(parsed.gate, { onSuccess: () => toast({ title: 'Release gate saved' }) });
  };

  return (
    <form aria-label="Release gate" className="grid gap-4 sm:grid-cols-2" onSubmit={submit} noValidate>
      <FormField
        label="Minimum pass rate (%)"
        hint="Empty: not lower than the published version's."
        error={parsed.success ? undefined : parsed.errors.minPassRate}
      >
        <Input
          inputMode="decimal"
          placeholder="Same as published"
          value={fields.minPassRate}
          onChange={(event) => setFields({ ...fields, minPassRate: event.target.value })}
        />
      </FormField>
      <FormField
        label="Maximum regressions"
        hint="Questions that passed before and fail now."
        error={parsed.success ? undefined : parsed.errors.maxRegressions}
      >
        <Input
          inputMode="numeric"
          value={fields.maxRegressions}
          onChange={(event) => setFields({ ...fields, maxRegressions: event.target.value })}
        />
      </FormField>
      {save.isError && <FormMessage>{serverMessage(save.error) ?? 'The gate could not be saved.'}</FormMessage>}
      <PendingButton
        type="submit"
        variant="outline"
        className="justify-self-start"
        pending={save.isPending}
        pendingLabel="Saving..."
        disabled={!parsed.success}
      >
        Save gate
      </PendingButton>
    </form>
  );
}
