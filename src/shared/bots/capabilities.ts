/** What a bot may do (spec §3), in the order the wizard offers them. */
export const CAPABILITIES = ['web_search', 'document_analysis', 'image_understanding', 'memory_context'] as const;
export type Capability = (typeof CAPABILITIES)[number];

export const CAPABILITY_INFO: Record<Capability, { label: string; description: string }> = {
  web_search: { label: 'Web search', description: 'Look up current information on the web' },
  document_analysis: { label: 'Document analysis', description: 'Read and analyze the documents you share' },
  image_understanding: { label: 'Image understanding', description: 'Understand and describe the images you share' },
  memory_context: { label: 'Memory & context', description: 'Remember earlier messages in the conversation' },
};

/** The part of a bot or wizard draft that the synced-capability rules touch. */
export interface CapabilityDraft {
  capabilities: readonly Capability[];
  config: { webBrowsing?: boolean; conversationMemory?: boolean };
}

/** Capabilities that are the same setting as a step-2 switch of the wizard (spec §5, decisions §1). */
const SWITCH_OF = { web_search: 'webBrowsing', memory_context: 'conversationMemory' } as const;

/**
 * Turns a capability on or off. web_search and config.webBrowsing, memory_context and config.conversationMemory
 * are each one setting seen from two steps of the wizard, so switching either one switches the other.
 */
export function setCapability<T extends CapabilityDraft>(draft: T, capability: Capability, enabled: boolean): T {
  const capabilities = CAPABILITIES.filter((c) => (c === capability ? enabled : draft.capabilities.includes(c)));
  const key = SWITCH_OF[capability as keyof typeof SWITCH_OF] as string | undefined;
  const config = key ? { ...draft.config, [key]: enabled } : draft.config;
  return { ...draft, capabilities, config };
}

/** The step-2 web browsing toggle. */
export const setWebBrowsing = <T extends CapabilityDraft>(draft: T, enabled: boolean): T =>
  setCapability(draft, 'web_search', enabled);

/** The step-2 conversation memory toggle. */
export const setConversationMemory = <T extends CapabilityDraft>(draft: T, enabled: boolean): T =>
  setCapability(draft, 'memory_context', enabled);

/**
 * Conversation memory is on unless it was turned off: the server sends earlier messages whenever
 * `conversationMemory` is not false, so bots saved before the sync rule read as they behave.
 */
export const hasConversationMemory = (draft: CapabilityDraft) => draft.config.conversationMemory !== false;
