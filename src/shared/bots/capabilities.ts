/** What a bot may do (spec §3), in the order the wizard offers them. */
export const CAPABILITIES = ['web_search', 'document_analysis', 'image_understanding', 'memory_context'] as const;
export type Capability = (typeof CAPABILITIES)[number];

export const CAPABILITY_INFO: Record<Capability, { label: string; description: string }> = {
  web_search: { label: 'Web search', description: 'Look up current information on the web' },
  document_analysis: { label: 'Document analysis', description: 'Read and analyze the documents you share' },
  image_understanding: { label: 'Image understanding', description: 'Understand and describe the images you share' },
  memory_context: { label: 'Memory & context', description: 'Remember earlier messages in the conversation' },
};

/** The part of a bot or wizard draft that the web-search rule touches. */
export interface CapabilityDraft {
  capabilities: readonly Capability[];
  config: { webBrowsing?: boolean };
}

/**
 * Turns a capability on or off. web_search and config.webBrowsing are one setting seen from two steps of the
 * wizard (spec §5), so switching either one switches the other.
 */
export function setCapability<T extends CapabilityDraft>(draft: T, capability: Capability, enabled: boolean): T {
  const capabilities = CAPABILITIES.filter((c) => (c === capability ? enabled : draft.capabilities.includes(c)));
  const config = capability === 'web_search' ? { ...draft.config, webBrowsing: enabled } : draft.config;
  return { ...draft, capabilities, config };
}

/** The step-2 web browsing toggle. */
export const setWebBrowsing = <T extends CapabilityDraft>(draft: T, enabled: boolean): T =>
  setCapability(draft, 'web_search', enabled);
