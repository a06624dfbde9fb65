/** Spec §9: the short-warning and praise thresholds. */
export const CUSTOM_PROMPT_SHORT = 100;
export const CUSTOM_PROMPT_LONG = 800;

export type CustomPromptGuidance = 'short' | 'detailed' | null;

/** Spec §5: advice on the trimmed text's length; it never stops the prompt from being saved. */
export function customPromptGuidance(text: string): CustomPromptGuidance {
  const length = text.trim().length;
  if (length > 0 && length < CUSTOM_PROMPT_SHORT) return 'short';
  if (length > CUSTOM_PROMPT_LONG) return 'detailed';
  return null;
}

export const CUSTOM_PROMPT_GUIDANCE_TEXT: Record<Exclude<CustomPromptGuidance, null>, string> = {
  short: 'Your prompt is quite short. For best results, consider adding more details about how the bot should respond.',
  detailed: 'Excellent! Your detailed prompt will help the AI provide high-quality, specific responses.',
};
