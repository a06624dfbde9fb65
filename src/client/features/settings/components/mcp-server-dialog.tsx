import { zodResolver } from '@hookform/resolvers/zod';
import { Plus, X } from 'lucide-react';
import { useId, useState } from 'react';
import { Controller, useForm, type Control, type FieldPath } from 'react-hook-form';
import { z } from 'zod';
import {
  MCP_HEADERS_MAX,
  MCP_TRANSPORTS,
  mcpServerCreateSchema,
  mcpTransportSchema,
  type McpServer,
  type McpServerCreate,
  type McpServerUpdate,
} from '@shared/contracts/mcp-servers';
import { StoredSecret, type SecretAction } from '@/components/stored-secret';
import { Button } from '@/components/ui/button';
import { DialogDescription, DialogFooter, DialogHeader, DialogTitle, FormDialog } from '@/components/ui/dialog';
import { FormField, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PendingButton } from '@/components/ui/pending-button';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/use-toast';
import { useCreateMcpServer, useUpdateMcpServer } from '@/entities/mcp-server/api/mcp-servers';
import { TRANSPORT_LABELS } from '@/entities/mcp-server/model/tools';
import { useAuth } from '@/lib/auth';
import { ApiError, serverMessage } from '@/lib/request';

const SELECT_CLASS = 'h-11 w-full rounded-lg border border-input bg-background px-3 text-base md:h-9 md:text-sm';

/**
 * The dialog's fields. Headers are rows kept beside the form (not a react-hook-form field array, whose code would
 * land in the form library's chunk that the login page loads too), sent as one record.
 */
const formSchema = z.object({
  name: mcpServerCreateSchema.shape.name,
  url: mcpServerCreateSchema.shape.url,
  transport: mcpTransportSchema,
  bearerToken: z.string(),
  shared: z.boolean(),
  allowPrivateAddress: z.boolean(),
});
type FormInput = z.input<typeof formSchema>;
type FormValues = z.output<typeof formSchema>;
type FormControl = Control<FormInput, unknown, FormValues>;

const FIELDS = ['name', 'url', 'transport', 'bearerToken', 'shared', 'allowPrivateAddress'] as const;
const isField = (path: string): path is (typeof FIELDS)[number] => (FIELDS as readonly string[]).includes(path);

interface HeaderRow {
  key: number;
  name: string;
  value: string;
}
let rowKeys = 0;
const headerRow = (name = ''): HeaderRow => ({ key: ++rowKeys, name, value: '' });

/** The rows as the headers sent; a row left wholly blank is ignored. */
const headerRecord = (rows: HeaderRow[]) =>
  Object.fromEntries(rows.filter((row) => row.name || row.value).map((row) => [row.name.trim(), row.value]));

interface McpServerDialogProps {
  /** The server to edit; none to add one. */
  server?: McpServer;
  open: boolean;
  onClose: () => void;
}

/** Add or edit an MCP server. Its bearer token and header values are write-only: once saved they are never shown. */
export function McpServerDialog({ server, open, onClose }: McpServerDialogProps) {
  return (
    <FormDialog open={open} onClose={onClose} className="max-h-[calc(100dvh-2rem)] overflow-y-auto">
      <McpServerForm server={server} onClose={onClose} />
    </FormDialog>
  );
}

