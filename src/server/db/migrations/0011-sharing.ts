import type { Migration } from './migration';

/**
 * Bots leave their owner's account (issue 12): who may use a bot (`visibility`), the hash of the unguessable slug its
 * link carries (decisions §5: stored hashed, since it grants access), whether visitors may read its prompt, and the sites that may embed it with a daily cap on what
 * their anonymous visitors ask. Conversations say where they happen: in Botty (`app`, owned by the person who
 * chats) or in an embedded widget (`widget`, owned by the bot's owner and told apart by the hash of the
 * visitor's browser key). `bot_guests` remembers who opened a shared bot by its link: the link grants the
 * right to chat, and the owner sees how many people use the bot.
 */
export const sharing: Migration = {
  async up(db, t) {
    await db.schema
      .alterTable('bots')
      .addColumn('visibility', 'varchar(10)', (c) => c.notNull().defaultTo('private'))
      .execute();
    await db.schema.alterTable('bots').addColumn('share_hash', 'varchar(64)').execute();
    await db.schema
      .alterTable('bots')
      .addColumn('show_prompt', t.boolean, (c) => c.notNull().defaultTo(t.false))
      .execute();
    await db.schema
      .alterTable('bots')
      .addColumn('embed_origins', t.json, (c) => c.notNull().defaultTo('[]'))
      .execute();
    await db.schema
      .alterTable('bots')
      .addColumn('embed_daily_cap', 'integer', (c) => c.notNull().defaultTo(200))
      .execute();
    await db.schema.createIndex('bots_share_hash').unique().on('bots').column('share_hash').execute();
    await db.schema.createIndex('bots_visibility').on('bots').columns(['visibility', 'updated_at']).execute();

    await db.schema
      .alterTable('conversations')
      .addColumn('channel', 'varchar(10)', (c) => c.notNull().defaultTo('app'))
      .execute();
    await db.schema.alterTable('conversations').addColumn('visitor_hash', 'varchar(64)').execute();
    await db.schema
      .createIndex('conversations_widget_visitor')
      .on('conversations')
      .columns(['bot_id', 'channel', 'visitor_hash'])
      .execute();

    await db.schema
      .createTable('bot_guests')
      .addColumn('bot_id', 'integer', (c) => c.notNull().references('bots.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('first_seen', t.timestamp, (c) => c.notNull())
      .addColumn('last_seen', t.timestamp, (c) => c.notNull())
      .addPrimaryKeyConstraint('bot_guests_pk', ['bot_id', 'user_id'])
      .execute();
    await db.schema.createIndex('bot_guests_user').on('bot_guests').column('user_id').execute();
  },
};
