import { useId, useState, type FormEvent } from 'react';
import type { Bot } from '@shared/contracts/bots';
import {
  WIDGET_GREETING_MAX,
  WIDGET_OFFSET_MAX,
  WIDGET_STARTERS_MAX,
  WIDGET_TITLE_MAX,
  type WidgetAppearance,
} from '@shared/contracts/widget';
import { greetingFor } from '@/entities/chat/model/greeting';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { RadioCard, RadioGroup } from '@/components/ui/radio-group';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { serverMessage } from '@/lib/request';
import { SaveRow } from './save-row';
import { useSaveWidgetAppearance, useWidgetAppearance } from '../api/widget';
import { WidgetPreview } from './widget-preview';

/** The form's fields as typed: offsets and starters stay text until saved. */
interface Draft {
  color: string;
  position: WidgetAppearance['position'];
  offsetX: string;
  offsetY: string;
  title: string;
  greeting: string;
  starters: string;
}

const draftOf = (a: WidgetAppearance): Draft => ({
  ...a,
  offsetX: String(a.offsetX),
  offsetY: String(a.offsetY),
  starters: a.starters.join('\n'),
});

const startersOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

const lookOf = (d: Draft): WidgetAppearance => ({
  ...d,
  offsetX: Number(d.offsetX),
  offsetY: Number(d.offsetY),
  starters: startersOf(d.starters),
});

/** The widget's colour, title, corner, greeting and starters, with a live preview (issue 21 item 21). */
export function WidgetAppearanceSection({ bot }: { bot: Bot }) {
  const appearance = useWidgetAppearance(bot.id);
  if (appearance.isError)
    return (
      <p role="alert" className="text-destructive">
        The widget&apos;s appearance could not be loaded.
      </p>
    );
  if (!appearance.data) return <Skeleton className="h-96" />;
  return <AppearanceForm bot={bot} saved={appearance.data} />;
}

function AppearanceForm({ bot, saved }: { bot: Bot; saved: WidgetAppearance }) {
  const id = useId();
  const [draft, setDraft] = useState(() => draftOf(saved));
  const save = useSaveWidgetAppearance(bot.id);
  const error = save.isError ? (serverMessage(save.error) ?? 'The appearance could not be saved.') : null;
  const edit = (changes: Partial<Draft>) => setDraft((d) => ({ ...d, ...changes }));
  const look = lookOf(draft);
  const botGreeting = bot.config.greeting || greetingFor({ name: bot.name, description: bot.description });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(look, {
      onSuccess: (next) => {
        setDraft(draftOf(next));
        toast({ title: 'Widget appearance saved' });
      },
    });
  };

  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_320px]">
      <form onSubmit={submit} className="grid content-start gap-4" noValidate aria-label="Widget appearance">
        <div className="grid gap-2">
          <Label htmlFor={`${id}-color`}>Colour</Label>
          <div className="flex items-center gap-2">
            <input
              type="color"
              aria-label="Pick a colour"
              value={/^#[0-9a-f]{6}$/i.test(draft.color) ? draft.color.toLowerCase() : '#6d28d9'}
              onChange={(event) => edit({ color: event.target.value })}
              className="h-11 w-14 cursor-pointer rounded-md border bg-background p-1"
            />
            <Input
              id={`${id}-color`}
              value={draft.color}
              onChange={(event) => edit({ color: event.target.value })}
              className="max-w-36 font-mono"
              aria-describedby={`${id}-color-hint`}
            />
          </div>
          <p id={`${id}-color-hint`} className="text-sm text-muted-foreground">
            Of the bubble, the header and the visitor&apos;s messages, as #rrggbb.
          </p>
        </div>
        <div className="grid gap-2">
          <Label htmlFor={`${id}-title`}>Title</Label>
          <Input
            id={`${id}-title`}
            value={draft.title}
            maxLength={WIDGET_TITLE_MAX}
            placeholder={bot.name}
            onChange={(event) => edit({ title: event.target.value })}
          />
        </div>
        <div className="grid gap-2">
          <span id={`${id}-position`} className="text-sm font-medium">
            Position
          </span>
          <RadioGroup
            aria-labelledby={`${id}-position`}
            value={draft.position}
            onValueChange={(value) => edit({ position: value === 'left' ? 'left' : 'right' })}
            className="grid-cols-2"
          >
            <RadioCard value="left">Bottom left</RadioCard>
            <RadioCard value="right">Bottom right</RadioCard>
          </RadioGroup>
        </div>
        <div className="grid grid-cols-2 gap-3">
          {(['offsetX', 'offsetY'] as const).map((field) => (
            <div key={field} className="grid gap-2">
              <Label htmlFor={`${id}-${field}`}>
                {field === 'offsetX' ? 'Distance from the side (px)' : 'Distance from the bottom (px)'}
              </Label>
              <Input
                id={`${id}-${field}`}
                type="number"
                inputMode="numeric"
                min={0}
                max={WIDGET_OFFSET_MAX}
                value={draft[field]}
                onChange={(event) => edit({ [field]: event.target.value })}
              />
            </div>
          ))}
        </div>
        <div className="grid gap-2">
          <Label htmlFor={`${id}-greeting`}>Greeting</Label>
          <Textarea
            id={`${id}-greeting`}
            value={draft.greeting}
            maxLength={WIDGET_GREETING_MAX}
            placeholder={botGreeting}
            onChange={(event) => edit({ greeting: event.target.value })}
            className="min-h-16"
          />
        </div>
        <div className="grid gap-2">
          <Label htmlFor={`${id}-starters`}>Starter questions</Label>
          <Textarea
            id={`${id}-starters`}
            value={draft.starters}
            onChange={(event) => edit({ starters: event.target.value })}
            aria-describedby={`${id}-starters-hint`}
            className="min-h-20"
          />
          <p id={`${id}-starters-hint`} className="text-sm text-muted-foreground">
            One per line, up to {WIDGET_STARTERS_MAX}: offered to visitors before they ask anything.
          </p>
        </div>
        <SaveRow error={error} pending={save.isPending} label="Save appearance" />
      </form>
      <WidgetPreview
        look={look}
        title={draft.title.trim() || bot.name}
        greeting={draft.greeting.trim() || botGreeting}
      />
    </div>
  );
}
