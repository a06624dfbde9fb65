import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createConversation } from '../../../../tests/support/chat-api';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { startFakeLlm } from '../../../../tests/support/fake-llm';
import { png } from '../../../../tests/support/files';
import { appsWithFiles, uploadFile } from '../../../../tests/support/files-api';
import { signUp } from '../../../../tests/support/test-app';
import { IMAGE_MESSAGES, MAX_IMAGE_PIXELS } from './detect-type';

/**
 * A real 1×1 PNG whose header declares `width` × `height`, its IHDR checksum made right again: what an image
 * bomb looks like, a few hundred bytes at most.
 */
function pngDeclaring(width: number, height: number): Uint8Array {
  const bytes = Buffer.from(png(1, 1));
  // After the 8-byte signature: IHDR's length (4), type (4), then width and height; its CRC covers type + 13 bytes.
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  bytes.writeUInt32BE(crc32(bytes.subarray(12, 29)), 29);
  return bytes;
}

describe.each(databaseKinds)('images declaring too many pixels, on %s', (kind) => {
  const { start } = appsWithFiles(kind, 'botty-pixels-');

  it('refuses them with 413 naming the size, as chat attachments and as /v1 image_url parts, before the model', async () => {
    const fake = await startFakeLlm({ reply: 'A picture.' });
    try {
      const t = await start({ env: { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: fake.model } });
      const { token } = await signUp(t);
      const vision = await createBot(t, token, { capabilities: ['image_understanding'] });
      const conversation = await createConversation(t, token, vision.id);
      const attach = (name: string, bytes: Uint8Array) =>
        uploadFile(t, token, `/api/conversations/${conversation.id}/files`, name, bytes);

      const bomb = pngDeclaring(60_000, 60_000);
      expect(bomb.length).toBeLessThan(300);
      const refused = await attach('bomb.png', bomb);
      expect([refused.status, refused.body.message]).toEqual([413, IMAGE_MESSAGES.tooManyPixels(60_000, 60_000)]);
      expect(refused.body.message).toContain('at most 40 megapixels');
      // The limit itself is allowed; one more row of pixels is not.
      expect(MAX_IMAGE_PIXELS).toBe(8000 * 5000);
      expect((await attach('largest.png', pngDeclaring(8000, 5000))).status).toBe(201);
      expect((await attach('over.png', pngDeclaring(8000, 5001))).status).toBe(413);

      const key = await t.request('POST', '/api/keys', { token, body: { name: 'pixels', botId: vision.id } });
      const before = fake.requests.length;
      const res = await t.request('POST', '/v1/chat/completions', {
        headers: { authorization: `Bearer ${key.body.key}` },
        body: {
          model: `bot-${vision.id}`,
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: 'Look' },
                {
                  type: 'image_url',
                  image_url: { url: `data:image/png;base64,${Buffer.from(bomb).toString('base64')}` },
                },
              ],
            },
          ],
        },
      });
      expect(res.status).toBe(413);
      expect(res.body.error).toMatchObject({
        code: 'image_too_large',
        param: 'messages.0.content.1.image_url.url',
        message: IMAGE_MESSAGES.tooManyPixels(60_000, 60_000),
      });
      expect(fake.requests.length).toBe(before);
    } finally {
      await fake.close();
    }
  });
});
