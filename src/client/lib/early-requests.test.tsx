// A .tsx test for the browser it needs (jsdom: storage, fetch stubbed at the network boundary), not for JSX.
import { describe, expect, it, vi } from 'vitest';
import { fakeServer } from '@/test/fake-server';
import { SESSION_URL, sendEarly } from './early-requests';
import { apiRequest } from './request';
import { saveSession } from './storage';

const account = {
  id: 1,
  username: 'sam',
  email: 'sam@example.com',
  role: 'user' as const,
  fullName: null,
  profileImageUrl: null,
  emailVerified: true,
  createdAt: '2025-01-01T00:00:00.000Z',
};

describe('early requests', () => {
  it('answers the app’s first request of an address with the early one, once, and sends the next itself', async () => {
    const server = fakeServer();
    server.json('GET', '/api/chat/status', { offline: true });
    server.json('GET', SESSION_URL, account);
    saveSession('token-1', account, false);

    sendEarly(['/api/chat/status']);
    expect(server.sent('GET', SESSION_URL)).toHaveLength(1);
    const [early] = server.sent('GET', '/api/chat/status');
    expect(early!.headers.get('Authorization')).toBe('Bearer token-1');

    await expect(apiRequest('GET', '/api/chat/status')).resolves.toEqual({ offline: true });
    expect(server.sent('GET', '/api/chat/status')).toHaveLength(1);
    await apiRequest('GET', '/api/chat/status');
    expect(server.sent('GET', '/api/chat/status')).toHaveLength(2);
  });

  it('sends nothing without a stored token', () => {
    const server = fakeServer();
    sendEarly(['/api/chat/status']);
    expect(server.sent('GET', SESSION_URL)).toHaveLength(0);
    expect(server.sent('GET', '/api/chat/status')).toHaveLength(0);
  });

  it('leaves an early answer unused when the token changed, or when it waited 10 s unclaimed', async () => {
    const server = fakeServer();
    server.json('GET', '/api/bots/3', { id: 3 });
    server.json('GET', '/api/bots/4', { id: 4 });
    saveSession('token-1', account, false);
    sendEarly(['/api/bots/3', '/api/bots/4']);

    saveSession('token-2', account, false);
    await apiRequest('GET', '/api/bots/3');
    expect(server.sent('GET', '/api/bots/3').map((r) => r.headers.get('Authorization'))).toEqual([
      'Bearer token-1',
      'Bearer token-2',
    ]);

    saveSession('token-1', account, false);
    const now = performance.now();
    const later = vi.spyOn(performance, 'now').mockReturnValue(now + 10_000);
    await apiRequest('GET', '/api/bots/4');
    later.mockRestore();
    expect(server.sent('GET', '/api/bots/4')).toHaveLength(2);
  });
});
