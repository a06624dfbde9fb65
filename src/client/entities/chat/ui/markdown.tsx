import 'highlight.js/styles/github-dark.css';
import './markdown.css';
import { ImageIcon } from 'lucide-react';
import { type ComponentProps, isValidElement, memo, type ReactNode, useRef } from 'react';
import ReactMarkdown, { type Components, defaultUrlTransform } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import { CopyButton } from './copy-button';

interface MarkdownNode {
  type: string;
  children?: MarkdownNode[];
}

/**
 * HTML written by the model is shown as the text it is. Without this, react-markdown drops it silently; with
 * rehype-raw it would become live elements (`<img onerror>`). Neither is honest or safe.
 */
function remarkHtmlAsText() {
  const visit = (node: MarkdownNode) => {
    if (node.type === 'html') node.type = 'text';
    node.children?.forEach(visit);
  };
  return visit;
}

function languageOf(code: ReactNode): string | undefined {
  if (!isValidElement<{ className?: string }>(code)) return undefined;
  return /\blanguage-([\w+#-]+)/.exec(code.props.className ?? '')?.[1];
}

function CodeBlock({ children }: ComponentProps<'pre'>) {
  const ref = useRef<HTMLPreElement>(null);
  return (
    <div className="md-code">
      <div className="md-code-bar">
        <span>{languageOf(children) ?? 'code'}</span>
        <CopyButton label="Copy code" text={() => ref.current?.textContent ?? ''} className="md-code-copy" />
      </div>
      <pre ref={ref}>{children}</pre>
    </div>
  );
}

/** Addresses outside the allowlist arrive empty (see urlTransform); such a link is left as its words. */
function Link({ href, children }: ComponentProps<'a'>) {
  if (!href) return <span>{children}</span>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

/**
 * Images become links: loading them would let any address in a reply see the reader (and could carry the
 * conversation out in its query string), and the page's content policy refuses other origins anyway.
 */
function Image({ src, alt }: ComponentProps<'img'>) {
  const label = alt || 'Image';
  if (typeof src !== 'string' || !src) return <span>{label}</span>;
  return (
    <a href={src} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1">
      <ImageIcon className="size-4" aria-hidden="true" />
      {label}
    </a>
  );
}

const components: Components = {
  pre: ({ children }) => <CodeBlock>{children}</CodeBlock>,
  a: ({ href, children }) => <Link href={href}>{children}</Link>,
  img: ({ src, alt }) => <Image src={src} alt={alt} />,
  table: ({ children }) => (
    <div className="md-table">
      <table>{children}</table>
    </div>
  ),
};

const remarkPlugins = [remarkGfm, remarkHtmlAsText];
const rehypePlugins = [rehypeHighlight];

/**
 * A reply rendered as GitHub-flavoured markdown with highlighted code. Links keep to react-markdown's default
 * allowlist, which is exactly the spec's (§5): http, https, irc, ircs, mailto, xmpp and relative addresses.
 * Memoised: while one reply streams, the others in the conversation are not parsed again on every token.
 */
export default memo(function Markdown({ children }: { children: string }) {
  return (
    <div className="md">
      <ReactMarkdown
        remarkPlugins={remarkPlugins}
        rehypePlugins={rehypePlugins}
        components={components}
        urlTransform={defaultUrlTransform}
      >
        {children}
      </ReactMarkdown>
    </div>
  );
});
