import type { Bot } from '@shared/contracts/bots';
import type { WidgetAppearance } from '@shared/contracts/widget';
import { escapeHtml } from '../../lib/html';

/** The widget page's script, built next to the client (vite.config.ts). */
export const WIDGET_SCRIPT = '/embed-widget.js';

/**
 * The policy of the widget page: what the app's own pages allow, except that the page may be framed by the
 * sites its owner listed, and by nothing else.
 */
export function widgetPagePolicy(frameAncestors: string[]): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors.length ? frameAncestors.join(' ') : "'none'"}`,
  ].join('; ');
}

const page = (title: string, body: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
</head>
<body>
${body}
</body>
</html>
`;

/**
 * The chat, drawn by the widget script from what these attributes say of the bot and of its owner's choices for
 * the widget (an empty title or greeting: the bot's own, as in the app).
 */
export function widgetPage(
  bot: Pick<Bot, 'id' | 'name' | 'description' | 'config'>,
  origin: string,
  look: WidgetAppearance,
) {
  const data = {
    'bot-id': String(bot.id),
    origin,
    name: bot.name,
    title: look.title || bot.name,
    description: bot.description,
    greeting: look.greeting || bot.config.greeting || '',
    color: look.color,
    starters: JSON.stringify(look.starters),
  };
  const attributes = Object.entries(data)
    .map(([key, value]) => `data-${key}="${escapeHtml(value)}"`)
    .join(' ');
  return page(
    `Chat with ${bot.name}`,
    `<div id="botty-widget" ${attributes}></div>\n<script src="${WIDGET_SCRIPT}"></script>`,
  );
}

/** What a site that may not embed the bot shows in its frame; it names no bot. */
export const refusalPage = (message: string) =>
  page(
    'Chat not available',
    `<p style="font:15px/1.5 system-ui,sans-serif;color:#3f3f46;margin:0;padding:24px;text-align:center">${escapeHtml(message)}</p>`,
  );
