import { MessageSquareText, ThumbsDown, ThumbsUp } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { FEEDBACK_COMMENT_MAX } from '@shared/constants';
import type { FeedbackRating } from '@shared/contracts/feedback';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { cn } from '@/lib/cn';
import { useConversationFeedback, useRateMessage } from '../api/feedback';

/**
 * Thumbs up or down under a reply, with an optional comment once rated. Pressing the chosen thumb again
 * removes the rating. Each rating remembers the bot version that wrote the reply (server side).
 */
export function FeedbackButtons({ conversationId, messageId }: { conversationId: number; messageId: number }) {
  const ratings = useConversationFeedback(conversationId);
  const rate = useRateMessage(conversationId);
  const current = ratings.data?.find((f) => f.messageId === messageId);
  const [commenting, setCommenting] = useState(false);
  const [comment, setComment] = useState('');
  const inputId = useId();

  const send = (rating: FeedbackRating | null, text?: string) =>
    rate.mutate(
      { messageId, rating, ...(text === undefined ? {} : { comment: text }) },
      {
        onSuccess: () => setCommenting(false),
        onError: () =>
          toast({ variant: 'destructive', title: 'Could not save your rating', description: 'Please try again.' }),
      },
    );

  const toggle = (rating: FeedbackRating) =>
    send(current?.rating === rating ? null : rating, current?.comment ?? undefined);

  const submitComment = (event: FormEvent) => {
    event.preventDefault();
    if (current?.rating) send(current.rating, comment);
  };

  return (
    <div className="flex flex-wrap items-center gap-1">
      {(['up', 'down'] as const).map((rating) => {
        const Icon = rating === 'up' ? ThumbsUp : ThumbsDown;
        const label = rating === 'up' ? 'Good reply' : 'Bad reply';
        const pressed = current?.rating === rating;
        return (
          <Button
            key={rating}
            variant="quiet"
            size="icon-sm"
            className={cn(pressed && 'text-primary')}
            aria-label={label}
            title={label}
            aria-pressed={pressed}
            disabled={rate.isPending}
            onClick={() => toggle(rating)}
          >
            <Icon aria-hidden="true" className={pressed ? 'fill-current' : undefined} />
          </Button>
        );
      })}
      {current?.rating && !commenting && (
        <Button
          variant="quiet"
          size="icon-sm"
          aria-label={current.comment ? `Edit comment: ${current.comment}` : 'Add a comment'}
          title={current.comment ?? 'Add a comment'}
          onClick={() => {
            setComment(current.comment ?? '');
            setCommenting(true);
          }}
        >
          <MessageSquareText aria-hidden="true" />
        </Button>
      )}
      {commenting && (
        <form onSubmit={submitComment} className="flex w-full min-w-0 items-center gap-2 sm:w-auto">
          <label htmlFor={inputId} className="sr-only">
            Comment on this reply
          </label>
          <Input
            id={inputId}
            value={comment}
            onChange={(e) => setComment(e.target.value)}
            maxLength={FEEDBACK_COMMENT_MAX}
            placeholder="What was good or missing?"
            className="h-9 min-w-0 flex-1 sm:w-64"
            autoFocus
          />
          <Button type="submit" size="sm" disabled={rate.isPending}>
            Save
          </Button>
          <Button type="button" size="sm" variant="ghost" onClick={() => setCommenting(false)}>
            Cancel
          </Button>
        </form>
      )}
    </div>
  );
}
