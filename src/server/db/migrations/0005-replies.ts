import type { Migration } from './migration';

/**
 * Replies become durable and informative: the row exists from the first token (status `streaming`) and is
 * checkpointed as it grows (`updated_at`), so a crash leaves what had streamed, marked `interrupted`. Each reply
 * also keeps the sources it used, the research steps it took, the files its question carried, token usage and
 * its timings (first token, whole reply).
 */
export const replies: Migration = {
  async up(db, t) {
    for (const [name, type] of [
      ['updated_at', t.timestamp],
      ['sources', t.json],
      ['steps', t.json],
      ['file_ids', t.json],
      ['input_tokens', 'integer'],
      ['output_tokens', 'integer'],
      ['first_token_ms', 'integer'],
      ['reply_ms', 'integer'],
    ] as const) {
      await db.schema.alterTable('messages').addColumn(name, type).execute();
    }
    await db.schema.createIndex('messages_status_updated').on('messages').columns(['status', 'updated_at']).execute();
  },
};
