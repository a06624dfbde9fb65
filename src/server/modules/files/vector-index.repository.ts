import { sql, type ExpressionBuilder } from 'kysely';
import type { Database, Executor } from '../../db/database';

/** An embeddings model's vectors: its own, and unlabelled ones when it is the model that wrote those. */
export interface VectorModel {
  id: string;
  readsUnlabelled: boolean;
}

export const ofModel = (model: VectorModel) => (eb: ExpressionBuilder<Database, 'file_chunks'>) =>
  model.readsUnlabelled
    ? eb.or([eb('file_chunks.embedding_model', '=', model.id), eb('file_chunks.embedding_model', 'is', null)])
    : eb('file_chunks.embedding_model', '=', model.id);

/** What an instance keeps per bot's knowledge and model (the copies, pgvector's counts): one key for both. */
export const knowledgeKey = (knowledge: { ownerId: number; botId: number }, model: VectorModel) =>
  `${knowledge.ownerId}:${knowledge.botId}:${model.readsUnlabelled ? '+' : ''}${model.id}`;

/** Moves whenever the bot's ready knowledge files change (triggers of migration 0027); null for no such bot. */
export async function readKnowledgeGeneration(db: Executor, botId: number): Promise<number | null> {
  const row = await db.selectFrom('bots').select('knowledge_generation').where('id', '=', botId).executeTakeFirst();
  return row ? Number(row.knowledge_generation) : null;
}

/** The passages with a vector of `model` in the ready knowledge files of `owner`'s bot. */
export const knowledgeVectorRows = (db: Executor, knowledge: { ownerId: number; botId: number }, model: VectorModel) =>
  db
    .selectFrom('file_chunks')
    .innerJoin('files', 'files.id', 'file_chunks.file_id')
    .where('files.status', '=', 'ready')
    .where('files.user_id', '=', knowledge.ownerId)
    .where('files.bot_id', '=', knowledge.botId)
    .where('files.conversation_id', 'is', null)
    .where('file_chunks.embedding', 'is not', null)
    .where(ofModel(model));

/** Ids, ascending, of the passages with a vector of `model` in the ready knowledge files of `owner`'s bot. */
export async function findKnowledgeVectorIds(
  db: Executor,
  knowledge: { ownerId: number; botId: number },
  model: VectorModel,
): Promise<number[]> {
  const rows = await knowledgeVectorRows(db, knowledge, model)
    .select('file_chunks.id')
    .orderBy('file_chunks.id')
    .execute();
  return rows.map((r) => Number(r.id));
}

/**
 * Every bot's knowledge with vectors of `model`: its owner, the bot and how many passages, the bots used most
 * recently first (never used ones last).
 */
export async function findKnowledgeWithVectors(db: Executor, model: VectorModel) {
  const rows = await db
    .selectFrom('file_chunks')
    .innerJoin('files', 'files.id', 'file_chunks.file_id')
    .innerJoin('bots', 'bots.id', 'files.bot_id')
    .select(['files.user_id as ownerId', 'files.bot_id as botId', (eb) => eb.fn.countAll<number>().as('passages')])
    .where('files.status', '=', 'ready')
    .where('files.conversation_id', 'is', null)
    .where('file_chunks.embedding', 'is not', null)
    .where(ofModel(model))
    .groupBy(['files.user_id', 'files.bot_id', 'bots.last_used'])
    .orderBy(sql`bots.last_used is null`)
    .orderBy('bots.last_used', 'desc')
    .orderBy('files.bot_id')
    .execute();
  return rows.map((r) => ({ ownerId: r.ownerId, botId: Number(r.botId), passages: Number(r.passages) }));
}

/** The vectors of these passages, of those still in a ready file. */
export const findVectors = (db: Executor, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('file_chunks')
        .innerJoin('files', 'files.id', 'file_chunks.file_id')
        .select(['file_chunks.id', sql<Uint8Array>`file_chunks.embedding`.as('embedding')])
        .where('file_chunks.id', 'in', ids)
        .where('files.status', '=', 'ready')
        .where('file_chunks.embedding', 'is not', null)
        .execute();

/** The vectors of `model` in one conversation's ready attachments of `userId`: a few files, compared one by one. */
export const findAttachmentVectors = (
  db: Executor,
  attachments: { userId: number; conversationId: number },
  model: VectorModel,
) =>
  db
    .selectFrom('file_chunks')
    .innerJoin('files', 'files.id', 'file_chunks.file_id')
    .select(['file_chunks.id', sql<Uint8Array>`file_chunks.embedding`.as('embedding')])
    .where('files.status', '=', 'ready')
    .where('files.user_id', '=', attachments.userId)
    .where('files.conversation_id', '=', attachments.conversationId)
    .where('file_chunks.embedding', 'is not', null)
    .where(ofModel(model))
    .execute();
