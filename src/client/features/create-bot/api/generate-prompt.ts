import type { GeneratePromptRequest, GeneratePromptResponse } from '@shared/contracts/bots';
import { apiFetch } from '@/lib/request';

/** Blank example queries are dropped here too (spec §7), whatever the server sent. */
export async function generatePrompt(
  body: GeneratePromptRequest,
  signal: AbortSignal,
): Promise<GeneratePromptResponse> {
  const res = await apiFetch('POST', '/api/generate-prompt', { body, signal });
  const result = (await res.json()) as GeneratePromptResponse;
  return { ...result, exampleQueries: result.exampleQueries.filter((q) => q.trim() !== '') };
}
