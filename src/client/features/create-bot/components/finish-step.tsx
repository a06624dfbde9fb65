import { LoaderCircle, Rocket, Save } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { useNavigate } from 'react-router';
import { BOT_SETTINGS, CUSTOMIZE_KEYS, settingSummary } from '@shared/bots/bot-settings';
import { CAPABILITY_INFO } from '@shared/bots/capabilities';
import { tidyDescription } from '@shared/bots/description';
import { purposeLabel } from '@shared/bots/purposes';
import { botFieldsOf, capabilitiesOf, customizationOf, type WizardStep } from '../model/wizard';
import type { Bot } from '@shared/contracts/bots';
import { useCreateBot } from '@/entities/bot/api/create-bot';
import { useUpdateBot } from '@/entities/bot/api/update-bot';
import { BotIcon } from '@/entities/bot/ui/bot-icon';
import { useBotFiles } from '@/entities/file/api/get-bot-files';
import { useModels } from '@/entities/model/api/get-models';
import { modelChoiceLabel } from '@/entities/model/model/model-choice';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { useAuth } from '@/lib/auth';
import { ApiError } from '@/lib/request';
import type { Knowledge } from '../hooks/use-knowledge';
import type { Wizard } from '../hooks/use-wizard';
import { hasKnowledgeFiles, KnowledgeFiles } from './knowledge-files';
import { StepFooter } from './step-footer';

/** Spec §9: the pause before the redirect after creation. */
const DELAY_AFTER_CREATE_MS = 300;

const NOT_SIGNED_IN = 'You must be logged in to create a bot';
const PROMPT_EXCERPT_LENGTH = 280;

/** A 401 means the session ended while the wizard was open, which the user can fix by signing in again. */
function failed(title: string, error?: unknown) {
  const signedOut = !error || (error instanceof ApiError && error.status === 401);
  toast({
    variant: 'destructive',
    title,
    description: signedOut ? NOT_SIGNED_IN : 'Something went wrong. Please try again.',
  });
}

const SUBMIT_LABELS = {
  create: { idle: 'Create Botty', busy: 'Creating...', icon: Rocket },
  edit: { idle: 'Save Changes', busy: 'Saving...', icon: Save },
} as const;

interface FinishStepProps {
  wizard: Wizard;
  knowledge: Knowledge;
  botId: number | null;
}

/**
 * Step 4: everything at a glance, then create (POST) or, when editing, save (PATCH). Knowledge files chosen
 * while creating are uploaded right after the bot is created, with their progress here; the page is left once
 * they are all in (they are read on the server afterwards).
 */
