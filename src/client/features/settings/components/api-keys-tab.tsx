import { KeyRound } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { API_KEY_NAME_MAX, type ApiKey, type CreatedApiKey } from '@shared/contracts/keys';
import { ConfirmDeleteDialog } from '@/components/confirm-delete-dialog';
import { RelativeTime } from '@/components/relative-time';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PendingButton } from '@/components/ui/pending-button';
import { toast } from '@/components/ui/use-toast';
import { useBots } from '@/entities/bot/api/get-bots';
import { CopyButton } from '@/entities/chat/ui/copy-button';
import { ShownOnceSecret } from '@/entities/credential/ui/shown-once-secret';
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from '@/features/settings/api/api-keys';
import { expiresAtIn, formatExpiry, type ExpiryChoice } from '@/lib/expiry';
import { serverMessage } from '@/lib/request';

const EXPIRY_CHOICES: ExpiryChoice[] = [
  { label: 'Never', days: null },
  { label: 'In 30 days', days: 30 },
  { label: 'In 90 days', days: 90 },
  { label: 'In 1 year', days: 365 },
];

const SELECT_CLASS = 'h-11 rounded-lg border border-input bg-background px-3 text-base md:h-9 md:text-sm';

const baseUrl = () => `${window.location.origin}/v1`;

function Example({ model }: { model: string }) {
  const curl = [
    `curl ${baseUrl()}/chat/completions \\`,
    `  -H "Authorization: Bearer $BOTTY_API_KEY" -H "Content-Type: application/json" \\`,
    `  -d '{"model": "${model}", "messages": [{"role": "user", "content": "Hello"}]}'`,
  ].join('\n');
  const python = [
    'import os',
    'from openai import OpenAI',
    '',
    `client = OpenAI(base_url="${baseUrl()}", api_key=os.environ["BOTTY_API_KEY"])`,
    'reply = client.chat.completions.create(',
    `    model="${model}",`,
    '    messages=[{"role": "user", "content": "Hello"}],',
    ')',
    'print(reply.choices[0].message.content)',
  ].join('\n');
  return (
    <div className="grid gap-3 text-sm">
      {/* On a phone the label goes above, and the address keeps to one line, scrolling sideways if it must. */}
      <div className="grid gap-1 sm:flex sm:items-center sm:gap-2">
        <span className="text-muted-foreground">Base URL</span>
        <div className="flex min-w-0 items-center gap-2">
          <code
            tabIndex={0}
            className="min-w-0 flex-1 overflow-x-auto rounded bg-muted px-1.5 py-0.5 whitespace-nowrap sm:flex-initial"
          >
            {baseUrl()}
          </code>
          <CopyButton text={baseUrl} label="Copy base URL" />
        </div>
      </div>
      {[curl, python].map((code) => (
        <pre key={code} tabIndex={0} className="overflow-x-auto rounded-lg bg-muted p-3 text-xs">
          <code>{code}</code>
        </pre>
      ))}
      <p className="text-muted-foreground">
        Each botty is a model named <code>bot-&#123;id&#125;</code> (GET /v1/models lists them). Its prompt, settings,
        knowledge and web research apply. The API is stateless like OpenAI&apos;s: send the whole conversation each
        time; nothing is stored in Botty.
      </p>
    </div>
  );
}

function KeyRow({ apiKey, onRevoke }: { apiKey: ApiKey; onRevoke: () => void }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3">
      <div className="min-w-0">
        <p className="font-medium">{apiKey.name}</p>
        <p className="text-sm text-muted-foreground">
          <code>{apiKey.prefix}…</code> · {apiKey.botName ?? 'All my botties'} · created{' '}
          <RelativeTime date={apiKey.createdAt} /> · last used{' '}
          {apiKey.lastUsedAt ? <RelativeTime date={apiKey.lastUsedAt} /> : 'never'} · expires{' '}
          {formatExpiry(apiKey.expiresAt)}
        </p>
      </div>
      <Button variant="outline" size="sm" onClick={onRevoke}>
        Revoke
      </Button>
    </li>
  );
}

