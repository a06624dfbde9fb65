/**
 * The loader a site pastes (issue 12 part 5, docs/decisions/0018):
 *   <script src="https://botty.example.com/embed.js" data-bot="12" async></script>
 * It adds a chat bubble to the page and opens the bot's widget page, served by Botty, in a frame. It runs on
 * someone else's page, so it touches nothing there but its own two elements, and is built as one classic script
 * (an IIFE), its imports inlined.
 */
import { keptVisitorKey } from '@shared/chat/widget-protocol';

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
  svg.setAttribute('width', '26');
  svg.setAttribute('height', '26');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('fill', 'none');
  svg.setAttribute('stroke', 'currentColor');
  svg.setAttribute('stroke-width', '2');
  svg.setAttribute('stroke-linecap', 'round');
  svg.setAttribute('stroke-linejoin', 'round');
  const p = document.createElementNS(SVG, 'path');
  p.setAttribute('d', path);
  svg.append(p);
  return svg;
}

function mount(host: string) {
  const panelId = `botty-chat-${botId}`;
  const button = document.createElement('button');
  button.type = 'button';
  button.setAttribute('aria-expanded', 'false');
  button.setAttribute('aria-controls', panelId);
  // Styles set property by property: a strict style-src on the host page blocks style attributes in markup, not these.
  Object.assign(button.style, {
    position: 'fixed',
    right: '20px',
    bottom: '20px',
    zIndex: '2147483000',
    width: '56px',
    height: '56px',
    borderRadius: '50%',
    border: '0',
    padding: '0',
    display: 'grid',
    placeItems: 'center',
    cursor: 'pointer',
    color: '#fff',
    background: '#6d28d9',
    boxShadow: '0 6px 20px rgba(0,0,0,.25)',
  });

  const panel = document.createElement('div');
  panel.id = panelId;
  panel.hidden = true;
  Object.assign(panel.style, {
    position: 'fixed',
    right: '12px',
    bottom: '88px',
    zIndex: '2147483000',
    width: 'min(380px, calc(100vw - 24px))',
    height: 'min(600px, calc(100vh - 108px))',
    borderRadius: '16px',
    overflow: 'hidden',
    background: '#fff',
    boxShadow: '0 12px 40px rgba(0,0,0,.3)',
  });

  let frame: HTMLIFrameElement | null = null;
  const show = (open: boolean) => {
    panel.hidden = !open;
    button.setAttribute('aria-expanded', String(open));
    button.setAttribute('aria-label', open ? 'Close chat' : 'Open chat');
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
      Object.assign(frame.style, { border: '0', width: '100%', height: '100%', display: 'block' });
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
  document.body.append(panel, button);
}

if (!script || !/^\d+$/.test(botId)) {
  console.warn('Botty: the embed script needs data-bot="{bot id}", as the bot page’s snippet shows.');
} else {
  const host = new URL(script.src).origin;
  if (document.body) mount(host);
  else document.addEventListener('DOMContentLoaded', () => mount(host));
}
