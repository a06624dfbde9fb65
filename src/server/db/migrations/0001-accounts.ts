import { sql } from 'kysely';
import type { Migration } from './migration';

export const accounts: Migration = {
  async up(db, t) {
    await db.schema
      .createTable('users')
      .addColumn('id', t.id, (c) => t.primaryKey(c))
      .addColumn('username', 'varchar(50)', (c) => c.notNull())
      .addColumn('email', 'varchar(254)', (c) => c.notNull())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('role', 'varchar(20)', (c) => c.notNull().defaultTo('user'))
      .addColumn('full_name', 'varchar(100)')
      .addColumn('profile_image_url', 'text')
      .addColumn('email_verified', t.boolean, (c) => c.notNull().defaultTo(t.false))
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .execute();
    // Uniqueness ignores case so "Alice" and "alice" cannot both register.
    await sql`create unique index users_username_lower on users (lower(username))`.execute(db);
    await sql`create unique index users_email_lower on users (lower(email))`.execute(db);

    await db.schema
      .createTable('sessions')
      .addColumn('id', t.id, (c) => t.primaryKey(c))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('remember', t.boolean, (c) => c.notNull().defaultTo(t.false))
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('expires_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();

    await db.schema
      .createTable('email_tokens')
      .addColumn('id', t.id, (c) => t.primaryKey(c))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('purpose', 'varchar(20)', (c) => c.notNull())
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('expires_at', t.timestamp, (c) => c.notNull())
      .addColumn('used_at', t.timestamp)
      .execute();
    await db.schema
      .createIndex('email_tokens_user_purpose')
      .on('email_tokens')
      .columns(['user_id', 'purpose'])
      .execute();
  },
};
