import { ArrowLeft, ChartLine, FlaskConical, History, RotateCcw } from 'lucide-react';
import { useState } from 'react';
import { useParams } from 'react-router';
import { PROMPT_KEYS } from '@shared/bots/bot-settings';
import type { BotSnapshot, BotVersionSummary } from '@shared/contracts/bot-versions';
import { useBot } from '@/entities/bot/api/get-bot';
import { PageContainer, PageHeader } from '@/components/page-header';
import { RelativeTime } from '@/components/relative-time';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { useBotVersion, useBotVersions, useRestoreVersion } from '../api/versions';
import { fieldLabel, settingChanges } from '../model/compare';
import { PromptDiff } from './prompt-diff';
import { TestSetPanel } from './test-set-panel';
import { LinkButton } from '@/components/link-button';

/**
 * A bot's version history (route /bots/:id/versions): every change to its prompt or settings, what changed,
 * and any earlier version compared with the current one, prompt text diff and settings, with Restore.
 */
export function VersionsPage() {
  const botId = Number(useParams().id);
  const bot = useBot(botId);
  const versions = useBotVersions(botId);
  const [picked, setPicked] = useState<number | null>(null);
  const list = versions.data ?? [];
  const current = list[0]?.number ?? null;
  // The version before the current one is the natural first comparison.
  const selected = picked ?? list[1]?.number ?? current;

  return (
    <PageContainer className="grid max-w-5xl gap-6">
      <PageHeader
        title={bot.data ? `Versions of ${bot.data.name}` : 'Versions'}
        description="Every change to the prompt or settings is a version. Compare one with the current version, test both, or restore it."
        actions={
          <div className="flex flex-wrap gap-2">
            <LinkButton to={`/create-bot?edit=${botId}`} icon={ArrowLeft}>
              Edit Botty
            </LinkButton>
            <LinkButton to={`/bots/${botId}/tests`} icon={FlaskConical}>
              Tests
            </LinkButton>
            <LinkButton to={`/bots/${botId}/insights`} icon={ChartLine}>
              Insights
            </LinkButton>
          </div>
        }
      />
      {versions.isError || bot.isError ? (
        <p role="alert" className="text-destructive">
          This botty's versions could not be loaded.
        </p>
      ) : !versions.data ? (
        <Skeleton className="h-64" />
      ) : (
        <div className="grid gap-6 md:grid-cols-[18rem_1fr] md:items-start">
          <VersionList versions={list} current={current} selected={selected} onSelect={setPicked} />
          {selected !== null && current !== null && (
            <div className="grid min-w-0 gap-6">
              <Comparison botId={botId} selected={selected} current={current} />
              <TestSetPanel botId={botId} selected={selected} current={current} />
            </div>
          )}
        </div>
      )}
    </PageContainer>
  );
}

interface VersionListProps {
  versions: BotVersionSummary[];
  current: number | null;
  selected: number | null;
  onSelect: (n: number) => void;
}

function VersionList({ versions, current, selected, onSelect }: VersionListProps) {
  return (
    <nav aria-label="Versions">
      <ol className="grid gap-2">
        {versions.map((v) => (
          <li key={v.number}>
            <button
              type="button"
              aria-pressed={v.number === selected}
              onClick={() => onSelect(v.number)}
              className="grid w-full gap-1 rounded-xl border p-3 text-left transition-colors hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none aria-pressed:border-primary aria-pressed:bg-accent"
            >
              <span className="flex flex-wrap items-center gap-2 font-medium">
                Version {v.number}
                {v.number === current && <Badge>Current</Badge>}
              </span>
              <span className="text-sm text-muted-foreground">{describeChange(v)}</span>
              <RelativeTime date={v.createdAt} className="text-xs text-muted-foreground" />
            </button>
          </li>
        ))}
      </ol>
    </nav>
  );
}

function describeChange(v: BotVersionSummary): string {
  if (v.restoredFrom !== null) return `Restored version ${v.restoredFrom}`;
  if (v.changed.length === 0) return 'Created';
  return `Changed: ${v.changed.map(fieldLabel).join(', ')}`;
}

function Comparison({ botId, selected, current }: { botId: number; selected: number; current: number }) {
  const older = useBotVersion(botId, selected);
  const latest = useBotVersion(botId, current);
  const restore = useRestoreVersion(botId);
  const isCurrent = selected === current;

  const onRestore = () =>
    restore.mutate(selected, {
      onSuccess: () => toast({ title: `Version ${selected} restored`, description: 'It is now the current version.' }),
      onError: () => toast({ variant: 'destructive', title: 'Restore failed', description: 'Please try again.' }),
    });

  return (
    <section aria-labelledby="comparison-title" className="grid gap-5 rounded-xl border p-4 sm:p-5">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <h2 id="comparison-title" className="flex items-center gap-2 text-lg font-semibold">
          <History className="size-5 text-primary" aria-hidden="true" />
          {isCurrent ? `Version ${selected} (current)` : `Version ${selected} compared with version ${current}`}
        </h2>
        {!isCurrent && (
          <Button onClick={onRestore} disabled={restore.isPending}>
            <RotateCcw aria-hidden="true" />
            Restore version {selected}
          </Button>
        )}
      </div>
      {!older.data || !latest.data ? (
        <Skeleton className="h-40" />
      ) : (
        <Differences before={older.data.snapshot} after={latest.data.snapshot} same={isCurrent} />
      )}
    </section>
  );
}

function Differences({ before, after, same }: { before: BotSnapshot; after: BotSnapshot; same: boolean }) {
  const settings = settingChanges(before, after);
  const prompts = PROMPT_KEYS.filter((field) =>
    same ? Boolean(after.config[field]) : (before.config[field] ?? '') !== (after.config[field] ?? ''),
  );
  if (!same && settings.length === 0 && prompts.length === 0) {
    return (
      <p className="text-sm text-muted-foreground">This version has the same prompt and settings as the current one.</p>
    );
  }
  return (
    <div className="grid gap-5">
      {prompts.map((field) => (
        <PromptDiff
          key={field}
          title={fieldLabel(field)}
          before={before.config[field] ?? ''}
          after={after.config[field] ?? ''}
        />
      ))}
      {settings.length > 0 && (
        <div className="grid gap-2">
          <h3 className="text-sm font-semibold">Settings that differ</h3>
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead className="text-muted-foreground">
                <tr>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    Setting
                  </th>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    This version
                  </th>
                  <th scope="col" className="py-1 font-medium">
                    Current
                  </th>
                </tr>
              </thead>
              <tbody>
                {settings.map((change) => (
                  <tr key={change.field} className="border-t align-top">
                    <th scope="row" className="py-2 pr-3 font-medium">
                      {change.label}
                    </th>
                    <td className="py-2 pr-3 break-words">{change.before}</td>
                    <td className="py-2 break-words">{change.after}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </div>
  );
}
