import { CircleCheck, CircleX, PlugZap } from 'lucide-react';
import { useId, useState } from 'react';
import type { Connection, ConnectionTest } from '@shared/contracts/admin';
import { EditDeleteButtons } from '@/components/edit-delete-buttons';
import { Badge } from '@/components/ui/badge';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { PendingButton } from '@/components/ui/pending-button';
import { toast } from '@/components/ui/use-toast';
import { useTestConnection, useUpdateConnection } from '@/entities/admin/api/connections';
import { serverMessage } from '@/lib/request';
import { formatBytes } from '../model/format';
import { KIND_LABELS } from './connection-dialog';

interface ConnectionCardProps {
  connection: Connection;
  onEdit: () => void;
  onDelete: () => void;
}

/** One connection: what it is, Test, and (after a test) the models it offers, to enable for people. */
export function ConnectionCard({ connection, onEdit, onDelete }: ConnectionCardProps) {
  const test = useTestConnection();
  const titleId = useId();
  const runTest = () =>
    test.mutate(connection.id, {
      onError: (error) =>
        toast({ variant: 'destructive', title: 'Could not test', description: serverMessage(error) ?? '' }),
    });

  return (
    <li className="grid gap-4 rounded-xl border p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="grid min-w-0 gap-1">
          <h3 id={titleId} className="flex flex-wrap items-center gap-2 font-semibold">
            {connection.name}
            <Badge variant="secondary">{KIND_LABELS[connection.kind]}</Badge>
            {connection.readOnly && <Badge variant="outline">From environment variables</Badge>}
          </h3>
          <p className="text-sm break-all text-muted-foreground">{connection.baseUrl ?? 'Provider’s public API'}</p>
          <p className="text-sm text-muted-foreground">
            API key: {connection.hasApiKey ? <code>•••• {connection.apiKeyLast4}</code> : 'none'}
            {connection.allowPrivateAddress && ' · private address allowed'}
          </p>
          {connection.readOnly && (
            <p className="text-sm text-muted-foreground">
              Set by the server’s LLM_* environment variables; change them there.
            </p>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          <PendingButton
            variant="outline"
            size="sm"
            pending={test.isPending}
            pendingLabel="Testing..."
            onClick={runTest}
            aria-label={`Test ${connection.name}`}
          >
            <PlugZap aria-hidden="true" />
            Test
          </PendingButton>
          {!connection.readOnly && <EditDeleteButtons name={connection.name} onEdit={onEdit} onDelete={onDelete} />}
        </div>
      </div>
      {test.data && <TestResult result={test.data} />}
      {test.data?.ok && !connection.readOnly ? (
        <ModelPicker key={test.submittedAt} connection={connection} offered={test.data.models} />
      ) : (
        <p className="text-sm">
          {connection.enabledModels.length
            ? `Enabled models: ${connection.enabledModels.join(', ')}`
            : connection.readOnly
              ? 'Uses the model named in the environment.'
              : 'No models enabled yet. Test the connection to choose them.'}
        </p>
      )}
    </li>
  );
}

function TestResult({ result }: { result: ConnectionTest }) {
  return result.ok ? (
    <p role="status" className="flex items-center gap-2 text-sm font-medium text-success-foreground">
      <CircleCheck className="size-4" aria-hidden="true" />
      Connected: {result.models.length} {result.models.length === 1 ? 'model' : 'models'} offered.
    </p>
  ) : (
    <p role="alert" className="flex items-center gap-2 text-sm font-medium text-error">
      <CircleX className="size-4 shrink-0" aria-hidden="true" />
      {result.error ?? 'The server did not answer.'}
    </p>
  );
}

/** The offered models as checkboxes; an enabled model the server no longer offers stays listed, to switch off. */
function ModelPicker({ connection, offered }: { connection: Connection; offered: ConnectionTest['models'] }) {
  const update = useUpdateConnection();
  const id = useId();
  const [enabled, setEnabled] = useState(() => new Set(connection.enabledModels));
  const sizes = new Map(offered.map((m) => [m.model, m.sizeBytes]));
  const names = [...new Set([...offered.map((m) => m.model), ...connection.enabledModels])];
  const toggle = (model: string, on: boolean) =>
    setEnabled((current) => {
      const next = new Set(current);
      if (on) next.add(model);
      else next.delete(model);
      return next;
    });
  const save = () =>
    update.mutate(
      { id: connection.id, body: { enabledModels: names.filter((name) => enabled.has(name)) } },
      {
        onSuccess: (saved) =>
          toast({ title: 'Models saved', description: `${saved.enabledModels.length} enabled on ${saved.name}.` }),
        onError: (error) =>
          toast({ variant: 'destructive', title: 'Could not save models', description: serverMessage(error) ?? '' }),
      },
    );

  if (names.length === 0) return <p className="text-sm">This server offers no models.</p>;
  return (
    <fieldset className="grid gap-3">
      <legend className="mb-2 text-sm font-medium">Models people may use</legend>
      <ul className="grid max-h-72 gap-1 overflow-y-auto sm:grid-cols-2">
        {names.map((model, index) => {
          const size = sizes.get(model);
          return (
            <li key={model} className="flex min-w-0 items-center gap-3">
              <Checkbox
                id={`${id}-${index}`}
                checked={enabled.has(model)}
                onCheckedChange={(checked) => toggle(model, checked === true)}
              />
              <Label htmlFor={`${id}-${index}`} touchTarget className="min-w-0 font-normal break-all">
                {model}
                {size != null && (
                  <>
                    {' '}
                    <span className="text-muted-foreground">({formatBytes(size)})</span>
                  </>
                )}
                {!sizes.has(model) && (
                  <>
                    {' '}
                    <span className="text-muted-foreground">(no longer offered)</span>
                  </>
                )}
              </Label>
            </li>
          );
        })}
      </ul>
      <PendingButton className="justify-self-start" pending={update.isPending} pendingLabel="Saving..." onClick={save}>
        Save models
      </PendingButton>
    </fieldset>
  );
}
