// A .tsx test for the browser the module needs as it loads (jsdom), not for JSX.
import { describe, expect, it } from 'vitest';
import { firstReads, opensConversation } from './early-requests';

describe('the page’s early requests', () => {
  it('reads what the chat page’s route loader asks for first', () => {
    expect(firstReads({ pathname: '/chat/7', search: '?c=9' })).toEqual([
      '/api/chat/status',
      '/api/bots/7',
      '/api/bots/7/conversations',
      '/api/conversations/9/messages?limit=100',
    ]);
    expect(firstReads({ pathname: '/chat', search: '' })).toEqual(['/api/chat/status']);
    expect(firstReads({ pathname: '/chat/x', search: '?c=0' })).toEqual(['/api/chat/status']);
    expect(firstReads({ pathname: '/dashboard', search: '' })).toEqual([]);
  });
  it('knows the pages that open a conversation, whose markdown renderer loads beside those reads', () => {
    expect(opensConversation({ pathname: '/chat/7', search: '?c=9' })).toBe(true);
    expect(opensConversation({ pathname: '/chat/7', search: '' })).toBe(false);
    expect(opensConversation({ pathname: '/chat/7', search: '?c=0' })).toBe(false);
    expect(opensConversation({ pathname: '/history', search: '?c=9' })).toBe(false);
  });
});
