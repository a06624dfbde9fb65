import { previewEventSchema, type PreviewAnswersRequest, type PreviewEvent } from '@shared/contracts/training';
import { apiFetch } from '@/lib/request';

/**
 * The draft's answers to its test queries as the server writes them (POST /api/bots/preview-answers, one JSON
 * object per line). Aborting `signal` cancels the rest on the server too. Lines that do not match the contract
 * are skipped rather than trusted.
 */
export async function* previewAnswers(body: PreviewAnswersRequest, signal: AbortSignal): AsyncGenerator<PreviewEvent> {
  const res = await apiFetch('POST', '/api/bots/preview-answers', { body, signal });
  if (!res.body) return;
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    buffer += chunk.value;
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      const parsed = previewEventSchema.safeParse(safeJson(line));
      if (parsed.success) yield parsed.data;
    }
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
