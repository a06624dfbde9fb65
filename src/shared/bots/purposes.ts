/** A bot's purpose (spec §3); the order is the order the wizard offers them. */
export const PURPOSES = ['answering', 'creating', 'analyzing', 'planning'] as const;
export type Purpose = (typeof PURPOSES)[number];

export const PURPOSE_LABELS: Record<Purpose, string> = {
  answering: 'Answering questions',
  creating: 'Creating content',
  analyzing: 'Data analysis',
  planning: 'Planning & organization',
};

export const GENERAL_PURPOSE_LABEL = 'General assistance';

export function isPurpose(value: unknown): value is Purpose {
  return typeof value === 'string' && (PURPOSES as readonly string[]).includes(value);
}

/** Stored data may predate the four purposes, so any other value reads as general assistance. */
export function purposeLabel(purpose: string | null | undefined): string {
  return isPurpose(purpose) ? PURPOSE_LABELS[purpose] : GENERAL_PURPOSE_LABEL;
}
