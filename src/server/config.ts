import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { registerBodySchema } from '@shared/contracts/auth';
import { EXTRACTION_PRIORITIES, type ExtractionPriority } from './modules/files/background-priority';

/** Thrown when an environment variable has a bad value; main.ts prints its one line and exits. */
export class ConfigError extends Error {}

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const url = (protocols: RegExp, hint: string) =>
  optionalString.refine((v) => v === undefined || (URL.canParse(v) && protocols.test(new URL(v).protocol)), hint);

const positiveInt = (fallback: number) =>
  optionalString
    .transform((v) => (v === undefined ? fallback : Number(v)))
    .pipe(z.number({ error: 'must be a whole number' }).int('must be a whole number').min(1, 'must be at least 1'));

const commaList = optionalString.transform((v) =>
  (v ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean),
);

/** A bare host or IP address as URLs spell it (IPv6 with or without brackets), with no port or path. */
const isBareHost = (value: string) =>
  /^[\w.[\]:-]+$/.test(value) &&
  [`http://${value}`, `http://[${value}]`].some(
    (u) => URL.canParse(u) && new URL(u).port === '' && !!new URL(u).hostname,
  );

const PORT_LIST = 'must be a comma-separated list of port numbers';

/** An origin exactly as a browser sends it: scheme, host and port only (`https://app.example.com`). */
const isOrigin = (value: string) => URL.canParse(value) && new URL(value).origin === value.replace(/\/+$/, '');

