/**
 * The widget page's script (GET /embed/{botId}, framed by embed.js on a site its owner listed): the bot's
 * greeting, the visitor's conversation, an input and the streamed reply. Plain DOM, so the page stays a few
 * KB where the app's React client is hundreds.
 */
import {
  awaitsSupport,
  splitSources,
  SUPPORT_METHOD_LABELS,
  SUPPORT_REFETCH_DELAYS_MS,
  supportSummary,
  unsupportedEnds,
} from '@shared/chat/cited-sources';
import { createSseParser } from '@shared/chat/sse';
import {
  EMBED_ORIGIN_HEADER,
  keptVisitorKey,
  textColorOn,
  VISITOR_KEY_HEADER,
  VISITOR_KEY_PATTERN,
} from '@shared/chat/widget-protocol';
import type { WidgetMessage, WidgetSource, WidgetStreamEvent } from '@shared/contracts/widget';
import { greetingFor } from '@/entities/chat/model/greeting';
import { isWebUrl, siteOf } from '@/entities/chat/model/source-link';
import { renderText } from './render-text';
import { WIDGET_STYLES } from './widget-styles';

const root = document.getElementById('botty-widget')!;
const { botId = '', origin = '', name = 'Botty', description = '', greeting = '' } = root.dataset;
const { title: heading = name, color = '#6d28d9', starters: startersJson = '[]' } = root.dataset;
const starters = JSON.parse(startersJson) as string[];
root.style.setProperty('--accent', color);
root.style.setProperty('--on-accent', textColorOn(color));

const NETWORK_ERROR = 'Could not reach the chat. Check your connection and try again.';
/**
 * The visitor's key: the one embed.js keeps in the embedding site's own storage and passes in the fragment
 * (browsers that block storage in third-party frames keep it there), else one kept in this frame's storage.
 */
const fromHost = new URLSearchParams(location.hash.slice(1)).get('visitor');
const visitorKey =
  fromHost && VISITOR_KEY_PATTERN.test(fromHost) ? fromHost : keptVisitorKey(() => localStorage, 'botty-visitor-key');

const headers = { [EMBED_ORIGIN_HEADER]: origin, [VISITOR_KEY_HEADER]: visitorKey };

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

const style = el('style');
style.textContent = WIDGET_STYLES;
document.head.append(style);

const header = el('header');
const title = el('h1', undefined, heading);
const closeButton = el('button', 'close', '×');
closeButton.type = 'button';
closeButton.setAttribute('aria-label', 'Close chat');
header.append(title, closeButton);

const log = el('div', 'log');
log.setAttribute('role', 'log');
log.setAttribute('aria-live', 'polite');
log.setAttribute('aria-label', `Conversation with ${name}`);

const alertLine = el('p', 'alert');
alertLine.setAttribute('role', 'alert');
alertLine.hidden = true;

const form = el('form');
const input = el('textarea');
input.rows = 1;
input.placeholder = `Message ${name}…`;
input.setAttribute('aria-label', `Message ${name}`);
input.maxLength = 4000;
const send = el('button', 'send', 'Send');
send.type = 'submit';
form.append(input, send);
root.append(header, log, alertLine, form);

/** Under a reply: the numbered sources its [n] markers point to; web pages open in a new tab. */
function sourcesList(sources: readonly WidgetSource[], label: string) {
  const list = el('ol', 'sources');
  list.setAttribute('aria-label', label);
  for (const source of sources) {
    const item = el('li');
    item.append(el('span', 'n', `[${source.n}] `));
    // A web page, or a tool's resource that has an address; a file passage has none.
    const url = source.kind === 'file' ? undefined : source.url;
    if (isWebUrl(url)) {
      const link = el('a', undefined, source.title || siteOf(url));
      link.href = url;
      link.target = '_blank';
      link.rel = 'noopener noreferrer nofollow';
      item.append(link);
    } else item.append(source.page ? `${source.title}, page ${source.page}` : source.title);
    list.append(item);
  }
  return list;
}

/**
 * A message's text; under a reply, the sources it cites, the others it only consulted behind a disclosure, and
 * how many of its sentences its sources support once it was checked (decision 0044).
 */
function contentOf(text: string, sources: readonly WidgetSource[] = [], support?: WidgetMessage['support']) {
  const note = support ? unsupportedNote(support.method) : undefined;
  const content = renderText(text, support && note ? { ends: unsupportedEnds(support), create: note.mark } : undefined);
  if (note?.used) content.append(note.element);
  if (!sources.length) return content;
  const { cited, consulted } = splitSources(text, sources, support);
  if (cited.length) content.append(sourcesList(cited, 'Sources'));
  if (consulted.length) {
    const more = el('details', 'consulted');
    more.append(
      el('summary', undefined, `Also consulted (${consulted.length})`),
      sourcesList(consulted, 'Also consulted'),
    );
    content.append(more);
  }
  const summary = support && supportSummary(support);
  if (summary) content.append(el('p', 'support', `${summary} · ${SUPPORT_METHOD_LABELS[support.method]}`));
  return content;
}

const UNSUPPORTED_LABEL = 'No source supports this sentence';
let noteCount = 0;

/**
 * The quiet "?" after each sentence no source supports (decision 0044, as in the chat): pressing one shows, under
 * the text, that the sentence may still be right and how it was checked; pressing it again hides that.
 */
