import type { ColumnType, Generated, Kysely } from 'kysely';

/** Booleans are 0/1 in SQLite and true/false in PostgreSQL; repositories read them through `Boolean()`. */
type Flag = ColumnType<boolean | number, boolean, boolean>;
/** Timestamps travel as ISO-8601 strings on both databases (see dialect.ts). */
type Timestamp = string;

export interface UsersTable {
  id: Generated<number>;
  username: string;
  email: string;
  password_hash: string;
  role: string;
  full_name: string | null;
  profile_image_url: string | null;
  email_verified: Flag;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  remember: Flag;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export type EmailTokenPurpose = 'verify_email' | 'reset_password';

export interface EmailTokensTable {
  id: Generated<number>;
  user_id: number;
  purpose: EmailTokenPurpose;
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  email_tokens: EmailTokensTable;
}

export type DatabaseKind = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  kind: DatabaseKind;
  /** The PostgreSQL schema the tables live in, when not the default one. */
  schema?: string;
  close(): Promise<void>;
}