const envSchema = z.object({
  PORT: optionalString
    .transform((v) => (v === undefined ? 5000 : Number(v)))
    .pipe(z.number({ error: 'must be a port number' }).int('must be a port number').min(0).max(65535)),
  HOST: optionalString.pipe(z.string().default('0.0.0.0')),
  APP_URL: url(/^https?:$/, 'must be an http(s) URL such as https://botty.example.com'),
  DATABASE_URL: optionalString.pipe(z.string().default('./data/botty.db')),
  REDIS_URL: url(/^rediss?:$/, 'must be a redis:// or rediss:// URL'),
  REDIS_KEY_PREFIX: optionalString.pipe(z.string().default('botty:')),
  SMTP_URL: url(/^smtps?:$/, 'must be an smtp:// or smtps:// URL such as smtp://user:pass@host:587'),
  MAIL_FROM: optionalString.pipe(z.string().default('Botty <no-reply@localhost>')),
  EMAIL_VERIFICATION: optionalString.pipe(z.enum(['required', 'off']).optional()),
  LLM_PROVIDER: optionalString.pipe(z.enum(['openai-compatible', 'openai', 'anthropic', 'offline']).optional()),
  LLM_BASE_URL: url(/^https?:$/, 'must be an http(s) URL such as http://127.0.0.1:11434/v1'),
  LLM_API_KEY: optionalString,
  LLM_MODEL: optionalString,
  // Encrypts connection API keys at rest (lib/secret-box.ts).
  SECRET_KEY: optionalString.refine(
    (v) => v === undefined || v.length >= 32,
    'must be 64 hex characters, base64 of 32 bytes, or a passphrase of at least 32 characters',
  ),
  // The bootstrap superadmin obeys the same rules as anyone who registers.
  ADMIN_USERNAME: optionalString.pipe(registerBodySchema.shape.username.optional()),
  ADMIN_EMAIL: optionalString.pipe(registerBodySchema.shape.email.optional()),
  ADMIN_PASSWORD: optionalString.pipe(registerBodySchema.shape.password.optional()),
  // Off unless the operator says a proxy sits in front: otherwise X-Forwarded-For would let anyone dodge rate limits.
  TRUST_PROXY: optionalString
    .transform((v) => (v === undefined || v === 'false' ? 0 : v === 'true' ? 1 : Number(v)))
    .pipe(
      z
        .number({ error: 'must be true, false or the number of proxies in front' })
        .int('must be true, false or the number of proxies in front')
        .min(0),
    ),
  // Knowledge files and attachments (issue 8).
  FILES_DIR: optionalString.pipe(z.string().default('./data/files')),
  S3_BUCKET: optionalString,
  S3_ENDPOINT: url(/^https?:$/, 'must be an http(s) URL such as https://s3.example.com'),
  S3_REGION: optionalString.pipe(z.string().default('us-east-1')),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  FILES_MAX_DOCUMENT_BYTES: positiveInt(20 * 1024 * 1024),
  FILES_MAX_IMAGE_BYTES: positiveInt(10 * 1024 * 1024),
  FILES_MAX_PER_BOT: positiveInt(500),
  FILES_MAX_BYTES_PER_USER: positiveInt(500 * 1024 * 1024),
  LLM_EMBEDDING_MODEL: optionalString,
  // Reading knowledge files (issue 26): files read at once, each in a worker thread, leaving a core to requests.
  FILES_EXTRACTION_WORKERS: positiveInt(Math.max(1, availableParallelism() - 1)),
  FILES_PDFTOTEXT: optionalString.pipe(z.string().default('pdftotext')),
  FILES_EXTRACTION_PRIORITY: optionalString.pipe(z.enum(EXTRACTION_PRIORITIES).default('idle')),
  // Bot files (issue 12): the largest .json or .zip a bot can be imported from.
  BOT_IMPORT_MAX_BYTES: positiveInt(50 * 1024 * 1024),
  // Web research (issue 13).
  SEARCH_PROVIDER: optionalString.pipe(z.enum(['searxng', 'brave', 'tavily', 'none']).default('none')),
  SEARCH_URL: url(/^https?:$/, 'must be an http(s) URL such as http://127.0.0.1:8888'),
  SEARCH_API_KEY: optionalString,
  WEB_FETCH_ALLOW_HOSTS: commaList.pipe(
    z.array(z.string().refine(isBareHost, 'must be a comma-separated list of host names or IP addresses')),
  ),
  WEB_FETCH_ALLOW_PORTS: commaList
    .transform((ports) => ports.map(Number))
    .pipe(z.array(z.number({ error: PORT_LIST }).int(PORT_LIST).min(1, PORT_LIST).max(65535, PORT_LIST))),
  // Operator overrides (issue 10): attempts per minute, and the chat's time limits.
  RATE_LIMIT_AUTH_PER_MINUTE: positiveInt(10),
  RATE_LIMIT_SIGNIN_PER_ACCOUNT_PER_HOUR: positiveInt(30),
  RATE_LIMIT_MODEL_CALLS_PER_MINUTE: positiveInt(30),
  RATE_LIMIT_PROMPT_GENERATION_PER_MINUTE: positiveInt(30),
  RATE_LIMIT_API_KEY_PER_MINUTE: positiveInt(60),
  RATE_LIMIT_SHARES_PER_MINUTE: positiveInt(60),
  RATE_LIMIT_WIDGET_PER_MINUTE: positiveInt(20),
  CHAT_FIRST_TOKEN_TIMEOUT_MS: positiveInt(30_000),
  CHAT_TOTAL_TIMEOUT_MS: positiveInt(120_000),
  CHAT_STALE_REPLY_MS: positiveInt(15_000),
  // Bots' tools (issue 24): how long one MCP tool call may take.
  MCP_TOOL_TIMEOUT_MS: positiveInt(30_000),
  // How long a tool call waits for the person's Approve or Deny (issue 24).
  TOOL_APPROVAL_TIMEOUT_MS: positiveInt(600_000),
  // Browser apps calling the APIs with an API key (issue 24).
  API_CORS_ORIGINS: commaList.pipe(
    z.array(
      z
        .string()
        .refine(isOrigin, 'must be a comma-separated list of origins such as https://app.example.com')
        .transform((origin) => origin.replace(/\/+$/, '')),
    ),
  ),
  // Operating it (issue 27).
  SHUTDOWN_DRAIN_MS: positiveInt(10_000),
  METRICS_TOKEN: optionalString,
  SESSION_CACHE_MS: optionalString
    .transform((v) => (v === undefined ? 5000 : Number(v)))
    .pipe(z.number({ error: 'must be a whole number' }).int('must be a whole number').min(0, 'must be at least 0')),
  LOG_LEVEL: optionalString.pipe(
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
});

export type LlmProvider = 'openai-compatible' | 'openai' | 'anthropic' | 'offline';

export interface Config {
  port: number;
  host: string;
  appUrl: string;
  database: { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };
  redisUrl: string | undefined;
  /** Starts every Redis key and channel, so several deployments can share one Redis. */
  redisKeyPrefix: string;
  mail: { smtpUrl: string | undefined; from: string };
  emailVerificationRequired: boolean;
  llm: { provider: LlmProvider; baseUrl: string | undefined; apiKey: string | undefined; model: string | undefined };
  /** Encrypts secrets stored in the database; unset: a key generated once into the data folder. */
  secretKey: string | undefined;
  admin: { username: string; email: string; password: string } | undefined;
  logLevel: string;
  /** How many reverse proxies in front of the server may set X-Forwarded-For. */
  trustedProxyHops: number;
  /** How long a session read stays remembered (decision 0020); 0: read on every request. */
  sessionCacheMs: number;
  /** On SIGTERM, how long the replies running here get to finish before they are stopped (saved as they are). */
  shutdownDrainMs: number;
  /** The bearer token GET /metrics asks for; without it there are no metrics. */
  metricsToken: string | undefined;
  /** Browser origins allowed to call `/v1` and `/mcp` (CORS); none by default. */
  apiCorsOrigins: string[];
  files: FilesConfig;
  /** The largest bot file (.json, or .zip with its knowledge) an import accepts. */
  botImportMaxBytes: number;
  web: WebConfig;
  /** Bots' MCP tools: how long one call may take before the model is told it timed out. */
  mcp: { toolTimeoutMs: number };
  /** Per minute: per address for sign-in, sign-up and e-mail links; per user for model calls and prompts. */
  rateLimits: {
    authPerMinute: number;
    /** Sign-in attempts on one account from anywhere: slows a password-guessing botnet. */
    signInPerAccountPerHour: number;
    modelCallsPerMinute: number;
    promptGenerationPerMinute: number;
    /** Calls of the OpenAI-compatible API per key. */
    apiKeyPerMinute: number;
    /** Snapshot link reads per address. */
    sharesPerMinute: number;
    /** Embedded widget calls (page, messages, questions) per address. */
    widgetPerMinute: number;
  };
  chat: {
    firstTokenTimeoutMs: number;
    totalTimeoutMs: number;
    /** A reply not checkpointed for this long lost its instance and is marked interrupted. */
    staleReplyMs: number;
    /** How long a tool call waits for the person's answer before it is given up (not run). */
    toolApprovalTimeoutMs: number;
  };
}

export interface WebConfig {
  search: { provider: 'searxng' | 'brave' | 'tavily' | 'none'; url: string | undefined; apiKey: string | undefined };
  /** UNSAFE anywhere but tests: hosts the page fetch may reach although they are loopback or private. */
  fetchAllowHosts: string[];
  /** Ports the page fetch may use besides 80 and 443. */
  fetchAllowPorts: number[];
}

export interface FilesConfig {
  dir: string;
  /** Set when S3_BUCKET is: the files live in S3-compatible object storage instead of `dir`. */
  s3:
    | {
        bucket: string;
        endpoint: string | undefined;
        region: string;
        accessKeyId: string | undefined;
        secretAccessKey: string | undefined;
      }
    | undefined;
  limits: { documentBytes: number; imageBytes: number; filesPerBot: number; bytesPerUser: number };
  /** Embeddings model of the configured provider; without it, retrieval is full-text search alone. */
  embeddingModel: string | undefined;
  /** How many files are read at once, each in a worker thread of its own. */
  extractionWorkers: number;
  /** poppler's `pdftotext` command that reads PDFs' text first; null: pdf.js only (`off`). */
  pdftotext: string | null;
  /** How far below the server's requests files are read (decision 0078). */
  extractionPriority: ExtractionPriority;
}

function parseDatabase(value: string): Config['database'] {
  if (/^postgres(ql)?:\/\//.test(value)) return { kind: 'postgres', url: value };
  if (value.startsWith('file:')) return { kind: 'sqlite', path: value.replace(/^file:(\/\/)?/, '') || ':memory:' };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    throw new ConfigError('DATABASE_URL: must be a postgres:// URL, a file: URL or a file path');
  }
  return { kind: 'sqlite', path: value };
}

/** Parses the environment once; nothing else in the server reads process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`${String(issue.path[0])}: ${issue.message}`);
  }
  const e = parsed.data;
  const provider: LlmProvider = e.LLM_PROVIDER ?? (e.LLM_BASE_URL ? 'openai-compatible' : 'offline');
  if (provider === 'openai-compatible' && !e.LLM_BASE_URL) {
    throw new ConfigError('LLM_BASE_URL: required when LLM_PROVIDER is openai-compatible');
  }
  if ((provider === 'openai' || provider === 'anthropic') && !e.LLM_API_KEY) {
    throw new ConfigError(`LLM_API_KEY: required when LLM_PROVIDER is ${provider}`);
  }
  if (provider === 'openai-compatible' && !e.LLM_MODEL) {
    throw new ConfigError('LLM_MODEL: required when LLM_PROVIDER is openai-compatible (for Ollama e.g. llama3.2)');
  }
  const adminParts = [e.ADMIN_USERNAME, e.ADMIN_EMAIL, e.ADMIN_PASSWORD];
  if (adminParts.some(Boolean) && !adminParts.every(Boolean)) {
    const missing = ['ADMIN_USERNAME', 'ADMIN_EMAIL', 'ADMIN_PASSWORD'][adminParts.findIndex((p) => !p)];
    throw new ConfigError(`${missing}: required when any of ADMIN_USERNAME, ADMIN_EMAIL, ADMIN_PASSWORD is set`);
  }
  if (e.SEARCH_PROVIDER === 'searxng' && !e.SEARCH_URL) {
    throw new ConfigError('SEARCH_URL: required when SEARCH_PROVIDER is searxng (e.g. http://127.0.0.1:8888)');
  }
  if ((e.SEARCH_PROVIDER === 'brave' || e.SEARCH_PROVIDER === 'tavily') && !e.SEARCH_API_KEY) {
    throw new ConfigError(`SEARCH_API_KEY: required when SEARCH_PROVIDER is ${e.SEARCH_PROVIDER}`);
  }
  return {
    port: e.PORT,
    host: e.HOST,
    appUrl: (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    database: parseDatabase(e.DATABASE_URL),
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM },
    emailVerificationRequired: (e.EMAIL_VERIFICATION ?? (e.SMTP_URL ? 'required' : 'off')) === 'required',
    llm: { provider, baseUrl: e.LLM_BASE_URL, apiKey: e.LLM_API_KEY, model: e.LLM_MODEL },
    secretKey: e.SECRET_KEY,
    admin: e.ADMIN_USERNAME
      ? { username: e.ADMIN_USERNAME, email: e.ADMIN_EMAIL!, password: e.ADMIN_PASSWORD! }
      : undefined,
    logLevel: e.LOG_LEVEL,
    trustedProxyHops: e.TRUST_PROXY,
    sessionCacheMs: e.SESSION_CACHE_MS,
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS,
    metricsToken: e.METRICS_TOKEN,
    apiCorsOrigins: e.API_CORS_ORIGINS,
    files: {
      dir: e.FILES_DIR,
      s3: e.S3_BUCKET
        ? {
            bucket: e.S3_BUCKET,
            endpoint: e.S3_ENDPOINT,
            region: e.S3_REGION,
            accessKeyId: e.S3_ACCESS_KEY_ID,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          }
        : undefined,
      limits: {
        documentBytes: e.FILES_MAX_DOCUMENT_BYTES,
        imageBytes: e.FILES_MAX_IMAGE_BYTES,
        filesPerBot: e.FILES_MAX_PER_BOT,
        bytesPerUser: e.FILES_MAX_BYTES_PER_USER,
      },
      embeddingModel: e.LLM_EMBEDDING_MODEL,
      extractionWorkers: e.FILES_EXTRACTION_WORKERS,
      pdftotext: e.FILES_PDFTOTEXT === 'off' ? null : e.FILES_PDFTOTEXT,
      extractionPriority: e.FILES_EXTRACTION_PRIORITY,
    },
    botImportMaxBytes: e.BOT_IMPORT_MAX_BYTES,
    rateLimits: {
      authPerMinute: e.RATE_LIMIT_AUTH_PER_MINUTE,
      signInPerAccountPerHour: e.RATE_LIMIT_SIGNIN_PER_ACCOUNT_PER_HOUR,
      modelCallsPerMinute: e.RATE_LIMIT_MODEL_CALLS_PER_MINUTE,
      promptGenerationPerMinute: e.RATE_LIMIT_PROMPT_GENERATION_PER_MINUTE,
      apiKeyPerMinute: e.RATE_LIMIT_API_KEY_PER_MINUTE,
      sharesPerMinute: e.RATE_LIMIT_SHARES_PER_MINUTE,
      widgetPerMinute: e.RATE_LIMIT_WIDGET_PER_MINUTE,
    },
    chat: {
      firstTokenTimeoutMs: e.CHAT_FIRST_TOKEN_TIMEOUT_MS,
      totalTimeoutMs: e.CHAT_TOTAL_TIMEOUT_MS,
      staleReplyMs: e.CHAT_STALE_REPLY_MS,
      toolApprovalTimeoutMs: e.TOOL_APPROVAL_TIMEOUT_MS,
    },
    mcp: { toolTimeoutMs: e.MCP_TOOL_TIMEOUT_MS },
    web: {
      search: { provider: e.SEARCH_PROVIDER, url: e.SEARCH_URL, apiKey: e.SEARCH_API_KEY },
      fetchAllowHosts: e.WEB_FETCH_ALLOW_HOSTS,
      fetchAllowPorts: e.WEB_FETCH_ALLOW_PORTS,
    },
  };
}