/** Settings → API keys: keys for the OpenAI-compatible API, each shown once when created. */
export function ApiKeysTab() {
  const id = useId();
  const keys = useApiKeys();
  const bots = useBots();
  const create = useCreateApiKey();
  const revoke = useRevokeApiKey();
  const [name, setName] = useState('');
  const [botId, setBotId] = useState<number | null>(null);
  const [days, setDays] = useState<number | null>(null);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  // Once the new key is put away, focus returns to where another would be made, not to the page's start.
  const nameInput = useRef<HTMLInputElement>(null);
  const [returnFocus, setReturnFocus] = useState(false);
  useEffect(() => {
    if (returnFocus && !created) nameInput.current?.focus();
  }, [returnFocus, created]);
  const nameError = create.error ? serverMessage(create.error) : undefined;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    create.mutate(
      { name, botId, expiresAt: expiresAtIn(days) },
      {
        onSuccess: (key) => {
          setCreated(key);
          setName('');
        },
      },
    );
  };

  const confirmRevoke = () => {
    if (!revoking) return;
    revoke.mutate(revoking.id, {
      onSuccess: ({ message }) => {
        setRevoking(null);
        toast({ title: message, description: `“${revoking.name}” no longer works.` });
      },
      onError: (error) =>
        toast({ variant: 'destructive', title: 'Could not revoke', description: serverMessage(error) ?? '' }),
    });
  };

  const firstBot = bots.data?.[0];
  return (
    <Card>
      <CardHeader>
        <CardTitle>API keys</CardTitle>
        <CardDescription>
          Use your botties from any OpenAI client or library with these keys. A key can reach one botty or all of them.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <Example model={firstBot ? `bot-${firstBot.id}` : 'bot-1'} />
        {created ? (
          <ShownOnceSecret
            secret={created.key}
            warning="Copy your new key now. It will not be shown again."
            label="New API key"
            copyLabel="Copy API key"
            doneLabel="I have copied it"
            onDone={() => {
              setCreated(null);
              setReturnFocus(true);
            }}
          />
        ) : (
          <form className="grid gap-4 sm:grid-cols-3" onSubmit={submit} noValidate>
            <FormField label="Name" error={nameError} className="sm:col-span-3">
              <Input
                ref={nameInput}
                value={name}
                maxLength={API_KEY_NAME_MAX}
                onChange={(e) => setName(e.target.value)}
              />
            </FormField>
            <div className="grid gap-2">
              <Label htmlFor={`${id}-scope`}>Botty</Label>
              <select
                id={`${id}-scope`}
                className={SELECT_CLASS}
                value={botId ?? ''}
                onChange={(e) => setBotId(e.target.value ? Number(e.target.value) : null)}
              >
                <option value="">All my botties</option>
                {bots.data?.map((bot) => (
                  <option key={bot.id} value={bot.id}>
                    {bot.name}
                  </option>
                ))}
              </select>
            </div>
            <div className="grid gap-2">
              <Label htmlFor={`${id}-expiry`}>Expires</Label>
              <select
                id={`${id}-expiry`}
                className={SELECT_CLASS}
                value={days ?? ''}
                onChange={(e) => setDays(e.target.value ? Number(e.target.value) : null)}
              >
                {EXPIRY_CHOICES.map((choice) => (
                  <option key={choice.label} value={choice.days ?? ''}>
                    {choice.label}
                  </option>
                ))}
              </select>
            </div>
            <PendingButton type="submit" className="self-end" pending={create.isPending} pendingLabel="Creating...">
              <KeyRound className="size-4" aria-hidden="true" />
              Create key
            </PendingButton>
          </form>
        )}
        {keys.data?.length ? (
          <ul className="divide-y" aria-label="Your API keys">
            {keys.data.map((apiKey) => (
              <KeyRow key={apiKey.id} apiKey={apiKey} onRevoke={() => setRevoking(apiKey)} />
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">{keys.isPending ? 'Loading your keys…' : 'No API keys yet.'}</p>
        )}
      </CardContent>
      <ConfirmDeleteDialog
        open={revoking !== null}
        onClose={() => setRevoking(null)}
        title="Revoke API key?"
        description={`Programs using “${revoking?.name ?? ''}” will be refused from now on. This cannot be undone.`}
        confirmLabel="Revoke key"
        pending={revoke.isPending}
        onConfirm={confirmRevoke}
      />
    </Card>
  );
}
