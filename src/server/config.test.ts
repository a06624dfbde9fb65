import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const LLM = { LLM_BASE_URL: 'http://127.0.0.1:11434/v1', LLM_MODEL: 'llama3.2' };

/** The error loadConfig throws for `env`, which must be a ConfigError. */
function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('serves port 5000 on all interfaces with SQLite, offline AI and no verification when nothing is set', () => {
    expect(loadConfig({})).toEqual({
      port: 5000,
      host: '0.0.0.0',
      appUrl: 'http://localhost:5000',
      database: { kind: 'sqlite', path: './data/botty.db' },
      redisUrl: undefined,
      redisKeyPrefix: 'botty:',
      mail: { smtpUrl: undefined, from: 'Botty <no-reply@localhost>' },
      emailVerificationRequired: false,
      llm: { provider: 'offline', baseUrl: undefined, apiKey: undefined, model: undefined },
      admin: undefined,
      logLevel: 'info',
      trustedProxyHops: 0,
      sessionCacheMs: 5000,
      shutdownDrainMs: 10_000,
      metricsToken: undefined,
      apiCorsOrigins: [],
      web: {
        search: { provider: 'none', url: undefined, apiKey: undefined },
        fetchAllowHosts: [],
        fetchAllowPorts: [],
      },
      files: {
        dir: './data/files',
        s3: undefined,
        limits: {
          documentBytes: 20 * 1024 * 1024,
          imageBytes: 10 * 1024 * 1024,
          filesPerBot: 500,
          bytesPerUser: 500 * 1024 * 1024,
        },
        embeddingModel: undefined,
        extractionWorkers: Math.max(1, availableParallelism() - 1),
        pdftotext: 'pdftotext',
        extractionPriority: 'idle',
      },
      botImportMaxBytes: 50 * 1024 * 1024,
      rateLimits: {
        authPerMinute: 10,
        signInPerAccountPerHour: 30,
        modelCallsPerMinute: 30,
        promptGenerationPerMinute: 30,
        apiKeyPerMinute: 60,
        sharesPerMinute: 60,
        widgetPerMinute: 20,
      },
      chat: {
        firstTokenTimeoutMs: 30_000,
        totalTimeoutMs: 120_000,
        staleReplyMs: 15_000,
        toolApprovalTimeoutMs: 600_000,
      },
      mcp: { toolTimeoutMs: 30_000 },
    });
  });

  it('takes operator overrides of rate limits and chat timeouts, and refuses nonsense naming the variable', () => {
    const config = loadConfig({
      RATE_LIMIT_AUTH_PER_MINUTE: '5',
      RATE_LIMIT_MODEL_CALLS_PER_MINUTE: '100',
      CHAT_TOTAL_TIMEOUT_MS: '600000',
    });
    expect(config.rateLimits).toMatchObject({ authPerMinute: 5, modelCallsPerMinute: 100 });
    expect(config.chat.totalTimeoutMs).toBe(600_000);
    expect(() => loadConfig({ CHAT_FIRST_TOKEN_TIMEOUT_MS: 'soon' })).toThrow(
      'CHAT_FIRST_TOKEN_TIMEOUT_MS: must be a whole number',
    );
  });

  it('reads the search provider and the page-fetch allowances, with one line naming a bad variable', () => {
    const searxng = { SEARCH_PROVIDER: 'searxng', SEARCH_URL: 'http://127.0.0.1:8888' };
    expect(loadConfig(searxng).web.search).toEqual({
      provider: 'searxng',
      url: 'http://127.0.0.1:8888',
      apiKey: undefined,
    });
    expect(loadConfig({ SEARCH_PROVIDER: 'brave', SEARCH_API_KEY: 'key' }).web.search.provider).toBe('brave');
    expect(configError({ SEARCH_PROVIDER: 'searxng' }).message).toMatch(/^SEARCH_URL: required/);
    expect(configError({ SEARCH_PROVIDER: 'tavily' }).message).toBe(
      'SEARCH_API_KEY: required when SEARCH_PROVIDER is tavily',
    );
    expect(configError({ SEARCH_PROVIDER: 'google' }).message).toMatch(/^SEARCH_PROVIDER: /);
    expect(configError({ ...searxng, SEARCH_URL: 'ftp://x' }).message).toMatch(/^SEARCH_URL: must be an http/);
    const web = loadConfig({ WEB_FETCH_ALLOW_HOSTS: ' 127.0.0.1, ::1 ,localhost', WEB_FETCH_ALLOW_PORTS: '8080,8443' });
    expect(web.web).toMatchObject({
      fetchAllowHosts: ['127.0.0.1', '::1', 'localhost'],
      fetchAllowPorts: [8080, 8443],
    });
    expect(configError({ WEB_FETCH_ALLOW_HOSTS: 'http://127.0.0.1/' }).message).toBe(
      'WEB_FETCH_ALLOW_HOSTS: must be a comma-separated list of host names or IP addresses',
    );
    expect(configError({ WEB_FETCH_ALLOW_PORTS: '80,http' }).message).toBe(
      'WEB_FETCH_ALLOW_PORTS: must be a comma-separated list of port numbers',
    );
  });

  it('believes X-Forwarded-For only when TRUST_PROXY says how many proxies stand in front', () => {
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustedProxyHops).toBe(0);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustedProxyHops).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustedProxyHops).toBe(2);
    expect(() => loadConfig({ TRUST_PROXY: 'maybe' })).toThrow(/^TRUST_PROXY: /);
  });

  it('remembers sessions for SESSION_CACHE_MS, or not at all with 0', () => {
    expect(loadConfig({ SESSION_CACHE_MS: '0' }).sessionCacheMs).toBe(0);
    expect(loadConfig({ SESSION_CACHE_MS: '2000' }).sessionCacheMs).toBe(2000);
    expect(() => loadConfig({ SESSION_CACHE_MS: '-1' })).toThrow(/^SESSION_CACHE_MS: must be at least 0/);
  });

  it('reads knowledge files with FILES_EXTRACTION_WORKERS workers at FILES_EXTRACTION_PRIORITY, and PDFs with FILES_PDFTOTEXT unless off', () => {
    const files = loadConfig({
      FILES_EXTRACTION_WORKERS: '4',
      FILES_PDFTOTEXT: '/opt/poppler/bin/pdftotext',
      FILES_EXTRACTION_PRIORITY: 'low',
    }).files;
    expect(files).toMatchObject({
      extractionWorkers: 4,
      pdftotext: '/opt/poppler/bin/pdftotext',
      extractionPriority: 'low',
    });
    expect(loadConfig({ FILES_PDFTOTEXT: 'off' }).files.pdftotext).toBeNull();
    expect(configError({ FILES_EXTRACTION_WORKERS: '0' }).message).toMatch(/FILES_EXTRACTION_WORKERS/);
    expect(configError({ FILES_EXTRACTION_PRIORITY: 'high' }).message).toMatch(/^FILES_EXTRACTION_PRIORITY: /);
  });

  it('treats blank values as unset', () => {
    expect(loadConfig({ PORT: '', HOST: '  ', DATABASE_URL: '', LLM_PROVIDER: '' })).toEqual(loadConfig({}));
  });

  it('derives APP_URL from PORT, and drops a trailing slash from an explicit one', () => {
    expect(loadConfig({ PORT: '8080' }).appUrl).toBe('http://localhost:8080');
    expect(loadConfig({ APP_URL: 'https://botty.example.com/' }).appUrl).toBe('https://botty.example.com');
  });

  it('requires e-mail verification once SMTP_URL is set, unless EMAIL_VERIFICATION=off', () => {
    const smtp = { SMTP_URL: 'smtp://user:pass@mail.example.com:587' };
    expect(loadConfig(smtp)).toMatchObject({ emailVerificationRequired: true, mail: { smtpUrl: smtp.SMTP_URL } });
    expect(loadConfig({ ...smtp, EMAIL_VERIFICATION: 'off' }).emailVerificationRequired).toBe(false);
    expect(loadConfig({ EMAIL_VERIFICATION: 'required' }).emailVerificationRequired).toBe(true);
  });

  it.each([
    ['postgres://u:p@db:5432/botty', { kind: 'postgres', url: 'postgres://u:p@db:5432/botty' }],
    ['postgresql://db/botty', { kind: 'postgres', url: 'postgresql://db/botty' }],
    ['file:./data/other.db', { kind: 'sqlite', path: './data/other.db' }],
    ['file:///var/lib/botty/botty.db', { kind: 'sqlite', path: '/var/lib/botty/botty.db' }],
    ['/var/lib/botty/botty.db', { kind: 'sqlite', path: '/var/lib/botty/botty.db' }],
  ])('reads DATABASE_URL %s', (DATABASE_URL, database) => {
    expect(loadConfig({ DATABASE_URL }).database).toEqual(database);
  });

  it('picks the OpenAI-compatible provider when LLM_BASE_URL is set', () => {
    expect(loadConfig(LLM).llm).toEqual({
      provider: 'openai-compatible',
      baseUrl: LLM.LLM_BASE_URL,
      apiKey: undefined,
      model: 'llama3.2',
    });
  });

  it('takes the bootstrap admin when all three ADMIN_* are set', () => {
    const admin = { ADMIN_USERNAME: 'root', ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: 'long-enough-password' };
    expect(loadConfig(admin).admin).toEqual({
      username: 'root',
      email: 'root@example.com',
      password: 'long-enough-password',
    });
  });

  it.each<[string, Record<string, string>]>([
    ['PORT', { PORT: 'eighty' }],
    ['PORT', { PORT: '70000' }],
    ['PORT', { PORT: '80.5' }],
    ['APP_URL', { APP_URL: 'botty.example.com' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://db/botty' }],
    ['REDIS_URL', { REDIS_URL: 'http://cache:6379' }],
    ['SMTP_URL', { SMTP_URL: 'mail.example.com:587' }],
    ['SMTP_URL', { SMTP_URL: 'http://mail.example.com' }],
    ['EMAIL_VERIFICATION', { EMAIL_VERIFICATION: 'sometimes' }],
    ['LLM_PROVIDER', { LLM_PROVIDER: 'gpt' }],
    ['LLM_BASE_URL', { LLM_PROVIDER: 'openai-compatible' }],
    ['LLM_MODEL', { LLM_BASE_URL: LLM.LLM_BASE_URL }],
    ['LLM_API_KEY', { LLM_PROVIDER: 'anthropic' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['ADMIN_EMAIL', { ADMIN_USERNAME: 'root' }],
    ['ADMIN_USERNAME', { ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: 'long-enough-password' }],
    ['ADMIN_PASSWORD', { ADMIN_USERNAME: 'root', ADMIN_EMAIL: 'root@example.com' }],
    ['ADMIN_PASSWORD', { ADMIN_USERNAME: 'root', ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: 'short' }],
    ['ADMIN_EMAIL', { ADMIN_USERNAME: 'root', ADMIN_EMAIL: 'root', ADMIN_PASSWORD: 'long-enough-password' }],
    [
      'ADMIN_USERNAME',
      { ADMIN_USERNAME: 'r', ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: 'long-enough-password' },
    ],
  ])('stops with a ConfigError naming %s for %j', (variable, env) => {
    const error = configError(env);
    expect(error.message.startsWith(`${variable}: `), error.message).toBe(true);
    expect(error.message).not.toContain('\n');
  });
});
