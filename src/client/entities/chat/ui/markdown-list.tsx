import { Fragment } from 'react';
import {
  type BlockProps,
  blockProps,
  type Drawn,
  drawFinished,
  hasCode,
  type ListPart,
  numbers,
  OneBlock,
  useHighlighting,
  useOpenBlock,
} from './markdown-block';
import { itemMarker, type MarkdownBlocks } from './markdown-blocks';

/**
 * Items in each part of a long list (listParts): a list is one block, and parsing all of it again at each frame of
 * a stream grew with its items (400 points: a parse of over 50 ms near its end), as did drawing it whole once it
 * was finished.
 */
export const LIST_PART_ITEMS = 8;

/** The stub of the next part's first item a part is parsed with (remarkListPart), or none for the last part. */
const stubOf = (next: string | undefined) => (next === undefined ? '' : `${itemMarker(next) ?? ''} x`);

/**
 * A long list drawn as one list of items parsed a part of LIST_PART_ITEMS at a time, each part kept like a finished
 * block: while the list grows only its last part is parsed again, and once it is finished none is. What CommonMark
 * decides for the whole list is gathered from its parts: its kind and first number from the first, and whether it is
 * loose (then every part is drawn loose) or a task list from any. A part that does not parse as one list (listParts
 * cuts by lines, not by parsing) has the list drawn whole.
 */
export function ListInParts({ parts, block }: { parts: MarkdownBlocks; block: BlockProps }) {
  const props = blockProps(parts, block.citations, numbers(block.ends), block.open);
  const highlighted = useHighlighting(props.some(hasCode));
  const partOf = (i: number, loose: boolean): ListPart => ({ next: stubOf(props[i + 1]?.source), loose });
  const finished = (i: number, loose: boolean) =>
    drawFinished(props[i]!, highlighted && hasCode(props[i]!), partOf(i, loose));
  const last = props.length - 1;

  // The parts before the last as parsed; the last (from its last parse while it grows: useOpenBlock) loose if one
  // of them is; then, if the list is loose, those of the others that are not drawn loose.
  const drawn: Drawn[] = props.slice(0, last).map((_, i) => finished(i, false));
  const looseBefore = drawn.some((part) => part.list?.loose);
  const open = useOpenBlock(props[last]!, partOf(last, looseBefore));
  drawn.push(open ?? finished(last, looseBefore));
  if (drawn.some((part) => !part.list?.oneList)) return <OneBlock {...block} />;
  const facts = drawn.map((part) => part.list!);
  if (looseBefore || facts[last]!.loose)
    for (let i = 0; i < last; i += 1) if (!facts[i]!.loose) drawn[i] = finished(i, true);
  const { ordered, start } = facts[0]!;
  const List = ordered ? 'ol' : 'ul';
  return (
    <List
      start={ordered && start !== null && start !== 1 ? start : undefined}
      className={facts.some((part) => part.taskList) ? 'contains-task-list' : undefined}
    >
      {drawn.map((part, i) => (
        <Fragment key={i}>{part.element}</Fragment>
      ))}
    </List>
  );
}
