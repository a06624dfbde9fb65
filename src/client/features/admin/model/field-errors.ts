import { ApiError, serverMessage } from '@/lib/request';

/**
 * A failed save as the form shows it: the server's 400 field messages by path ("baseUrl", "limits.dailyTokens"),
 * and its message for anything not about one field (403, 409) to show above the buttons.
 */
export function formErrors(error: unknown): { fields: Record<string, string>; message?: string } {
  if (!error) return { fields: {} };
  const fields: Record<string, string> = {};
  if (error instanceof ApiError) {
    for (const { path, message } of error.data?.errors ?? []) fields[path] ??= message;
  }
  const hasFields = Object.keys(fields).length > 0;
  return {
    fields,
    message: hasFields ? undefined : (serverMessage(error) ?? 'Something went wrong. Please try again.'),
  };
}
