import { describe, expect, it } from 'vitest';
import {
  acceptsUpload,
  CAPABILITIES,
  CAPABILITY_INFO,
  capabilityEnables,
  capabilitySwitches,
  hasCapability,
  setCapability,
  setConversationMemory,
  setWebBrowsing,
  type Capability,
} from './capabilities';

interface Draft {
  name: string;
  capabilities: Capability[];
  config: { webBrowsing?: boolean; conversationMemory?: boolean };
}

const draft = (over: Partial<Draft> = {}): Draft => ({
  name: 'Scout',
  capabilities: [],
  config: {},
  ...over,
});

describe('capabilities', () => {
  it('has the four values of spec §3, each labelled and described', () => {
    expect(CAPABILITIES).toEqual(['web_search', 'document_analysis', 'image_understanding', 'memory_context', 'tools']);
    for (const c of CAPABILITIES) {
      expect(CAPABILITY_INFO[c].label).not.toBe('');
      expect(CAPABILITY_INFO[c].description).not.toBe('');
    }
  });

  it('choosing web_search turns web browsing on, and removing it turns it off', () => {
    const on = setCapability(draft(), 'web_search', true);
    expect(on).toEqual({ name: 'Scout', capabilities: ['web_search'], config: { webBrowsing: true } });
    const off = setCapability(on, 'web_search', false);
    expect(off).toEqual({ name: 'Scout', capabilities: [], config: { webBrowsing: false } });
  });

  it('the web browsing toggle adds and removes web_search', () => {
    const on = setWebBrowsing(draft({ capabilities: ['memory_context'], config: { conversationMemory: true } }), true);
    expect(on.capabilities).toEqual(['web_search', 'memory_context']);
    expect(on.config).toEqual({ conversationMemory: true, webBrowsing: true });
    expect(setWebBrowsing(on, false).capabilities).toEqual(['memory_context']);
  });

  it('memory_context and the conversation memory switch are one setting', () => {
    const off = setCapability(draft({ capabilities: ['memory_context'] }), 'memory_context', false);
    expect(off).toEqual({ name: 'Scout', capabilities: [], config: { conversationMemory: false } });
    expect(hasCapability(off, 'memory_context')).toBe(false);
    const on = setConversationMemory(off, true);
    expect(on).toEqual({ name: 'Scout', capabilities: ['memory_context'], config: { conversationMemory: true } });
    expect(setConversationMemory(on, false).capabilities).toEqual([]);
  });

  it('memory is on unless turned off, as the server reads it', () => {
    expect(hasCapability(draft(), 'memory_context')).toBe(true);
    expect(
      hasCapability(
        draft({ capabilities: ['memory_context'], config: { conversationMemory: false } }),
        'memory_context',
      ),
    ).toBe(false);
  });

  it('web search is on when either the capability or the web browsing switch says so', () => {
    expect(hasCapability(draft(), 'web_search')).toBe(false);
    expect(hasCapability(draft({ capabilities: ['web_search'] }), 'web_search')).toBe(true);
    expect(hasCapability(draft({ config: { webBrowsing: true } }), 'web_search')).toBe(true);
    expect(capabilitySwitches(draft({ config: { webBrowsing: true, conversationMemory: false } }))).toEqual({
      webBrowsing: true,
      conversationMemory: false,
    });
  });

  it('documents and images are on only when listed', () => {
    expect(hasCapability({ config: {} }, 'document_analysis')).toBe(false);
    expect(hasCapability(draft({ capabilities: ['image_understanding'] }), 'image_understanding')).toBe(true);
    expect(hasCapability(draft({ capabilities: ['image_understanding'] }), 'document_analysis')).toBe(false);
  });

  it('each capability enables one reply context provider', () => {
    expect(CAPABILITIES.map((c) => CAPABILITY_INFO[c].enables)).toEqual([
      'web',
      'knowledge',
      'images',
      'memory',
      'tools',
    ]);
    const bot = draft({ capabilities: ['document_analysis'], config: { conversationMemory: false } });
    expect(capabilityEnables(bot, 'knowledge')).toBe(true);
    expect(capabilityEnables(bot, 'images')).toBe(false);
    expect(capabilityEnables(bot, 'web')).toBe(false);
    expect(capabilityEnables(bot, 'memory')).toBe(false);
    expect(capabilityEnables({ config: { webBrowsing: true } }, 'web')).toBe(true);
  });

  it('lets in the attachments of the capabilities that are on', () => {
    const bot = draft({ capabilities: ['image_understanding'] });
    expect(acceptsUpload(bot, 'image')).toBe(true);
    expect(acceptsUpload(bot, 'document')).toBe(false);
    expect(acceptsUpload(draft({ capabilities: ['document_analysis'] }), 'document')).toBe(true);
    expect(CAPABILITY_INFO.document_analysis.accepts?.picker).toContain('.pdf');
    expect(CAPABILITY_INFO.image_understanding.accepts?.picker).toContain('image/png');
  });

  it('other capabilities leave web browsing alone and keep the canonical order without duplicates', () => {
    const start = draft({ capabilities: ['memory_context'], config: { webBrowsing: true } });
    const next = setCapability(setCapability(start, 'document_analysis', true), 'document_analysis', true);
    expect(next.capabilities).toEqual(['document_analysis', 'memory_context']);
    expect(next.config).toBe(start.config);
  });

  it('does not change the draft it was given', () => {
    const start = draft();
    setCapability(start, 'web_search', true);
    expect(start).toEqual(draft());
  });
});
