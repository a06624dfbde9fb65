import type { Migration } from './migration';

/** SQLite gives JSON columns back as text, PostgreSQL as values (db/json.ts; not importable from a migration). */
const parsed = (value: unknown): unknown => (typeof value === 'string' ? JSON.parse(value) : value);

/**
 * Training keeps what it learns: a bot's example queries (its test set and chat starters) and the user's notes
 * on their answers; every change to its prompt or settings becomes a numbered version with a full snapshot;
 * each reply remembers the version that wrote it, and the user's rating of it.
 */
export const training: Migration = {
  async up(db, t) {
    await db.schema
      .alterTable('bots')
      .addColumn('example_queries', t.json, (c) => c.notNull().defaultTo('[]'))
      .execute();
    await db.schema
      .alterTable('bots')
      .addColumn('test_notes', t.json, (c) => c.notNull().defaultTo('[]'))
      .execute();
    await db.schema
      .alterTable('bots')
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();

    await db.schema
      .createTable('bot_versions')
      .addColumn('id', t.id, (c) => t.primaryKey(c))
      .addColumn('bot_id', 'integer', (c) => c.notNull().references('bots.id').onDelete('cascade'))
      .addColumn('number', 'integer', (c) => c.notNull())
      .addColumn('changed', t.json, (c) => c.notNull())
      .addColumn('snapshot', t.json, (c) => c.notNull())
      .addColumn('restored_from', 'integer')
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addUniqueConstraint('bot_versions_bot_number', ['bot_id', 'number'])
      .execute();

    for (const [name, type] of [
      ['bot_version', 'integer'],
      ['rating', 'varchar(10)'],
      ['rating_comment', 'text'],
      ['rated_at', t.timestamp],
    ] as const) {
      await db.schema.alterTable('messages').addColumn(name, type).execute();
    }

    // Bots made before versions start their history with what they are now (`snapshotOf`, bots/bot-snapshot.ts).
    const bots = await db.selectFrom('bots').selectAll().execute();
    for (const bot of bots) {
      const snapshot = {
        name: bot.name,
        description: bot.description,
        purpose: bot.purpose,
        icon: bot.icon,
        capabilities: parsed(bot.capabilities),
        config: parsed(bot.config),
        exampleQueries: [],
      };
      await db
        .insertInto('bot_versions')
        .values({
          bot_id: bot.id,
          number: 1,
          changed: '[]',
          snapshot: JSON.stringify(snapshot),
          created_at: bot.updated_at,
        })
        .execute();
    }
  },
};
