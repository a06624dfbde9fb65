import { useState, type FormEvent } from 'react';
import {
  CONNECTION_KINDS,
  type Connection,
  type ConnectionKind,
  type CreateConnectionBody,
  type PatchConnectionBody,
} from '@shared/contracts/admin';
import { StoredSecret, type SecretAction } from '@/components/stored-secret';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { DialogDescription, DialogFooter, DialogHeader, DialogTitle, FormDialog } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PendingButton } from '@/components/ui/pending-button';
import { toast } from '@/components/ui/use-toast';
import { useCreateConnection, useUpdateConnection } from '@/entities/admin/api/connections';
import { formErrors } from '../model/field-errors';
import { NativeSelect } from './native-select';

export const KIND_LABELS: Record<ConnectionKind, string> = {
  'openai-compatible': 'OpenAI-compatible',
  openai: 'OpenAI',
  anthropic: 'Anthropic',
};

const BASE_URL_HINTS: Record<ConnectionKind, string> = {
  'openai-compatible': 'Ollama, vLLM, llama.cpp, LM Studio, LiteLLM, OpenRouter… e.g. http://127.0.0.1:11434/v1',
  openai: 'Leave empty for https://api.openai.com/v1',
  anthropic: 'Leave empty for https://api.anthropic.com',
};

interface ConnectionDialogProps {
  /** The connection to edit; none to add one. */
  connection?: Connection;
  open: boolean;
  onClose: () => void;
}

/** Add or edit an AI connection. The API key is write-only: once saved only its last four characters are shown. */
export function ConnectionDialog({ connection, open, onClose }: ConnectionDialogProps) {
  return (
    <FormDialog open={open} onClose={onClose}>
      <ConnectionForm connection={connection} onClose={onClose} />
    </FormDialog>
  );
}

function ConnectionForm({ connection, onClose }: { connection?: Connection; onClose: () => void }) {
  const create = useCreateConnection();
  const update = useUpdateConnection();
  const [name, setName] = useState(connection?.name ?? '');
  const [kind, setKind] = useState<ConnectionKind>(connection?.kind ?? 'openai-compatible');
  const [baseUrl, setBaseUrl] = useState(connection?.baseUrl ?? '');
  const [apiKey, setApiKey] = useState('');
  const [keyAction, setKeyAction] = useState<SecretAction>(connection?.hasApiKey ? 'keep' : 'replace');
  const [allowPrivate, setAllowPrivate] = useState(connection?.allowPrivateAddress ?? false);
  const mutation = connection ? update : create;
  const errors = formErrors(mutation.error);
  const { fields } = errors;
  // The address checks answer with one message naming the field ("Base URL: this address is not allowed…").
  const addressRefused = errors.message?.startsWith('Base URL') === true;
  const message = addressRefused ? undefined : errors.message;
  const baseUrlError = fields.baseUrl ?? (addressRefused ? errors.message : undefined);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const done = (saved: Connection) => {
      toast({ title: connection ? 'Connection saved' : 'Connection added', description: saved.name });
      onClose();
    };
    if (connection) {
      const body: PatchConnectionBody = { name, baseUrl: baseUrl.trim() || null, allowPrivateAddress: allowPrivate };
      if (keyAction === 'remove') body.apiKey = null;
      if (keyAction === 'replace' && apiKey.trim()) body.apiKey = apiKey;
      update.mutate({ id: connection.id, body }, { onSuccess: done });
    } else {
      const body: CreateConnectionBody = { name, kind, allowPrivateAddress: allowPrivate };
      if (baseUrl.trim()) body.baseUrl = baseUrl;
      if (apiKey.trim()) body.apiKey = apiKey;
      create.mutate(body, { onSuccess: done });
    }
  };

  return (
    <form className="grid gap-4" onSubmit={submit} noValidate>
      <DialogHeader>
        <DialogTitle>{connection ? `Edit ${connection.name}` : 'Add connection'}</DialogTitle>
        <DialogDescription>
          A server that runs language models. Test it afterwards to choose its models.
        </DialogDescription>
      </DialogHeader>
      <FormField label="Name" error={fields.name}>
        <Input value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
      </FormField>
      <FormField label="Kind" error={fields.kind} hint={connection ? 'The kind cannot be changed.' : undefined}>
        <NativeSelect
          value={kind}
          disabled={connection !== undefined}
          onChange={(e) => setKind(e.target.value as ConnectionKind)}
        >
          {CONNECTION_KINDS.map((k) => (
            <option key={k} value={k}>
              {KIND_LABELS[k]}
            </option>
          ))}
        </NativeSelect>
      </FormField>
      <FormField label="Base URL" error={baseUrlError} hint={BASE_URL_HINTS[kind]}>
        <Input
          type="url"
          inputMode="url"
          autoCapitalize="none"
          spellCheck={false}
          value={baseUrl}
          onChange={(e) => setBaseUrl(e.target.value)}
        />
      </FormField>
      {keyAction === 'replace' ? (
        <FormField
          label="API key"
          error={fields.apiKey}
          hint={connection?.hasApiKey ? 'Leave empty to keep the current key.' : 'Optional for local servers.'}
        >
          <Input type="password" autoComplete="off" value={apiKey} onChange={(e) => setApiKey(e.target.value)} />
        </FormField>
      ) : (
        <StoredSecret
          label="API key"
          shown={`•••• ${connection?.apiKeyLast4 ?? ''}`}
          removing={keyAction === 'remove'}
          onChange={setKeyAction}
        />
      )}
      <div className="grid gap-1">
        <div className="flex items-center gap-3">
          <Checkbox
            id="connection-allow-private"
            checked={allowPrivate}
            aria-describedby="connection-allow-private-hint"
            onCheckedChange={(checked) => setAllowPrivate(checked === true)}
          />
          <Label htmlFor="connection-allow-private" touchTarget className="font-normal">
            Allow private or loopback address
          </Label>
        </div>
        <p id="connection-allow-private-hint" className="pl-8 text-xs text-muted-foreground">
          Botty refuses addresses inside your network unless allowed here. Ollama on the same host (127.0.0.1) needs it.
        </p>
        {fields.allowPrivateAddress && (
          <p role="alert" className="pl-8 text-sm font-medium text-error">
            {fields.allowPrivateAddress}
          </p>
        )}
      </div>
      {message && (
        <p role="alert" className="text-sm font-medium text-error">
          {message}
        </p>
      )}
      <DialogFooter>
        <Button variant="outline" onClick={onClose} disabled={mutation.isPending}>
          Cancel
        </Button>
        <PendingButton type="submit" pending={mutation.isPending} pendingLabel="Saving...">
          {connection ? 'Save' : 'Add connection'}
        </PendingButton>
      </DialogFooter>
    </form>
  );
}