export function FinishStep({ wizard, knowledge, botId }: FinishStepProps) {
  const { draft, exampleQueries, testNotes } = wizard.state;
  const { user } = useAuth();
  const navigate = useNavigate();
  const create = useCreateBot();
  const update = useUpdateBot();
  const editing = botId !== null;
  const [createdBot, setCreatedBot] = useState<Bot | null>(null);
  /** Some files chosen while creating did not upload: the user reads which, then leaves. */
  const [uploadsFailed, setUploadsFailed] = useState(false);
  // Once created, the files uploaded after it show here with their status until the page is left.
  const files = useBotFiles(botId ?? createdBot?.id ?? null);
  const models = useModels();
  // Stays busy through the uploads and the short pause before leaving, so nothing can be sent twice.
  const busy = create.isPending || create.isSuccess || update.isPending || update.isSuccess || knowledge.uploading;
  const submitLabel = SUBMIT_LABELS[editing ? 'edit' : 'create'];
  const SubmitIcon = busy ? LoaderCircle : submitLabel.icon;
  const busyLabel = knowledge.uploading ? 'Uploading files...' : submitLabel.busy;
  const settings = customizationOf(draft);
  const prompt = draft.config.systemPrompt ?? '';
  const capabilities = capabilitiesOf(draft);

  const created = async (bot: Bot) => {
    wizard.discard();
    setCreatedBot(bot);
    const { failed } = await knowledge.uploadPending(bot.id);
    if (failed > 0) {
      setUploadsFailed(true);
      return;
    }
    toast({ title: 'Success!', description: `${bot.name} is ready to chat.` });
    setTimeout(() => void navigate('/'), DELAY_AFTER_CREATE_MS);
  };

  const submit = () => {
    // The example queries become the bot's test set and chat starters, with the user's notes on their answers.
    const fields = { ...botFieldsOf(draft), exampleQueries, testNotes };
    if (botId !== null) {
      update.mutate(
        { id: botId, changes: fields },
        {
          onSuccess: (bot) => {
            toast({ title: 'Botty updated', description: `Your changes to ${bot.name} are saved.` });
            void navigate('/dashboard');
          },
          onError: (error) => failed('Error saving changes', error),
        },
      );
      return;
    }
    if (!user) return failed('Error creating bot');
    create.mutate(
      { ...fields, active: true },
      { onSuccess: (bot) => void created(bot), onError: (error) => failed('Error creating bot', error) },
    );
  };

  return (
    <div className="grid gap-6">
      <div className="flex flex-col gap-4 rounded-xl border bg-muted/40 p-4 sm:flex-row sm:items-start sm:p-5">
        <BotIcon icon={draft.icon} size="lg" />
        <div className="grid min-w-0 gap-1.5">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="text-lg font-semibold break-words">{draft.name.trim()}</h3>
            <Badge variant="secondary">{purposeLabel(draft.purpose)}</Badge>
          </div>
          <p className="text-sm break-words whitespace-pre-line text-muted-foreground">
            {tidyDescription(draft.description)}
          </p>
        </div>
      </div>

      <ReviewSection title="Capabilities" step={1} onEdit={wizard.goTo} disabled={busy}>
        {capabilities.length > 0 ? (
          <ul className="flex flex-wrap gap-2">
            {capabilities.map((capability) => (
              <li key={capability}>
                <Badge variant="outline">{CAPABILITY_INFO[capability].label}</Badge>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">None chosen</p>
        )}
      </ReviewSection>

      <ReviewSection title="Customization" step={2} onEdit={wizard.goTo} disabled={busy}>
        <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
          {CUSTOMIZE_KEYS.map((key) => {
            // Tools are offered only with the Tools capability, so without it they are not listed either.
            if (key === 'tools' && !capabilities.includes('tools')) return null;
            // A model is named by its label, which only the model list knows.
            const summary =
              key === 'model' ? modelChoiceLabel(models.data, settings.model) : settingSummary(key, settings[key]);
            const { label, control } = BOT_SETTINGS[key];
            return (
              summary !== null && (
                <Setting key={key} term={label} wide={control.kind === 'text' || control.kind === 'tools'}>
                  {summary}
                </Setting>
              )
            );
          })}
        </dl>
      </ReviewSection>

      <ReviewSection title="Knowledge" step={2} onEdit={wizard.goTo} disabled={busy}>
        {hasKnowledgeFiles(knowledge, files.data ?? []) ? (
          <KnowledgeFiles knowledge={knowledge} saved={files.data ?? []} readOnly />
        ) : (
          <p className="text-sm text-muted-foreground">No files</p>
        )}
      </ReviewSection>

      <ReviewSection title="Training" step={3} onEdit={wizard.goTo} disabled={busy}>
        <dl className="grid gap-3 text-sm">
          <Setting term={BOT_SETTINGS.systemPrompt.label}>
            <span className="line-clamp-4 whitespace-pre-line">
              {prompt.length > PROMPT_EXCERPT_LENGTH ? `${prompt.slice(0, PROMPT_EXCERPT_LENGTH).trimEnd()}…` : prompt}
            </span>
          </Setting>
          <Setting term="Example queries">{exampleQueries.length}</Setting>
        </dl>
      </ReviewSection>

      {createdBot && uploadsFailed ? (
        <div role="alert" className="grid gap-3 rounded-lg border border-destructive/40 p-4 text-sm">
          <p>
            {`${createdBot.name} is created, but some files could not be added. You can add them again when you edit it.`}
          </p>
          <Button className="justify-self-end" onClick={() => void navigate('/')}>
            Continue
          </Button>
        </div>
      ) : (
        <StepFooter onBack={wizard.back} backDisabled={busy}>
          <Button onClick={submit} disabled={busy}>
            <SubmitIcon className={busy ? 'motion-safe:animate-spin' : undefined} aria-hidden="true" />
            {busy ? busyLabel : submitLabel.idle}
          </Button>
        </StepFooter>
      )}
    </div>
  );
}

interface ReviewSectionProps {
  title: string;
  step: WizardStep;
  onEdit: (step: WizardStep) => void;
  disabled: boolean;
  children: ReactNode;
}

function ReviewSection({ title, step, onEdit, disabled, children }: ReviewSectionProps) {
  return (
    <section className="grid gap-3 border-t pt-5">
      <div className="flex items-center justify-between gap-3">
        <h3 className="text-base font-semibold">{title}</h3>
        <Button
          variant="ghost"
          size="sm"
          onClick={() => onEdit(step)}
          disabled={disabled}
          aria-label={`Change ${title.toLowerCase()}`}
        >
          Change
        </Button>
      </div>
      {children}
    </section>
  );
}

function Setting({ term, wide = false, children }: { term: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={wide ? 'grid gap-0.5 sm:col-span-2' : 'grid gap-0.5'}>
      <dt className="text-muted-foreground">{term}</dt>
      <dd className="font-medium break-words">{children}</dd>
    </div>
  );
}
