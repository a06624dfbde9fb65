import { buffer } from 'node:stream/consumers';
import { capabilityEnables } from '@shared/bots/capabilities';
import type { ReplyContextProvider } from '../replies/reply-context';
import { addSource } from '../replies/reply-context';
import { formatByMediaType } from './file-formats';
import { findOwnedFile } from './files.repository';
import { searchChunks, type RetrievalDeps } from './retrieval';
import type { FileStorage } from './storage';

export interface KnowledgeContextDeps extends RetrievalDeps {
  storage: FileStorage;
}

/** Long enough for a model to answer from, short enough that five of them fit any context window. */
const PASSAGE_MAX_CHARS = 2_000;

/**
 * What a bot's files add to a reply: the passages of its knowledge and of the conversation's documents that best
 * match the question, as numbered sources in the system prompt (`document_analysis`), and the images the
 * question carried, for a vision model (`image_understanding`). Only the bot's own files and this
 * conversation's attachments are ever searched (`searchChunks` scopes by owner, bot and conversation). A visitor
 * of a shared bot gets its owner's passages as sources, never the files themselves (those stay owner-only).
 */
export function knowledgeReplyContext(deps: KnowledgeContextDeps): ReplyContextProvider {
  return async ({ userId, bot, question, log }, context) => {
    // A draft of the wizard (no bot yet) has no files to read.
    if (bot.id !== null && capabilityEnables(bot, 'knowledge')) {
      const passages = await searchChunks(
        { ...deps, log },
        {
          userId,
          ownerId: bot.userId,
          botId: bot.id,
          conversationId: question.conversationId,
          query: question.content,
        },
      );
      const numbered = passages.map((p) => {
        const n = addSource(context, {
          kind: 'file',
          fileId: p.fileId,
          title: p.fileName,
          page: p.page,
          section: p.section,
          snippet: p.snippet,
        });
        const where = [p.fileName, p.page ? `page ${p.page}` : null, p.section].filter(Boolean).join(', ');
        return `[${n}] (${where})\n${p.text.slice(0, PASSAGE_MAX_CHARS)}`;
      });
      if (numbered.length) {
        context.instructions.push(
          `Numbered sources from the files you were given (your knowledge and the user's attachments):\n\n${numbered.join('\n\n')}`,
        );
      }
    }
    if (capabilityEnables(bot, 'images')) {
      for (const attachment of question.attachments) {
        if (formatByMediaType(attachment.mediaType)?.kind !== 'image') continue;
        const file = await findOwnedFile(deps.db.kysely, userId, attachment.id);
        if (!file) continue;
        const data = new Uint8Array(await buffer(await deps.storage.get(file.storage_key)));
        context.images.push({ mediaType: file.media_type, data });
      }
    }
  };
}
