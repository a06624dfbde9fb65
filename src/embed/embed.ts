/**
 * The loader a site pastes (issue 12 part 5, docs/decisions/0018):
 *   <script src="https://botty.example.com/embed.js" data-bot="12" async></script>
 * It asks Botty whether this site may show the bot's chat and how it looks (the owner's colour, title and
 * corner); if so it adds a chat bubble that opens the bot's widget page, served by Botty, in a frame. It runs on
 * someone else's page: its elements live in a shadow root of their own (decision 0028), so the page's CSS
 * cannot reach them and theirs cannot reach the page. Built as one classic script (an IIFE), its imports inlined.
 */
import { keptVisitorKey, textColorOn } from '@shared/chat/widget-protocol';
import type { WidgetConfig } from '@shared/contracts/widget';

const script = document.currentScript as HTMLScriptElement | null;
const botId = script?.dataset.bot ?? '';

const SVG = 'http://www.w3.org/2000/svg';
/** A speech bubble, and a cross for "close" (lucide's message-circle and x). */
const ICONS = {
  chat: 'M7.9 20A9 9 0 1 0 4 16.1L2 22Z',
  close: 'M18 6 6 18M6 6l12 12',
};

function icon(path: string) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  const p = document.createElementNS(SVG, 'path');
  p.setAttribute('d', path);
  svg.append(p);
  return svg;
}

/**
 * `all: initial !important` on the host: a shadow tree's important declarations win over the page's, even its
 * own !important ones, so neither the page's rules nor inherited fonts and colours reach in.
 */
const styles = (c: WidgetConfig) => {
  const side = c.position;
  return `
:host{all:initial!important;display:contents!important}
*{box-sizing:border-box}
button{position:fixed;${side}:${c.offsetX}px;bottom:${c.offsetY}px;z-index:2147483000;width:56px;height:56px;margin:0;border:0;border-radius:50%;padding:0;display:grid;place-items:center;cursor:pointer;color:${textColorOn(c.color)};background:${c.color};box-shadow:0 6px 20px rgba(0,0,0,.25)}
button:focus-visible{outline:3px solid ${c.color};outline-offset:3px}
svg{display:block;width:26px;height:26px;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round}
.panel{position:fixed;${side}:${c.offsetX}px;bottom:${c.offsetY + 68}px;z-index:2147483000;width:min(380px,calc(100vw - ${c.offsetX + 12}px));height:min(600px,calc(100vh - ${c.offsetY + 88}px));margin:0;padding:0;border-radius:16px;overflow:hidden;background:#fff;box-shadow:0 12px 40px rgba(0,0,0,.3)}
.panel[hidden]{display:none}
@media (prefers-color-scheme:dark){.panel{background:#18181b}}
iframe{display:block;width:100%;height:100%;border:0;margin:0}
`;
};

function mount(host: string, config: WidgetConfig) {
  const root = document.createElement('botty-chat');
  // Open, so assistive-technology checkers and tests can look in; it hides nothing the page could not see anyway.
  const shadow = root.attachShadow({ mode: 'open' });
  // A constructed sheet: a strict style-src on the host page blocks <style> and style attributes, not this.
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(styles(config));
  shadow.adoptedStyleSheets = [sheet];

  const button = document.createElement('button');
  button.type = 'button';
  button.setAttribute('aria-expanded', 'false');
  button.setAttribute('aria-controls', 'panel');

  const panel = document.createElement('div');
  panel.id = 'panel';
  panel.className = 'panel';
  panel.hidden = true;

  let frame: HTMLIFrameElement | null = null;
  const show = (open: boolean) => {
    panel.hidden = !open;
    button.setAttribute('aria-expanded', String(open));
    button.setAttribute('aria-label', open ? `Close chat with ${config.title}` : `Open chat with ${config.title}`);
    button.replaceChildren(icon(open ? ICONS.close : ICONS.chat));
  };
  const open = () => {
    if (!frame) {
      frame = document.createElement('iframe');
      // The page's own origin, which the widget page's frame-ancestors then holds the frame to (decision 0018).
      // The visitor's key rides in the fragment, which never reaches a server or a log.
      const visitor = keptVisitorKey(() => localStorage, `botty-visitor:${host}:${botId}`);
      frame.src = `${host}/embed/${encodeURIComponent(botId)}?origin=${encodeURIComponent(location.origin)}#visitor=${visitor}`;
      frame.title = 'Chat';
      panel.append(frame);
    }
    show(true);
    frame.focus();
  };
  const close = () => {
    if (panel.hidden) return;
    show(false);
    button.focus();
  };

  show(false);
  button.addEventListener('click', () => (panel.hidden ? open() : close()));
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') close();
  });
  // The widget's own close button and Escape key, from inside the frame.
  window.addEventListener('message', (event) => {
    if (event.origin === host && event.source === frame?.contentWindow && event.data === 'botty:close') close();
  });
  shadow.append(panel, button);
  document.body.append(root);
}

/** Draws the bubble only where the chat would answer; anywhere else, nothing but one line for the site's developer. */
async function start(host: string) {
  let config: WidgetConfig;
  try {
    const res = await fetch(`${host}/api/widget/${botId}/config`, { credentials: 'omit' });
    if (!res.ok) {
      const reason = ((await res.json().catch(() => ({}))) as { message?: string }).message;
      console.warn(
        `Botty: no chat bubble for bot ${botId} on ${location.origin}: ${reason ?? `error ${res.status}`} ` +
          '(its owner shares it by link or publicly and lists this site on the bot’s Widget page).',
      );
      return;
    }
    config = (await res.json()) as WidgetConfig;
  } catch {
    console.warn(`Botty: no chat bubble for bot ${botId}: ${host} could not be reached.`);
    return;
  }
  if (document.body) mount(host, config);
  else document.addEventListener('DOMContentLoaded', () => mount(host, config));
}

if (!script || !/^\d+$/.test(botId)) {
  console.warn('Botty: the embed script needs data-bot="{bot id}", as the bot page’s snippet shows.');
} else {
  void start(new URL(script.src).origin);
}