function McpServerForm({ server, onClose }: { server?: McpServer; onClose: () => void }) {
  const { isAdmin } = useAuth();
  const create = useCreateMcpServer();
  const update = useUpdateMcpServer();
  const mutation = server ? update : create;
  const [tokenAction, setTokenAction] = useState<SecretAction>(server?.hasBearerToken ? 'keep' : 'replace');
  const [headersAction, setHeadersAction] = useState<SecretAction>(server?.headerNames.length ? 'keep' : 'replace');
  const form = useForm<FormInput, unknown, FormValues>({
    resolver: zodResolver(formSchema),
    defaultValues: {
      name: server?.name ?? '',
      url: server?.url ?? '',
      transport: server?.transport ?? 'streamable-http',
      bearerToken: '',
      shared: server?.scope === 'everyone',
      allowPrivateAddress: server?.allowPrivateAddress ?? false,
    },
  });
  // Replacing stored headers starts from their names; their values were never sent back.
  const [headerRows, setHeaderRows] = useState(() => server?.headerNames.map(headerRow) ?? []);
  const { errors } = form.formState;

  const showServerErrors = (error: unknown) => {
    const fieldErrors = error instanceof ApiError ? (error.data?.errors ?? []) : [];
    for (const { path, message } of fieldErrors) {
      const field = path.split('.')[0] ?? '';
      if (isField(field)) form.setError(field, { message });
      if (field === 'headers') form.setError('root.headers', { message });
    }
    if (fieldErrors.length) return;
    const message = serverMessage(error) ?? 'Something went wrong. Please try again.';
    // The address checks answer with one message naming the URL ("URL: this address is not allowed…").
    form.setError(message.startsWith('URL') ? 'url' : 'root.server', { message });
  };

  const onSubmit = form.handleSubmit((values) => {
    const done = (saved: McpServer) => {
      toast({ title: server ? 'Server saved' : 'Server added', description: saved.name });
      onClose();
    };
    const admin = isAdmin ? { shared: values.shared, allowPrivateAddress: values.allowPrivateAddress } : {};
    const headers = headerRecord(headerRows);
    const token = values.bearerToken.trim();
    if (server) {
      const body: McpServerUpdate = { name: values.name, url: values.url, transport: values.transport, ...admin };
      if (tokenAction === 'remove') body.bearerToken = null;
      if (tokenAction === 'replace' && token) body.bearerToken = token;
      if (headersAction === 'remove') body.headers = null;
      if (headersAction === 'replace') body.headers = Object.keys(headers).length ? headers : null;
      update.mutate({ id: server.id, body }, { onSuccess: done, onError: showServerErrors });
    } else {
      const body: McpServerCreate = { name: values.name, url: values.url, transport: values.transport, ...admin };
      if (token) body.bearerToken = token;
      if (Object.keys(headers).length) body.headers = headers;
      create.mutate(body, { onSuccess: done, onError: showServerErrors });
    }
  });

  return (
    <form className="grid gap-4" onSubmit={onSubmit} noValidate>
      <DialogHeader>
        <DialogTitle>{server ? `Edit ${server.name}` : 'Add MCP server'}</DialogTitle>
        <DialogDescription>
          Botty connects to the server and lists its tools. Your botties with the Tools capability can then use them.
        </DialogDescription>
      </DialogHeader>
      <FormField label="Name" error={errors.name?.message}>
        <Input maxLength={80} {...form.register('name')} />
      </FormField>
      <FormField label="URL" error={errors.url?.message} hint="e.g. https://mcp.example.com/mcp">
        <Input type="url" inputMode="url" autoCapitalize="none" spellCheck={false} {...form.register('url')} />
      </FormField>
      <FormField
        label="Transport"
        error={errors.transport?.message}
        hint="Most servers speak Streamable HTTP; older ones HTTP with server-sent events."
      >
        <select className={SELECT_CLASS} {...form.register('transport')}>
          {MCP_TRANSPORTS.map((transport) => (
            <option key={transport} value={transport}>
              {TRANSPORT_LABELS[transport]}
            </option>
          ))}
        </select>
      </FormField>
      {tokenAction === 'replace' ? (
        <FormField
          label="Bearer token"
          error={errors.bearerToken?.message}
          hint={server?.hasBearerToken ? 'Leave empty to keep the current token.' : 'Optional.'}
        >
          <Input type="password" autoComplete="off" {...form.register('bearerToken')} />
        </FormField>
      ) : (
        <StoredSecret
          label="Bearer token"
          shown={`•••• ${server?.bearerTokenLast4 ?? ''}`}
          removing={tokenAction === 'remove'}
          onChange={setTokenAction}
        />
      )}
      {headersAction === 'replace' ? (
        <HeaderRows
          rows={headerRows}
          onChange={setHeaderRows}
          replacing={Boolean(server?.headerNames.length)}
          error={errors.root?.headers?.message}
        />
      ) : (
        <StoredSecret
          label="Headers"
          shown={server?.headerNames.join(', ') ?? ''}
          removing={headersAction === 'remove'}
          onChange={setHeadersAction}
        />
      )}
      {isAdmin && (
        <>
          <AdminSwitch
            control={form.control}
            name="shared"
            label="For everyone"
            hint="Everyone's botties may use this server's tools; only administrators can change it."
            error={errors.shared?.message}
          />
          <AdminSwitch
            control={form.control}
            name="allowPrivateAddress"
            label="Allow private or loopback address"
            hint="Only for servers you trust: Botty will reach addresses inside your network (127.0.0.1, 10.x, 192.168.x) for it."
            error={errors.allowPrivateAddress?.message}
          />
        </>
      )}
      <FormMessage>{errors.root?.server?.message}</FormMessage>
      <DialogFooter>
        <Button variant="outline" onClick={onClose} disabled={mutation.isPending}>
          Cancel
        </Button>
        <PendingButton type="submit" pending={mutation.isPending} pendingLabel="Saving...">
          {server ? 'Save' : 'Add server'}
        </PendingButton>
      </DialogFooter>
    </form>
  );
}

