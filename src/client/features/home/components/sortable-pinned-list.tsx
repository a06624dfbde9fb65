import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  MouseSensor,
  TouchSensor,
  type UniqueIdentifier,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { GripVertical, X } from 'lucide-react';
import type { Bot } from '@shared/contracts/bots';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { PinnedBotSummary } from './pinned-bot-summary';

/** Spec §9: a mouse drag starts after 5 px of movement, a touch drag after a 120 ms long press. */
const DRAG_MOUSE_DISTANCE_PX = 5;
const DRAG_TOUCH_DELAY_MS = 120;

/** How far a finger may wander during the long press before it counts as a scroll instead. */
const TOUCH_TOLERANCE_PX = 8;

interface SortablePinnedListProps {
  bots: Bot[];
  onRemove: (bot: Bot) => void;
  onReorder: (activeId: number, overId: number | null) => void;
}

function SortableRow({ bot, onRemove }: { bot: Bot; onRemove: (bot: Bot) => void }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: bot.id,
  });

  // The whole row drags with mouse or touch; the keyboard picks it up only from the handle, so Enter or Space
  // on the remove button still removes.
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      {...listeners}
      className={cn(
        'relative flex touch-manipulation items-center gap-1 rounded-lg border bg-background',
        isDragging && 'z-10 shadow-lg',
      )}
    >
      <button
        ref={setActivatorNodeRef}
        {...attributes}
        type="button"
        aria-label={`Reorder ${bot.name}`}
        className="flex size-11 shrink-0 cursor-grab items-center justify-center rounded-md text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none active:cursor-grabbing"
      >
        <GripVertical className="size-4" aria-hidden="true" />
      </button>
      {/* A pointer shortcut for the remove button beside it, which is the control for keyboards and screen readers. */}
      <div className="min-w-0 flex-1 cursor-pointer py-2" onClick={() => onRemove(bot)}>
        <PinnedBotSummary bot={bot} />
      </div>
      <Button variant="ghost" size="icon" aria-label={`Remove ${bot.name}`} onClick={() => onRemove(bot)}>
        <X aria-hidden="true" />
      </Button>
    </li>
  );
}

/** Edit mode of the pinned list: drag (mouse, touch or keyboard) to reorder, remove to unpin. */
export function SortablePinnedList({ bots, onRemove, onReorder }: SortablePinnedListProps) {
  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: DRAG_MOUSE_DISTANCE_PX } }),
    useSensor(TouchSensor, { activationConstraint: { delay: DRAG_TOUCH_DELAY_MS, tolerance: TOUCH_TOLERANCE_PX } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const nameOf = (id: UniqueIdentifier) => bots.find((bot) => bot.id === id)?.name ?? 'Botty';
  const positionOf = (id: UniqueIdentifier) =>
    `position ${bots.findIndex((bot) => bot.id === id) + 1} of ${bots.length}`;

  const onDragEnd = ({ active, over }: DragEndEvent) => onReorder(Number(active.id), over ? Number(over.id) : null);

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        screenReaderInstructions: {
          draggable:
            'To reorder, press Space or Enter to pick up, use the arrow keys to move, then Space or Enter to drop. Press Escape to cancel.',
        },
        announcements: {
          onDragStart: ({ active }) => `Picked up ${nameOf(active.id)}, at ${positionOf(active.id)}.`,
          onDragOver: ({ active, over }) =>
            over ? `${nameOf(active.id)} moved to ${positionOf(over.id)}.` : undefined,
          onDragEnd: ({ active, over }) =>
            over
              ? `${nameOf(active.id)} dropped at ${positionOf(over.id)}.`
              : `${nameOf(active.id)} dropped where it was.`,
          onDragCancel: ({ active }) => `Reordering cancelled; ${nameOf(active.id)} is back where it was.`,
        },
      }}
    >
      <SortableContext items={bots.map((bot) => bot.id)} strategy={verticalListSortingStrategy}>
        <ul className="grid grid-cols-[minmax(0,1fr)] gap-2">
          {bots.map((bot) => (
            <SortableRow key={bot.id} bot={bot} onRemove={onRemove} />
          ))}
        </ul>
      </SortableContext>
    </DndContext>
  );
}
