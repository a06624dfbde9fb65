import type { GeneratePromptBody, GeneratePromptResponse } from '@shared/contracts/bots';
import { apiRequest } from '@/lib/request';

/** Blank example queries are dropped here too (spec §7), whatever the server sent. */
export async function generatePrompt(body: GeneratePromptBody): Promise<GeneratePromptResponse> {
  const result = await apiRequest<GeneratePromptResponse>('POST', '/api/generate-prompt', body);
  return { ...result, exampleQueries: result.exampleQueries.filter((q) => q.trim() !== '') };
}