function unsupportedNote(method: NonNullable<WidgetMessage['support']>['method']) {
  const element = el(
    'p',
    'unsupported-note',
    `${UNSUPPORTED_LABEL}. It may still be right, but none of the sources listed says it. ${SUPPORT_METHOD_LABELS[method]}.`,
  );
  element.id = `unsupported-${(noteCount += 1)}`;
  element.hidden = true;
  const note = {
    element,
    used: false,
    mark() {
      note.used = true;
      const button = el('button', 'unsupported', '?');
      button.type = 'button';
      button.setAttribute('aria-label', UNSUPPORTED_LABEL);
      button.setAttribute('aria-controls', element.id);
      button.setAttribute('aria-expanded', 'false');
      button.addEventListener('click', () => {
        element.hidden = !element.hidden;
        for (const other of document.querySelectorAll(`[aria-controls="${element.id}"]`)) {
          other.setAttribute('aria-expanded', String(!element.hidden));
        }
      });
      return button;
    },
  };
  return note;
}

function bubble(
  role: 'user' | 'assistant',
  text: string,
  sources?: readonly WidgetSource[],
  support?: WidgetMessage['support'],
) {
  const node = el('div', `msg ${role}`);
  node.append(contentOf(text, sources, support));
  log.append(node);
  log.scrollTop = log.scrollHeight;
  return node;
}

function showAlert(message: string | null) {
  alertLine.textContent = message ?? '';
  alertLine.hidden = !message;
}

/** The server's own sentence for a refusal (cap reached, too many questions, not available), else a generic one. */
async function errorOf(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { message?: string };
    if (body.message) return body.message;
  } catch {
    // Not JSON: falls through.
  }
  return `The chat could not answer (error ${res.status}). Please try again later.`;
}

const api = (path: string, init: RequestInit = {}) =>
  fetch(`/api/widget/${botId}${path}`, { ...init, headers: { ...headers, ...init.headers } });

/** The owner's starter questions, offered until the visitor asks something. */
const starterList = el('ul', 'starters');
starterList.setAttribute('aria-label', 'Suggested questions');
for (const starter of starters) {
  const button = el('button', undefined, starter);
  button.type = 'button';
  button.addEventListener('click', () => {
    if (!busy) void ask(starter);
  });
  starterList.append(el('li'));
  starterList.lastElementChild!.append(button);
}

async function loadConversation() {
  bubble('assistant', greeting.trim() || greetingFor({ name, description }));
  try {
    const res = await api('/messages');
    if (!res.ok) return showAlert(await errorOf(res));
    const { messages } = (await res.json()) as { messages: WidgetMessage[] };
    for (const m of messages) if (m.content) bubble(m.role, m.content, m.sources, m.support);
    if (!messages.length && starters.length) log.append(starterList);
  } catch {
    showAlert(NETWORK_ERROR);
  }
}

let busy = false;
function setBusy(value: boolean) {
  busy = value;
  send.disabled = value;
  log.setAttribute('aria-busy', String(value));
}

async function ask(content: string) {
  setBusy(true);
  showAlert(null);
  starterList.remove();
  bubble('user', content);
  const reply = bubble('assistant', '');
  reply.classList.add('pending');
  let text = '';
  let sources: readonly WidgetSource[] = [];
  let saved: WidgetMessage | null = null;
  let frame = 0;
  const draw = () => {
    frame = 0;
    reply.replaceChildren(contentOf(text, sources));
    log.scrollTop = log.scrollHeight;
  };
  try {
    const res = await api('/replies', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content }),
    });
    if (!res.ok || !res.body) {
      reply.remove();
      return showAlert(await errorOf(res));
    }
    const parser = createSseParser();
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      for (const { event, data } of parser.push(chunk.value)) {
        const received = { event, data: JSON.parse(data) } as WidgetStreamEvent;
        if (received.event === 'delta') {
          text += received.data.text;
          frame ||= requestAnimationFrame(draw);
        } else if (received.event === 'sources') {
          sources = received.data.sources;
        } else if (received.event === 'done') {
          text = received.data?.content ?? text;
          sources = received.data?.sources ?? sources;
          saved = received.data;
        } else if (received.event === 'error') {
          showAlert(received.data.message);
        }
      }
    }
  } catch {
    showAlert(NETWORK_ERROR);
  } finally {
    cancelAnimationFrame(frame);
    reply.classList.remove('pending');
    if (text) draw();
    else reply.remove();
    setBusy(false);
  }
  if (saved && awaitsSupport(saved)) void followSupport(reply, saved.id);
}

/** Fetches the conversation again until the reply's support check has come, and shows it. */
async function followSupport(node: HTMLElement, id: number) {
  for (const wait of SUPPORT_REFETCH_DELAYS_MS) {
    await new Promise((resolve) => setTimeout(resolve, wait));
    const res = await api('/messages').catch(() => null);
    if (!res?.ok) return;
    const found = ((await res.json()) as { messages: WidgetMessage[] }).messages.find((m) => m.id === id);
    if (!found || !awaitsSupport(found)) {
      if (found?.support) node.replaceChildren(contentOf(found.content, found.sources, found.support));
      return;
    }
  }
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const content = input.value.trim();
  if (!content || busy) return;
  input.value = '';
  void ask(content);
});
input.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey) {
    event.preventDefault();
    form.requestSubmit();
  }
});

const closeWidget = () => parent.postMessage('botty:close', origin);
closeButton.addEventListener('click', closeWidget);
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape') closeWidget();
});

void loadConversation();
input.focus();
