import type { ColumnType, Generated, Kysely, Transaction } from 'kysely';
import type { EvaluationStatus, VerdictKind } from '@shared/contracts/evaluations';
import type { FileProgress } from '@shared/contracts/files';

/** Booleans are 0/1 in SQLite and true/false in PostgreSQL; repositories read them through `Boolean()`. */
type Flag = ColumnType<boolean | number, boolean, boolean>;
/** A flag the database fills in when an insert leaves it out. */
type FlagWithDefault = ColumnType<boolean | number, boolean | undefined, boolean>;
/** Timestamps travel as ISO-8601 strings on both databases (see dialect.ts). */
type Timestamp = string;
/**
 * JSON is `text` in SQLite and `jsonb` in PostgreSQL: written as a JSON string, read back as a string or an
 * already-parsed value depending on the driver, so repositories pass reads through `fromJson()` (db/json.ts).
 */
type Json = ColumnType<unknown, string, string>;
/** A JSON column the database fills in when an insert leaves it out. */
type JsonWithDefault = ColumnType<unknown, string | undefined, string>;

export interface UsersTable {
  id: Generated<number>;
  username: string;
  email: string;
  password_hash: string;
  role: string;
  full_name: string | null;
  profile_image_url: string | null;
  email_verified: Flag;
  /** Pinned bots and the dark-mode choice (contracts/preferences.ts); null until first saved. */
  preferences: Json | null;
  /** Set while an admin has disabled the account: its sessions and API keys stop working. */
  disabled_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  /** Daily limits of this account; null means its role's default (app_settings 'defaultLimits'). */
  daily_token_limit: ColumnType<number | string | null, number | null | undefined, number | null>;
  daily_reply_limit: ColumnType<number | null, number | null | undefined, number | null>;
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

export interface BotsTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  description: string;
  purpose: string;
  icon: string;
  active: Flag;
  capabilities: Json;
  config: Json;
  example_queries: JsonWithDefault;
  test_notes: JsonWithDefault;
  /** The number of its latest row in bot_versions. */
  version: Generated<number>;
  usage_count: Generated<number>;
  last_used: Timestamp | null;
  /** Moves whenever its ready knowledge files change (triggers of migration 0027): see vector-index.ts. */
  knowledge_generation: Generated<number>;
  /** Who may use the bot besides its owner (issue 12). */
  visibility: Generated<BotVisibility>;
  /** Hash of the unguessable slug of the bot's link (decisions §5); null while it has no link. */
  share_hash: string | null;
  /** Whether people the bot is shared with may read its prompt and settings. */
  show_prompt: FlagWithDefault;
  /** Origins (scheme://host[:port]) allowed to embed the bot's widget. */
  embed_origins: JsonWithDefault;
  /** Questions the widget's anonymous visitors may ask per day, all together. */
  embed_daily_cap: Generated<number>;
  /** The widget's colour, title, corner, greeting and starters (contracts/widget.ts); `{}` reads as the defaults. */
  embed_appearance: JsonWithDefault;
  /** The version everyone but the owner gets; null until the first release (everyone gets the latest). */
  published_version: number | null;
  /** The owner's release gate (contracts/releases.ts); null reads as the defaults. */
  release_gate: Json | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type BotVisibility = 'private' | 'link' | 'public';

/** Who opened a shared bot through its link: the right to chat with it, and its count of users. */
export interface BotGuestsTable {
  bot_id: number;
  user_id: number;
  first_seen: Timestamp;
  last_seen: Timestamp;
}

export interface BotVersionsTable {
  id: Generated<number>;
  bot_id: number;
  number: number;
  /** Names of the fields that differ from the previous version. */
  changed: Json;
  /** The bot's prompt and settings as they were (`BotSnapshot`, contracts/bot-versions.ts). */
  snapshot: Json;
  /** The version this one restored, when it was written by a restore. */
  restored_from: number | null;
  created_at: Timestamp;
}

export type ReleaseStatus = 'checking' | 'published' | 'blocked' | 'failed';

export interface BotReleasesTable {
  id: Generated<number>;
  bot_id: number;
  version: number;
  status: ReleaseStatus;
  skip_gate: FlagWithDefault;
  override_reason: string | null;
  baseline_version: number | null;
  evaluation_id: number | null;
  baseline_evaluation_id: number | null;
  /** What the gate found (ReleaseVerdict, contracts/releases.ts). */
  verdict: Json | null;
  message: string | null;
  created_by: number | null;
  created_at: Timestamp;
  decided_at: Timestamp | null;
}

export type { EvaluationStatus };

export interface EvaluationsTable {
  id: Generated<number>;
  bot_id: number;
  bot_version: number;
  status: EvaluationStatus;
  /** Queries in the test set when it started. */
  total: number;
  created_at: Timestamp;
  /** Last progress. */
  updated_at: Timestamp;
  /** Held by the instance running it, renewed as it goes; once past, another instance resumes it (0021). */
  lease_until: Timestamp | null;
  /** The release this run checks (bot_releases), when one queued it. */
  release_id: number | null;
  /** The questions it asks (`{ id, query, expected }[]`), fixed when queued; null in runs from before 0021. */
  test_set: Json | null;
}

export interface EvaluationResultsTable {
  id: Generated<number>;
  evaluation_id: number;
  ord: number;
  /** The test case asked; null in runs from before 0021. */
  test_case_id: number | null;
  query: string;
  answer: string | null;
  verdict: VerdictKind | null;
  /** The judge's 1–5 grade. */
  score: number | null;
  reason: string | null;
  /** Why the query got no answer or no verdict. */
  error: string | null;
  /** Share of the answer's checkable sentences its sources support, 0–1; null without sources (migration 0025). */
  faithfulness: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface ActivitiesTable {
  id: Generated<number>;
  user_id: number;
  type: string;
  description: string;
  /** Not a foreign key: the history outlives the bot. */
  bot_id: number | null;
  bot_name: string | null;
  created_at: Timestamp;
}

export interface ConversationsTable {
  id: Generated<number>;
  bot_id: number;
  user_id: number;
  title: string;
  title_source: Generated<'default' | 'auto' | 'user'>;
  /** `app`: owned by whoever chats; `widget`: owned by the bot's owner, one per anonymous embed visitor. */
  channel: Generated<ConversationChannel>;
  /** For widget conversations: hash of the key the visitor's browser keeps. */
  visitor_hash: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type ConversationChannel = 'app' | 'widget';

export type MessageRole = 'user' | 'assistant';

export interface MessagesTable {
  id: Generated<number>;
  conversation_id: number;
  /** The conversation's owner, filled in by the database on insert, so search scans one user's messages. */
  user_id: Generated<number>;
  role: MessageRole;
  content: string;
  /** 'complete' unless a reply is being written, or was stopped, failed or interrupted part-way. */
  status: Generated<string>;
  created_at: Timestamp;
  /** Last checkpoint of a reply being written; a stale one means its instance died. */
  updated_at: Timestamp | null;
  sources: Json | null;
  steps: Json | null;
  file_ids: Json | null;
  input_tokens: number | null;
  output_tokens: number | null;
  first_token_ms: number | null;
  reply_ms: number | null;
  /** The message before it on its branch; null for a conversation's first. */
  parent_id: number | null;
  /** On the branch the conversation shows and the model sees. */
  active: ColumnType<boolean | number, boolean | undefined, boolean>;
  /** For a reply: the bot's version in force when it was written. */
  bot_version: number | null;
  /** For a reply: the user's thumbs up or down, and what they said about it. */
  rating: 'up' | 'down' | null;
  rating_comment: string | null;
  rated_at: Timestamp | null;
  /** For a reply: the model that wrote it, as a model id of contracts/admin.ts (`connectionId/model`). */
  model: ColumnType<string | null, string | null | undefined, string | null>;
  /** For a reply with sources: its sentences checked against them (contracts/chat.ts Support), once checked. */
  support: Json | null;
}

export type FileStatus = 'processing' | 'ready' | 'failed';

export interface FilesTable {
  id: Generated<number>;
  user_id: number;
  /** The bot whose knowledge it is, or whose conversation it was attached to. */
  bot_id: number | null;
  /** Set for a conversation's attachment; null for a bot's knowledge file. */
  conversation_id: number | null;
  name: string;
  media_type: string;
  size: number;
  storage_key: string;
  status: FileStatus;
  error: string | null;
  chunk_count: Generated<number>;
  attempts: Generated<number>;
  lease_until: Timestamp | null;
  /** Pages read so far, of `progress_total`, while the file is processing (migration 0017). */
  progress_done: ColumnType<number | null, number | null | undefined, number | null>;
  progress_total: ColumnType<number | null, number | null | undefined, number | null>;
  /** What `progress_done` counts: `pages` read, or `ocr` pages read by OCR (null: OCR, migration 0026). */
  progress_stage: ColumnType<
    FileProgress['stage'] | null,
    FileProgress['stage'] | null | undefined,
    FileProgress['stage'] | null
  >;
  /** SHA-256 of the bytes as uploaded (hex); null for files uploaded before migration 0024. */
  content_hash: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface FileChunksTable {
  id: Generated<number>;
  file_id: number;
  ord: number;
  text: string;
  page: number | null;
  section: string | null;
  /** Float32 little-endian vector, when an embeddings model is configured. */
  embedding: Buffer | null;
  /** The model id that wrote `embedding`; null for vectors from before it was recorded (LLM_EMBEDDING_MODEL's). */
  embedding_model: string | null;
  /** `embedding` as pgvector's `vector`: the column exists only where pgvector is on (pgvector-index.ts). */
  embedding_vector?: string | null;
}

export interface FileBlobDeletionsTable {
  storage_key: string;
}

export interface ApiKeysTable {
  id: Generated<number>;
  user_id: number;
  /** null: all of the owner's bots. */
  bot_id: number | null;
  name: string;
  /** The key's first characters, shown so its owner can tell keys apart. */
  prefix: string;
  key_hash: string;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
  expires_at: Timestamp | null;
}

export interface ConversationSharesTable {
  id: Generated<number>;
  conversation_id: number;
  user_id: number;
  token_hash: string;
  /** The snapshot as shown to visitors (contracts/shares.ts), taken when shared. */
  snapshot: Json;
  created_at: Timestamp;
  expires_at: Timestamp | null;
}

export type ConnectionKind = 'openai-compatible' | 'openai' | 'anthropic';

/** An AI connection an admin added (issue 23); the environment's LLM_* connection is not stored. */
export interface AiConnectionsTable {
  id: Generated<number>;
  name: string;
  kind: ConnectionKind;
  base_url: string | null;
  /** AES-256-GCM ciphertext of the API key (lib/secret-box.ts); never returned by an API. */
  api_key_cipher: string | null;
  api_key_last4: string | null;
  allow_private_address: FlagWithDefault;
  /** The model names people may use, as the server lists them. */
  enabled_models: JsonWithDefault;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** An MCP server a person added, or an admin for everyone (`shared`), issue 24. */
export interface McpServersTable {
  id: Generated<number>;
  user_id: number;
  shared: FlagWithDefault;
  name: string;
  url: string;
  transport: 'streamable-http' | 'sse';
  /** AES-256-GCM ciphertexts (lib/secret-box.ts): the bearer token, and the header values as one JSON object. */
  bearer_token_cipher: string | null;
  bearer_token_last4: string | null;
  headers_cipher: string | null;
  header_names: JsonWithDefault;
  allow_private_address: FlagWithDefault;
  status: ColumnType<'ok' | 'error' | 'unknown', 'ok' | 'error' | 'unknown' | undefined>;
  error: string | null;
  /** The tools the server listed last (contracts/mcp-servers.ts McpTool[]) with their input schemas. */
  tools: JsonWithDefault;
  refreshed_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A tool call that asked the person chatting, and their answer (issue 24, decision 0038). */
export interface ToolApprovalsTable {
  id: Generated<number>;
  conversation_id: number;
  call_id: string;
  server: string;
  tool: string;
  /** Null while the call waits; written once. */
  decision: 'approved' | 'denied' | 'timed_out' | null;
  /** The answer stands for this server's tool for the rest of the conversation. */
  always: FlagWithDefault;
  created_at: Timestamp;
  decided_at: Timestamp | null;
}

/** One question of a bot's test set (issue 25, decision 0041); `query` is unique per bot. */
export interface TestCasesTable {
  id: Generated<number>;
  bot_id: number;
  query: string;
  /** The expected answer or criteria the judge reads; null when any fitting answer passes. */
  expected: string | null;
  /** string[] */
  tags: JsonWithDefault;
  /** The rated reply the case was made from; not a foreign key, the case outlives the conversation. */
  source_message_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Instance-wide settings an admin changes in the console, one JSON value per key (contracts/admin.ts). */
export interface AppSettingsTable {
  key: string;
  value: Json;
  updated_at: Timestamp;
}

export interface InvitationsTable {
  id: Generated<number>;
  token_hash: string;
  email: string | null;
  created_by: number | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  used_by: number | null;
}

/** Usage rolled up per day, user, bot (0: none) and model; bigints read back as strings on PostgreSQL. */
export interface UsageDailyTable {
  day: string;
  user_id: number;
  bot_id: number;
  model: string;
  replies: ColumnType<number, number | undefined, number>;
  input_tokens: ColumnType<number | string, number | undefined, number>;
  output_tokens: ColumnType<number | string, number | undefined, number>;
  estimated_replies: ColumnType<number, number | undefined, number>;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  email_tokens: EmailTokensTable;
  bots: BotsTable;
  bot_guests: BotGuestsTable;
  bot_versions: BotVersionsTable;
  bot_releases: BotReleasesTable;
  evaluations: EvaluationsTable;
  evaluation_results: EvaluationResultsTable;
  activities: ActivitiesTable;
  conversations: ConversationsTable;
  messages: MessagesTable;
  files: FilesTable;
  file_chunks: FileChunksTable;
  file_blob_deletions: FileBlobDeletionsTable;
  api_keys: ApiKeysTable;
  conversation_shares: ConversationSharesTable;
  ai_connections: AiConnectionsTable;
  app_settings: AppSettingsTable;
  invitations: InvitationsTable;
  usage_daily: UsageDailyTable;
  mcp_servers: McpServersTable;
  tool_approvals: ToolApprovalsTable;
  test_cases: TestCasesTable;
}

/** What repositories run their queries on: the database itself or an open transaction. */
export type Executor = Kysely<Database> | Transaction<Database>;

export type DatabaseKind = 'sqlite' | 'postgres';

/**
 * An executor with the engine it runs on: what repositories whose SQL differs by engine take, so that services
 * pass one value around and never branch on the engine themselves. A Db is one; writeAtomically hands out others.
 */
export interface DbScope {
  kysely: Executor;
  kind: DatabaseKind;
}

export interface Db {
  kysely: Kysely<Database>;
  kind: DatabaseKind;
  /** The PostgreSQL schema the tables live in, when not the default one. */
  schema?: string;
  close(): Promise<void>;
}
