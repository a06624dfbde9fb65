import { imageSize } from 'image-size';
import { imageRefusal, type ModelCapabilities } from '../model-capabilities';
import type { ChatTurn } from './chat-prompt';
import { CHAT_ERRORS, ChatReplyError } from './model-errors';

/** Refuses, before the model is asked, an image its provider would refuse (and blame on the model's vision). */
export function checkImages(capabilities: ModelCapabilities, turns: ChatTurn[]) {
  if (capabilities.maxImageBase64Bytes === null && capabilities.maxImageSide === null) return;
  for (const image of turns.flatMap((turn) => turn.images ?? [])) {
    let size: { width?: number; height?: number } = {};
    try {
      size = imageSize(image.data);
    } catch {
      // Its type was checked when it was received; the provider tells about anything else.
    }
    const refusal = imageRefusal(capabilities, { byteLength: image.data.byteLength, ...size });
    if (refusal) {
      throw new ChatReplyError(
        'maxBase64Bytes' in refusal
          ? CHAT_ERRORS.imageTooLarge(refusal.maxBase64Bytes)
          : CHAT_ERRORS.imageTooWide(refusal.maxSide),
        { kind: 'image-too-large' },
      );
    }
  }
}
