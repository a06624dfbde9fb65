import { diffWords } from 'diff';
import { useId } from 'react';

/** Words removed are struck through in red, words added underlined in green; the rest reads as it was. */
export function PromptDiff({ title, before, after }: { title: string; before: string; after: string }) {
  const id = useId();
  const parts = diffWords(before, after);
  return (
    <div className="grid gap-2">
      <h4 id={id} className="text-sm font-semibold">
        {title}
      </h4>
      <div
        role="region"
        aria-labelledby={id}
        tabIndex={0}
        className="max-h-80 overflow-auto rounded-lg border bg-background p-3 text-sm leading-relaxed whitespace-pre-wrap focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      >
        {parts.map((part, i) =>
          part.added ? (
            <ins key={i} className="bg-green-100 text-green-900 dark:bg-green-900/40 dark:text-green-100">
              {part.value}
            </ins>
          ) : part.removed ? (
            <del key={i} className="bg-red-100 text-red-900 dark:bg-red-900/40 dark:text-red-100">
              {part.value}
            </del>
          ) : (
            <span key={i}>{part.value}</span>
          ),
        )}
      </div>
    </div>
  );
}
