/**
 * The plugins a reply's markdown is parsed with besides GFM: its citations become links, the sentences no source
 * supports get a mark, HTML the model wrote stays text, and a part of a long list is drawn as its items.
 */

interface MarkdownNode {
  type: string;
  value?: string;
  url?: string;
  children?: MarkdownNode[];
  /** A list's and a list item's: whether blank lines separate its children (CommonMark's loose lists). */
  spread?: boolean | null;
  ordered?: boolean | null;
  start?: number | null;
  /** A task list item's box. */
  checked?: boolean | null;
  position?: { start: { offset?: number }; end: { offset?: number } };
}

/** How a [n] marker's link names its source: a fragment the URL allowlist lets through unchanged. */
export const CITATION_PREFIX = '#source-';
const CITATION = /\[(\d{1,3})\]/g;

/**
 * `[n]` in the text, for a source the reply has, becomes a link to that source. Only plain text is touched:
 * markers in code stay as written, and a marker inside a link is left as its text.
 */
export function remarkCitations(options: { sources: ReadonlySet<number> }) {
  const split = (text: string): MarkdownNode[] => {
    const nodes: MarkdownNode[] = [];
    let from = 0;
    for (const match of text.matchAll(CITATION)) {
      if (!options.sources.has(Number(match[1]))) continue;
      if (match.index > from) nodes.push({ type: 'text', value: text.slice(from, match.index) });
      nodes.push({ type: 'link', url: `${CITATION_PREFIX}${match[1]}`, children: [{ type: 'text', value: match[0] }] });
      from = match.index + match[0].length;
    }
    if (from < text.length) nodes.push({ type: 'text', value: text.slice(from) });
    return nodes;
  };
  const visit = (node: MarkdownNode) => {
    if (!node.children || node.type === 'link' || node.type === 'linkReference') return;
    node.children = node.children.flatMap((child) =>
      child.type === 'text' && child.value ? split(child.value) : (visit(child), [child]),
    );
  };
  return options.sources.size ? visit : () => {};
}

/** The link a mark after an unsupported sentence is parsed as, then drawn as UnsupportedMarker. */
export const UNSUPPORTED_HREF = '#unsupported';
const unsupportedMark = (): MarkdownNode => ({
  type: 'link',
  url: UNSUPPORTED_HREF,
  children: [{ type: 'text', value: '?' }],
});

/**
 * A mark at the end of each sentence no source supports, `ends` being their offsets in the text (the support
 * check's). Placed in the plain text that ends there; a sentence ending in markup (`**…**`) gets it after its last
 * text. Runs before remarkCitations, while the text nodes still know where they came from.
 */
export function remarkUnsupported(options: { ends: readonly number[]; source: string }) {
  const pending = new Set(options.ends);
  const split = (node: MarkdownNode): MarkdownNode[] => {
    const from = node.position?.start.offset;
    const to = node.position?.end.offset;
    const value = node.value ?? '';
    if (from === undefined || to === undefined) return [node];
    // Escapes and entities make the text differ from its source: marks then go after the whole text.
    const exact = options.source.slice(from, to) === value;
    const here = [...pending].filter((end) => end > from && end <= to + 2).sort((a, b) => a - b);
    if (!here.length) return [node];
    const nodes: MarkdownNode[] = [];
    let at = 0;
    for (const end of here) {
      pending.delete(end);
      const cut = exact ? Math.min(end - from, value.length) : value.length;
      if (cut > at) nodes.push({ type: 'text', value: value.slice(at, cut) });
      nodes.push(unsupportedMark());
      at = Math.max(at, cut);
    }
    if (at < value.length) nodes.push({ type: 'text', value: value.slice(at) });
    return nodes;
  };
  const visit = (node: MarkdownNode) => {
    if (!node.children || node.type === 'link' || node.type === 'code') return;
    node.children = node.children.flatMap((child) =>
      child.type === 'text' && child.value ? split(child) : (visit(child), [child]),
    );
  };
  return options.ends.length ? visit : () => {};
}

/**
 * HTML written by the model is shown as the text it is. Without this, react-markdown drops it silently; with
 * rehype-raw it would become live elements (`<img onerror>`). Neither is honest or safe.
 */
export function remarkHtmlAsText() {
  const visit = (node: MarkdownNode) => {
    if (node.type === 'html') node.type = 'text';
    node.children?.forEach(visit);
  };
  return visit;
}

/** What parsing a part of a long list found out about the whole list (markdown-list.tsx). */
export interface ListPartFacts {
  /** The part parsed as one list, as a part cut by listParts is; when it is not, the list is drawn whole. */
  oneList: boolean;
  /** Blank lines between its items or within one: CommonMark then draws every item of the whole list loose. */
  loose: boolean;
  ordered: boolean;
  start: number | null;
  /** It has a task item: the whole list is then marked as a task list. */
  taskList: boolean;
}

/** Loose as mdast-util-to-hast decides it: the list spread, or any of its items. */
const isLoose = (list: MarkdownNode) =>
  Boolean(list.spread) || (list.children ?? []).some((item) => item.spread ?? (item.children?.length ?? 0) > 1);

/**
 * A part of a long list parsed alone, with a stub of the next part's first item after it when `dropLast` (so that
 * its last item ends, and is or is not separated from the next by blank lines, as in the whole list), which is
 * dropped here. What the whole list is made of is noted in `facts`; `loose` makes the part loose when the whole list
 * is.
 */
export function remarkListPart(options: { facts: Partial<ListPartFacts>; dropLast: boolean; loose: boolean }) {
  return (tree: MarkdownNode) => {
    const [list, ...others] = tree.children ?? [];
    const { facts } = options;
    facts.oneList = list?.type === 'list' && others.length === 0;
    if (!list || !facts.oneList) return;
    facts.loose = isLoose(list);
    if (options.dropLast) list.children?.pop();
    facts.ordered = Boolean(list.ordered);
    facts.start = list.start ?? null;
    facts.taskList = (list.children ?? []).some((item) => typeof item.checked === 'boolean');
    if (options.loose) list.spread = true;
  };
}

interface HtmlNode {
  type: string;
  children?: HtmlNode[];
}

/** The one list a part of a long list was parsed as, given as its items alone: the list element is drawn around all parts. */
export function rehypeListItems() {
  return (tree: HtmlNode) => {
    const elements = tree.children?.filter((node) => node.type === 'element') ?? [];
    if (elements.length === 1) tree.children = elements[0]!.children;
  };
}
