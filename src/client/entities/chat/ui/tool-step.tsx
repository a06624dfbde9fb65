import { AlertCircle, Ban, Check, LoaderCircle, ShieldQuestion, Wrench } from 'lucide-react';
import { useId, useState } from 'react';
import type { ReplyStep } from '@shared/contracts/chat';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { serverMessage, ApiError } from '@/lib/request';
import { useToolApproval } from '../api/approve-tool-call';

/** `change_thing on Home`: the tool, and the MCP server it belongs to. */
const callName = (step: ReplyStep) =>
  step.server ? `${step.tool ?? 'a tool'} on ${step.server}` : (step.tool ?? 'a tool');

const seconds = (ms: number) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);

/** What a tool call did, in the words of its state. */
export function toolStepText(step: ReplyStep): string {
  const name = callName(step);
  const reason = step.error ? `: ${step.error}` : '';
  switch (step.status) {
    case 'running':
      return `Calling ${name}`;
    case 'done':
      return `Called ${name}${step.durationMs === undefined ? '' : ` · ${seconds(step.durationMs)}`}`;
    case 'awaiting_approval':
      return `${name} wants to run`;
    // Their reasons already say the tool did not run.
    case 'denied':
      return step.error ? `${name}${reason}` : `Did not run ${name}: denied`;
    case 'skipped':
      return step.error ? `${name}${reason}` : `Skipped ${name}`;
    default:
      return `${name} failed${reason}`;
  }
}

const ICONS = {
  running: LoaderCircle,
  done: Check,
  failed: AlertCircle,
  awaiting_approval: ShieldQuestion,
  denied: Ban,
  skipped: Ban,
} as const;

/** A short, monospace block of text that opens on demand (arguments, result). */
function Detail({ label, text, open }: { label: string; text: string; open?: boolean }) {
  return (
    <details className="min-w-0" open={open}>
      <summary className="cursor-pointer rounded-sm hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
        {label}
      </summary>
      <pre className="mt-0.5 max-h-40 overflow-auto rounded-md bg-muted px-2 py-1 font-mono text-[0.6875rem] whitespace-pre-wrap [overflow-wrap:anywhere]">
        {text}
      </pre>
    </details>
  );
}

/** Approve or Deny for a call waiting in the reply; the reply's stream brings what came of it. */
function ApprovalPrompt({ conversationId, step }: { conversationId: number; step: ReplyStep & { callId: string } }) {
  const approval = useToolApproval();
  const [always, setAlways] = useState(false);
  const alwaysId = useId();
  const name = callName(step);
  const answer = (decision: 'approve' | 'deny') =>
    approval.mutate({ conversationId, callId: step.callId, decision, always: always || undefined });
  const failure =
    approval.error instanceof ApiError
      ? (serverMessage(approval.error) ?? 'The answer could not be sent.')
      : approval.error && 'Could not reach the server. Try again.';
  return (
    <div role="group" aria-label={`Run ${name}?`} className="mt-1.5 flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <Button size="sm" onClick={() => answer('approve')} disabled={approval.isPending || approval.isSuccess}>
          Approve
        </Button>
        <Button
          size="sm"
          variant="outline"
          onClick={() => answer('deny')}
          disabled={approval.isPending || approval.isSuccess}
        >
          Deny
        </Button>
        <span className="flex items-center gap-2">
          <Checkbox
            id={alwaysId}
            checked={always}
            onCheckedChange={(checked) => setAlways(checked === true)}
            disabled={approval.isPending || approval.isSuccess}
          />
          <label htmlFor={alwaysId} className="text-xs text-foreground">
            Always for this chat
          </label>
        </span>
      </div>
      {failure && (
        <p role="alert" className="text-xs text-error">
          {failure}
        </p>
      )}
    </div>
  );
}

/**
 * A call of an MCP server's tool: its name and server, its arguments and a short result (both open on demand),
 * the time it took; a call waiting for the person shows Approve and Deny when `conversationId` is given (not in
 * read-only views).
 */
export function ToolStep({ step, conversationId }: { step: ReplyStep; conversationId?: number }) {
  const Icon = ICONS[step.status];
  const waiting = step.status === 'awaiting_approval';
  const stopped = step.status === 'denied' || step.status === 'skipped';
  return (
    <div className={`flex min-w-0 items-start gap-2 ${step.status === 'failed' ? 'text-error' : ''}`}>
      <span className="mt-0.5 flex size-3.5 shrink-0 items-center justify-center">
        <Icon
          className={`size-3.5 ${step.status === 'running' ? 'motion-safe:animate-spin' : ''}`}
          aria-hidden="true"
        />
      </span>
      <Wrench className="mt-0.5 size-3.5 shrink-0 opacity-70" aria-hidden="true" />
      <div className="flex min-w-0 flex-1 flex-col gap-0.5">
        <span
          className={`[overflow-wrap:anywhere] ${waiting ? 'font-medium text-foreground' : ''} ${stopped ? 'italic' : ''}`}
        >
          {toolStepText(step)}
        </span>
        {/* Open while the call waits: the arguments are what the person decides on. */}
        {step.input && <Detail label="Arguments" text={step.input} open={waiting || undefined} />}
        {/* A call that did not run has no result; what the model was told of it is not for the person. */}
        {step.result && !stopped && <Detail label="Result" text={step.result} />}
        {waiting && step.callId && conversationId !== undefined && (
          <ApprovalPrompt conversationId={conversationId} step={{ ...step, callId: step.callId }} />
        )}
      </div>
    </div>
  );
}
