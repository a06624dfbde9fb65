/** What a bot may do (spec §3), in the order the wizard offers them. */
export const CAPABILITIES = [
  'web_search',
  'document_analysis',
  'image_understanding',
  'memory_context',
  'tools',
] as const;
export type Capability = (typeof CAPABILITIES)[number];

/** The reply context providers on the server; each capability switches one on. */
type ContextProvider = 'knowledge' | 'web' | 'images' | 'memory' | 'tools';
/** A chat attachment as the server reads it from its bytes. */
type UploadKind = 'document' | 'image';
/** The step-2 switches of the wizard that are a capability seen from another step. */
type CapabilitySwitch = 'webBrowsing' | 'conversationMemory';

/** The part of a bot, wizard draft or prompt subject that says which capabilities are on. */
export interface CapabilityHolder {
  /** Absent where a prompt is composed for a bot that has no row yet (training). */
  capabilities?: readonly Capability[];
  config: Partial<Record<CapabilitySwitch, boolean>>;
}

/** The part of a bot or wizard draft that the synced-capability rules change. */
export interface CapabilityDraft extends CapabilityHolder {
  capabilities: readonly Capability[];
}

interface CapabilityDescriptor {
  label: string;
  description: string;
  /** The step-2 switch that is this same setting (spec §5): switching either one switches the other. */
  turnsOn: CapabilitySwitch | null;
  /** The chat attachments it lets in: their kind, and the file picker's `accept` for them. */
  accepts: { kind: UploadKind; picker: string } | null;
  enables: ContextProvider;
  isOn: (bot: CapabilityHolder) => boolean;
}

const listed = (capability: Capability) => (bot: CapabilityHolder) => bot.capabilities?.includes(capability) ?? false;

export const CAPABILITY_INFO: Readonly<Record<Capability, CapabilityDescriptor>> = {
  web_search: {
    label: 'Web search',
    description: 'Look up current information on the web',
    turnsOn: 'webBrowsing',
    accepts: null,
    enables: 'web',
    // Either half of the pair browses, so a bot saved before the sync rule still does what it says.
    isOn: (bot) => listed('web_search')(bot) || bot.config.webBrowsing === true,
  },
  document_analysis: {
    label: 'Document analysis',
    description: 'Read and analyze the documents you share',
    turnsOn: null,
    accepts: { kind: 'document', picker: '.pdf,.docx,.txt,.md,.markdown,.csv,.json,.html,.htm' },
    enables: 'knowledge',
    isOn: listed('document_analysis'),
  },
  image_understanding: {
    label: 'Image understanding',
    description: 'Understand and describe the images you share',
    turnsOn: null,
    accepts: { kind: 'image', picker: 'image/png,image/jpeg,image/gif,image/webp' },
    enables: 'images',
    isOn: listed('image_understanding'),
  },
  memory_context: {
    label: 'Memory & context',
    description: 'Remember earlier messages in the conversation',
    turnsOn: 'conversationMemory',
    accepts: null,
    enables: 'memory',
    // On unless switched off: a bot created with an empty config still holds a conversation, whatever its list says.
    isOn: (bot) => bot.config.conversationMemory !== false,
  },
  // decisions §1: the fifth capability; which tools the bot may call is its `tools` setting (bots/bot-settings.ts).
  tools: {
    label: 'Tools',
    description: 'Use tools of the MCP servers you connected',
    turnsOn: null,
    accepts: null,
    enables: 'tools',
    isOn: listed('tools'),
  },
};

export const hasCapability = (bot: CapabilityHolder, capability: Capability) => CAPABILITY_INFO[capability].isOn(bot);

/** Whether a reply for this bot gets the context provider (its knowledge, the web, the question's images, memory). */
export const capabilityEnables = (bot: CapabilityHolder, provider: ContextProvider) =>
  CAPABILITIES.some((c) => CAPABILITY_INFO[c].enables === provider && hasCapability(bot, c));

/** Whether the bot may be sent a chat attachment of this kind. */
export const acceptsUpload = (bot: CapabilityHolder, kind: UploadKind) =>
  CAPABILITIES.some((c) => CAPABILITY_INFO[c].accepts?.kind === kind && hasCapability(bot, c));

/** The step-2 switches as the capabilities read, so the two steps cannot disagree even for bots saved before the sync rule. */
export function capabilitySwitches(bot: CapabilityHolder): Record<CapabilitySwitch, boolean> {
  const entries = CAPABILITIES.flatMap((c) => {
    const key = CAPABILITY_INFO[c].turnsOn;
    return key ? [[key, hasCapability(bot, c)] as const] : [];
  });
  return Object.fromEntries(entries) as Record<CapabilitySwitch, boolean>;
}

/** Turns a capability on or off, and with it the step-2 switch that is the same setting. */
export function setCapability<T extends CapabilityDraft>(draft: T, capability: Capability, enabled: boolean): T {
  const capabilities = CAPABILITIES.filter((c) => (c === capability ? enabled : draft.capabilities.includes(c)));
  const key = CAPABILITY_INFO[capability].turnsOn;
  const config = key ? { ...draft.config, [key]: enabled } : draft.config;
  return { ...draft, capabilities, config };
}

/** The step-2 web browsing toggle. */
export const setWebBrowsing = <T extends CapabilityDraft>(draft: T, enabled: boolean): T =>
  setCapability(draft, 'web_search', enabled);

/** The step-2 conversation memory toggle. */
export const setConversationMemory = <T extends CapabilityDraft>(draft: T, enabled: boolean): T =>
  setCapability(draft, 'memory_context', enabled);
