import { splitTrustedSources } from '@shared/bots/trusted-sources';
import { browsesTheWeb } from '../../ai/compose-prompt';
import {
  addSource,
  startStep,
  type ReplyContext,
  type ReplyContextInput,
  type ReplyContextProvider,
} from '../replies/reply-context';
import type { WebResearch } from './web-research';
import { createWebTools, SEARCH_NOT_CONFIGURED } from './web-tools';

/** Pasted links opened up front when the model cannot call tools; more would crowd out the question. */
const MAX_PASTED_LINKS = 3;
/** How much of each page goes into the prompt when it is read up front. */
const UP_FRONT_PAGE_CHARS = 4_000;
/** The longest query web_search accepts. */
const MAX_QUERY_CHARS = 400;

/** http(s) links in a message, without the punctuation that usually follows one in a sentence. */
function pastedLinks(text: string): string[] {
  const found = (text.match(/https?:\/\/[^\s<>"'`]+/gi) ?? []).map((link) => link.replace(/[.,;:!?)\]}]+$/, ''));
  return [...new Set(found)].slice(0, MAX_PASTED_LINKS);
}

function toolInstruction(trustedSources: readonly string[], canSearch: boolean): string {
  const lines = [
    canSearch
      ? 'You can research on the web in this chat: web_search finds pages and open_page reads one (also any link the user pastes). Use them when a question needs current or specific information, and say what you looked up rather than guessing.'
      : `${SEARCH_NOT_CONFIGURED}, so you cannot search the web: if the user asks you to, say so plainly. You can still read a page whose address the user gives you with open_page.`,
    'Cite what you found with [n], using the numbers the tools return, right after the facts they support; never invent a number or a page.',
  ];
  if (trustedSources.length) lines.push(trustedOnly(trustedSources));
  return lines.join(' ');
}

const trustedOnly = (trustedSources: readonly string[]) =>
  `You can only read pages on these trusted sources and their subdomains: ${trustedSources.join(', ')}. When the user asks for another site, say that you can only use these sources.`;

type Found = { n: number; title: string; url: string; snippet?: string; text?: string };
type ToolOutput = { error: string } | { results: Found[] } | Found;

/** What up-front research found, as a prompt section the model answers from. */
function foundInstruction(found: string[], trustedSources: readonly string[], canSearch: boolean): string {
  const lines = [
    'Before answering, the web was researched for this message (you cannot search or open pages yourself now).',
    ...(canSearch ? [] : [`${SEARCH_NOT_CONFIGURED}; say so plainly if the user asks you to search.`]),
    ...(trustedSources.length ? [trustedOnly(trustedSources)] : []),
    ...(found.length
      ? [
          'What the research gave (pages numbered for citations):',
          ...found,
          'Cite it with [n] right after the facts it supports; never invent a number or a page.',
        ]
      : ['No page was found or read.']),
  ];
  return lines.join('\n\n');
}

function describeOutput(what: string, output: ToolOutput): string[] {
  if ('error' in output) return [`${what}: ${output.error}`];
  const found = 'results' in output ? output.results : [output];
  return found.map((f) => {
    const body = f.text !== undefined ? f.text.slice(0, UP_FRONT_PAGE_CHARS) : (f.snippet ?? '');
    return `[${f.n}] ${f.title} (${f.url})\n${body}`;
  });
}

/**
 * Web research for a bot with web browsing on: the `web_search` and `open_page` tools within its trusted sources,
 * the instructions to use and cite them, and, for a model that cannot call tools, the same research up front
 * (a search with the question, and the links pasted in it).
 */
export function webReplyContext(research: WebResearch): ReplyContextProvider {
  return async (input: ReplyContextInput, context: ReplyContext) => {
    if (!browsesTheWeb(input.bot)) return;
    const trustedSources = splitTrustedSources(input.bot.config.trustedSources);
    const canSearch = research.search !== null;
    const tools = createWebTools({
      ...research,
      trustedSources,
      addSource: (source) => addSource(context, source),
      // Sources a step found reach the client as soon as the step ends, before the answer that cites them.
      startStep: (step) => {
        const before = context.sources.length;
        const end = startStep(input, context, step);
        return (status, error) => {
          end(status, error);
          if (context.sources.length > before) input.emit({ event: 'sources', data: { sources: context.sources } });
        };
      },
    });
    Object.assign(context.tools, tools);
    const instruction = toolInstruction(trustedSources, canSearch);
    context.instructions.push(instruction);

    const call = { toolCallId: 'up-front', messages: [], abortSignal: input.signal };
    const run = async (what: string, output: unknown) => describeOutput(what, (await output) as ToolOutput);
    const others = context.withoutTools;
    context.withoutTools = async () => {
      await others?.();
      const question = input.question.content.trim();
      const found: string[] = [];
      if (canSearch && question) {
        const query = question.slice(0, MAX_QUERY_CHARS);
        found.push(...(await run('The search failed', tools.web_search.execute!({ query }, call))));
      }
      for (const url of pastedLinks(question)) {
        found.push(...(await run(`${url} could not be read`, tools.open_page.execute!({ url }, call))));
      }
      context.instructions.splice(
        context.instructions.indexOf(instruction),
        1,
        foundInstruction(found, trustedSources, canSearch),
      );
    };
  };
}
