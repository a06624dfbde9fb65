import type { z } from 'zod';

/**
 * The objects of an application/x-ndjson response (one JSON value per line) as they arrive. Lines that do not
 * match `schema` are skipped rather than trusted.
 */
export async function* readNdjson<T>(res: Response, schema: z.ZodType<T>): AsyncGenerator<T> {
  if (!res.body) return;
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    buffer += chunk.value;
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      const parsed = schema.safeParse(safeJson(line));
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
