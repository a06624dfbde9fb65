import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { initialWizardState, wizardStateFromBot } from '../model/wizard';
import { idParamSchema } from '@shared/contracts/common';
import { botQueryOptions } from '@/entities/bot/api/get-bot';
import { PageSpinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { useAuth } from '@/lib/auth';
import { draftStorageKey, readStoredWizard } from '../hooks/use-wizard';
import { BotWizard } from './bot-wizard';

/** /create-bot creates a bot; /create-bot?edit={id} walks the same wizard over an existing one. */
export function CreateBotPage() {
  const [params] = useSearchParams();
  const edit = params.get('edit');
  return edit === null ? <NewBot /> : <EditBot key={edit} idText={edit} />;
}

function NewBot() {
  const { user } = useAuth();
  const storageKey = user ? draftStorageKey(user.id) : null;
  return (
    <BotWizard
      key={storageKey}
      title="Create a New Botty"
      initial={storageKey ? readStoredWizard(storageKey) : initialWizardState()}
      storageKey={storageKey}
      botId={null}
    />
  );
}

export function EditBot({ idText }: { idText: string }) {
  const navigate = useNavigate();
  const parsed = idParamSchema.safeParse(idText);
  const id = parsed.success ? parsed.data : undefined;
  // Always fetched afresh: editing must start from what is saved now, not from an older cached copy.
  const bot = useQuery({ ...botQueryOptions(id ?? 0), enabled: id !== undefined, refetchOnMount: 'always' });
  const failed = id === undefined || bot.isError;

  useEffect(() => {
    if (!failed) return;
    toast({ variant: 'destructive', title: 'Failed to fetch bot' });
    void navigate('/dashboard', { replace: true });
  }, [failed, navigate]);

  if (!bot.data || !bot.isFetchedAfterMount) return <PageSpinner />;
  return (
    <BotWizard
      key={bot.data.id}
      title={`Edit ${bot.data.name}`}
      initial={wizardStateFromBot(bot.data)}
      storageKey={null}
      botId={bot.data.id}
    />
  );
}
