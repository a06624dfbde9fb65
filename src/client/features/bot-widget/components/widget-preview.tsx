import { MessageCircle, X } from 'lucide-react';
import { textColorOn } from '@shared/chat/widget-protocol';
import type { WidgetAppearance } from '@shared/contracts/widget';

interface WidgetPreviewProps {
  look: WidgetAppearance;
  /** The title and greeting the widget shows (the bot's own where the owner left them empty). */
  title: string;
  greeting: string;
}

const HEX = /^#[0-9a-f]{6}$/i;

/**
 * The open widget as a visitor sees it on a page, drawn from the unsaved choices as they are typed: the corner
 * and offsets (halved, to fit), the colour, title, greeting and starters. A picture: nothing in it is a control.
 */
export function WidgetPreview({ look, title, greeting }: WidgetPreviewProps) {
  const color = HEX.test(look.color) ? look.color : '#6d28d9';
  const onColor = textColorOn(color);
  const side = look.position === 'left' ? 'left' : 'right';
  const x = Math.min(Math.max(Number(look.offsetX) || 0, 0), 200) / 2;
  const y = Math.min(Math.max(Number(look.offsetY) || 0, 0), 200) / 2;
  return (
    <figure aria-label="Live preview" className="grid content-start gap-2 lg:sticky lg:top-20 lg:self-start">
      <figcaption className="text-sm font-medium">Live preview</figcaption>
      <div
        data-testid="widget-preview"
        className="relative h-[440px] overflow-hidden rounded-lg border bg-[repeating-linear-gradient(0deg,transparent_0_22px,rgba(127,127,127,.12)_22px_24px)]"
      >
        <div
          data-testid="preview-panel"
          className="absolute flex h-[350px] w-[min(300px,calc(100%-24px))] flex-col overflow-hidden rounded-2xl border bg-white text-[13px] text-zinc-900 shadow-xl dark:bg-zinc-900 dark:text-zinc-50"
          style={{ [side]: Math.max(x, 8), bottom: y + 60 }}
        >
          <div className="flex items-center gap-2 px-3 py-2.5" style={{ background: color, color: onColor }}>
            <span className="min-w-0 flex-1 truncate text-sm font-semibold">{title}</span>
            <X aria-hidden="true" className="size-4" />
          </div>
          <div className="flex flex-1 flex-col gap-2 overflow-hidden bg-zinc-50 p-3 dark:bg-zinc-950">
            <p className="max-w-[85%] self-start rounded-2xl border bg-white px-3 py-1.5 whitespace-pre-wrap dark:bg-zinc-900">
              {greeting}
            </p>
            {look.starters.length > 0 && (
              <ul aria-label="Preview starter questions" className="flex flex-wrap gap-1.5">
                {look.starters.map((starter, i) => (
                  <li key={i} className="rounded-full border px-2.5 py-1" style={{ borderColor: color }}>
                    {starter}
                  </li>
                ))}
              </ul>
            )}
          </div>
          <div className="flex gap-2 border-t p-2">
            <span className="flex-1 rounded-md border px-2 py-1.5 text-zinc-500 dark:text-zinc-400">Message…</span>
            <span className="rounded-md px-3 py-1.5 font-semibold" style={{ background: color, color: onColor }}>
              Send
            </span>
          </div>
        </div>
        <span
          data-testid="preview-launcher"
          className="absolute grid size-11 place-items-center rounded-full shadow-lg"
          style={{ [side]: x, bottom: y, background: color, color: onColor }}
        >
          <MessageCircle aria-hidden="true" className="size-5" />
        </span>
      </div>
    </figure>
  );
}
