import type { ModelList } from '../api/get-models';

/** Whether a bot's saved model can still answer: null (Default) always can; an id only while it is enabled. */
export const isModelAvailable = (list: ModelList, id: string | null | undefined) =>
  !id || list.models.some((model) => model.id === id);

/** The label of a saved choice: the model's own, "Default" for null and for a model no longer offered. */
export function modelChoiceLabel(list: ModelList | undefined, id: string | null | undefined): string {
  if (!id) return 'Default';
  // Until the list arrives the id is all there is to show.
  if (!list) return id;
  return list.models.find((model) => model.id === id)?.label ?? 'Default';
}

/** What the owner of a bot is told when its model was disabled or removed (issue 23). */
export const MODEL_UNAVAILABLE =
  'The model this botty used is no longer available, so it answers with the default model.';

/** How a recorded model id (`connectionId/model`) reads: its label while enabled, else the model's own name. */
export function recordedModelName(list: ModelList | undefined, id: string): string {
  return list?.models.find((model) => model.id === id)?.label ?? id.slice(id.indexOf('/') + 1);
}
