import { previewEventSchema, type PreviewAnswersRequest, type PreviewEvent } from '@shared/contracts/training';
import { readNdjson } from '@/lib/ndjson';
import { apiFetch } from '@/lib/request';

/**
 * The draft's answers to its test queries as the server writes them (POST /api/bots/preview-answers, one JSON
 * object per line). Aborting `signal` cancels the rest on the server too.
 */
export async function* previewAnswers(body: PreviewAnswersRequest, signal: AbortSignal): AsyncGenerator<PreviewEvent> {
  const res = await apiFetch('POST', '/api/bots/preview-answers', { body, signal });
  yield* readNdjson(res, previewEventSchema);
}
