import { sql } from 'kysely';
import type { Migration } from './migration';

/**
 * A counter per bot that moves whenever the set of passages its knowledge search reads changes (issue 26,
 * decision 0048): a knowledge file becomes ready, stops being ready (read again) or goes. Each instance keeps
 * the bot's vectors in memory and reloads what changed once the counter it read last has moved, so instances
 * sharing one database keep answering from the same passages. Written by triggers, so no path that changes
 * files (routes, the job runner, cascades from a bot or an account) can forget it.
 */
export const knowledgeGeneration: Migration = {
  async up(db, t) {
    await db.schema
      .alterTable('bots')
      .addColumn('knowledge_generation', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    const bump = (row: 'new' | 'old') =>
      sql.raw(`update bots set knowledge_generation = knowledge_generation + 1 where id = ${row}.bot_id`);
    if (t.kind === 'sqlite') {
      await sql`create trigger files_knowledge_insert after insert on files
        when new.status = 'ready' and new.conversation_id is null begin ${bump('new')}; end`.execute(db);
      await sql`create trigger files_knowledge_update after update of status on files
        when new.conversation_id is null and (old.status = 'ready' or new.status = 'ready') begin ${bump('new')}; end`.execute(
        db,
      );
      await sql`create trigger files_knowledge_delete after delete on files
        when old.status = 'ready' and old.conversation_id is null begin ${bump('old')}; end`.execute(db);
    } else {
      await sql`create function files_knowledge_generation() returns trigger language plpgsql as $$
        begin
          if tg_op = 'DELETE' then ${bump('old')}; return old; end if;
          ${bump('new')};
          return new;
        end $$`.execute(db);
      await sql`create trigger files_knowledge_insert after insert on files for each row
        when (new.status = 'ready' and new.conversation_id is null) execute function files_knowledge_generation()`.execute(
        db,
      );
      await sql`create trigger files_knowledge_update after update of status on files for each row
        when (new.conversation_id is null and (old.status = 'ready' or new.status = 'ready'))
        execute function files_knowledge_generation()`.execute(db);
      await sql`create trigger files_knowledge_delete after delete on files for each row
        when (old.status = 'ready' and old.conversation_id is null) execute function files_knowledge_generation()`.execute(
        db,
      );
    }
  },
};