interface HeaderRowsProps {
  rows: HeaderRow[];
  onChange: (rows: HeaderRow[]) => void;
  /** Stored headers are being replaced: their values were never sent back, so each is typed again. */
  replacing: boolean;
  error: string | undefined;
}

/** Extra headers as name–value rows; values are typed like passwords, since they usually hold keys. */
function HeaderRows({ rows, onChange, replacing, error }: HeaderRowsProps) {
  const id = useId();
  const edit = (key: number, change: Partial<HeaderRow>) =>
    onChange(rows.map((row) => (row.key === key ? { ...row, ...change } : row)));
  return (
    <fieldset className="grid gap-2" aria-describedby={`${id}-hint`}>
      <legend className="mb-2 text-sm leading-none font-medium">Headers</legend>
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        {replacing
          ? 'These replace all the stored headers: type each value again.'
          : 'Optional, e.g. an API key header the server asks for. Values are stored encrypted and never shown again.'}
      </p>
      {rows.map((row, index) => (
        <div key={row.key} className="flex items-start gap-2">
          <Input
            aria-label={`Header ${index + 1} name`}
            placeholder="Name"
            autoCapitalize="none"
            spellCheck={false}
            className="min-w-0 flex-1"
            value={row.name}
            onChange={(e) => edit(row.key, { name: e.target.value })}
          />
          <Input
            aria-label={`Header ${index + 1} value`}
            placeholder="Value"
            type="password"
            autoComplete="off"
            className="min-w-0 flex-1"
            value={row.value}
            onChange={(e) => edit(row.key, { value: e.target.value })}
          />
          <Button
            variant="ghost"
            size="icon"
            className="shrink-0"
            aria-label={`Remove header ${index + 1}`}
            onClick={() => onChange(rows.filter((r) => r.key !== row.key))}
          >
            <X aria-hidden="true" />
          </Button>
        </div>
      ))}
      <FormMessage>{error}</FormMessage>
      {rows.length < MCP_HEADERS_MAX && (
        <Button
          variant="outline"
          size="sm"
          className="justify-self-start"
          onClick={() => onChange([...rows, headerRow()])}
        >
          <Plus aria-hidden="true" />
          Add header
        </Button>
      )}
    </fieldset>
  );
}

interface AdminSwitchProps {
  control: FormControl;
  name: Extract<FieldPath<FormInput>, 'shared' | 'allowPrivateAddress'>;
  label: string;
  hint: string;
  error: string | undefined;
}

function AdminSwitch({ control, name, label, hint, error }: AdminSwitchProps) {
  const id = useId();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <div className="grid gap-1">
          <div className="flex items-center justify-between gap-4">
            <Label htmlFor={id} touchTarget>
              {label}
            </Label>
            <Switch
              id={id}
              aria-describedby={`${id}-hint`}
              checked={field.value}
              onCheckedChange={field.onChange}
              onBlur={field.onBlur}
              ref={field.ref}
            />
          </div>
          <p id={`${id}-hint`} className="text-xs text-muted-foreground">
            {hint}
          </p>
          <FormMessage>{error}</FormMessage>
        </div>
      )}
    />
  );
}
