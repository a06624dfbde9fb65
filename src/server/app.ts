import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { createModelCatalog } from './ai/model-catalog';
import type { ChatTimeouts } from './ai/tasks/chat-reply';
import type { Config } from './config';
import type { Db } from './db/database';
import { isoNow, systemClock, type Clock } from './lib/clock';
import { appInstanceNotices } from './lib/instance-notices';
import { openSecretBox } from './lib/secret-box';
import { createMailer, type Mailer } from './mail/mailer';
import { activitiesRoutes } from './modules/activities/activities.routes';
import { accountRoutes } from './modules/account/account.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { connectionsRoutes, modelsRoutes } from './modules/connections/connections.routes';
import { forgetConnectionsOnChange, modelSource } from './modules/connections/connections.service';
import { purgeExpired, type Session } from './modules/auth/auth.service';
import { appSessionCache } from './modules/auth/session-cache';
import { botTransferRoutes } from './modules/bots/bot-transfer.routes';
import { botsRoutes } from './modules/bots/bots.routes';
import { sharingRoutes } from './modules/bots/sharing.routes';
import { trainingRoutes } from './modules/training/training.routes';
import { feedbackRoutes } from './modules/feedback/feedback.routes';
import { testCasesRoutes } from './modules/test-cases/test-cases.routes';
import { evaluationsRoutes } from './modules/evaluations/evaluations.routes';
import { publishedVersions } from './modules/releases/published-versions';
import { releasesRoutes } from './modules/releases/releases.routes';
import { decideWhenRun } from './modules/releases/releases.service';
import { evaluationSignals } from './modules/evaluations/evaluation-events';
import { createEvaluationJobs } from './modules/evaluations/evaluation-jobs';
import type { EvaluationsDeps } from './modules/evaluations/evaluations.service';
import { insightsRoutes } from './modules/insights/insights.routes';
import { conversationsRoutes } from './modules/chat/conversations.routes';
import { indexNewMessages, SEARCH_INDEX_MS } from './modules/chat/conversations.service';
import { repliesRoutes } from './modules/chat/replies.routes';
import { sweepInterruptedReplies } from './modules/chat/replies.service';
import type { ReplyContextProvider } from './modules/replies/reply-context';
import { replySharing } from './modules/replies/reply-sharing';
import { createReplyStore, sweepSchedule } from './modules/replies/reply-store';
import { createEmbeddings } from './modules/files/embeddings';
import { knowledgeWarmUp } from './modules/files/knowledge-warm-up';
import { pgvectorStartup } from './modules/files/pgvector-index';
import { createFileJobs, DEFAULT_FILE_JOBS, type FileJobsOptions } from './modules/files/file-jobs';
import { filesRoutes } from './modules/files/files.routes';
import { knowledgeReplyContext } from './modules/files/knowledge-context';
import { createStorage } from './modules/files/storage';
import { drainingPlugin } from './modules/health/draining';
import { healthRoutes } from './modules/health/health.routes';
import { metricsRoutes } from './modules/metrics/metrics.routes';
import { peopleRoutes } from './modules/people/people.routes';
import { createMetrics } from './modules/metrics/metrics.service';
import { preferencesRoutes } from './modules/preferences/preferences.routes';
import { settingsRoutes } from './modules/settings/settings.routes';
import { forgetSettingsOnChange } from './modules/settings/settings.service';
import { keysRoutes } from './modules/keys/keys.routes';
import { appRepliesInProgress } from './modules/usage/replies-in-progress';
import { createUsageMeter } from './modules/usage/usage-meter';
import { adminUsageRoutes, usageRoutes } from './modules/usage/usage.routes';
import { purgeExpiredKeys } from './modules/keys/keys.service';
import { mcpRoutes } from './modules/mcp/mcp.routes';
import { openAiRoutes } from './modules/openai/openai.routes';
import { sharesRoutes } from './modules/shares/shares.routes';
import { purgeExpiredShares } from './modules/shares/shares.service';
import { webReplyContext } from './modules/web/web-context';
import { widgetRoutes } from './modules/widget/widget.routes';
import { createSafeDownload } from './modules/web/safe-fetch';
import { createWebResearch } from './modules/web/web-research';
import { mcpReplyContext } from './modules/tools/mcp-context';
import { mcpServersRoutes } from './modules/tools/mcp-servers.routes';
import { createMcpServers } from './modules/tools/mcp-servers.service';
import { apiCorsPlugin } from './plugins/api-cors';
import { authGuardPlugin } from './plugins/auth-guard';
import { errorsPlugin } from './plugins/errors';
import { openapiPlugin } from './plugins/openapi';
import { periodicTaskPlugin } from './plugins/periodic-task';
import { rateLimitPlugin, type RateLimit } from './plugins/rate-limit';
import { RequestLogController } from './plugins/request-log';
import { securityPlugin } from './plugins/security';
import { staticClientPlugin } from './plugins/static-client';
import { textSafetyPlugin } from './plugins/text-safety';

declare module 'fastify' {
  interface FastifyInstance {
    /** Resolves once the work replies left running (naming conversations) has ended; shutdown waits for it too. */
    backgroundSettled(): Promise<void>;
  }
}

export const BODY_LIMIT_BYTES = 1024 * 1024;
const HOUR = 60 * 60 * 1000;

export interface AppOptions {
  config: Config;
  db: Db;
  /** Defaults to SMTP or the log, per config. */
  mailer?: Mailer;
  clock?: Clock;
  /** Attempts per minute per address on login, register, resend, forgot and reset. */
  authRateLimit?: RateLimit;
  /** Model calls per minute per user on bot-message, stream and regenerate together. */
  chatRateLimit?: RateLimit;
  /** Tests shorten these to see a hanging model time out. */
  chatTimeouts?: Partial<ChatTimeouts>;
  /** Tests add a reply context of their own after the app's (e.g. a tool that asks for approval). */
  extraContextProviders?: readonly ReplyContextProvider[];
  /** Tests shorten the file job runner's timings; `start: false` leaves uploads unprocessed, like a crash would. */
  fileJobs?: Partial<FileJobsOptions> & { start?: boolean };
  /** Load the bots' knowledge vectors once ready, in the background (the server does; tests mostly do not). */
  warmKnowledge?: boolean;
  /** Tests lower the size past which pgvector's index ranks a bot, where the database has it (decision 0076). */
  pgvectorFromPassages?: number;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: NodeJS.WritableStream;
  /** How often expired sessions and e-mail links are purged. */
  sweepIntervalMs?: number;
  /** Human-readable logs for a terminal; JSON lines otherwise (for log collectors). */
  prettyLogs?: boolean;
  clientRoot?: string;
}

/** Builds the whole application without listening, so tests can use it on any port or through inject(). */
/** Operators set limits per minute (config.ts). */
const perMinute = (max: number): RateLimit => ({ max, timeWindow: 60_000 });

export async function buildApp(options: AppOptions) {
  const { config, db } = options;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      ...(options.prettyLogs
        ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } } }
        : {}),
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    logController: new RequestLogController(),
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => randomUUID(),
    trustProxy: (_address: string, hop: number) => hop < config.trustedProxyHops,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const clock = options.clock ?? systemClock;
  const mailer = options.mailer ?? createMailer(config.mail, app.log);
  app.addHook('onClose', async () => mailer.close());

  await app.register(errorsPlugin);
  // First, so every request is counted, whichever hook answers it. Redis is known once replies are shared.
  const metrics = createMetrics({ db, redisUp: config.redisUrl ? () => redisUp() === true : undefined });
  await app.register(metrics.plugin);
  await app.register(securityPlugin);
  await app.register(textSafetyPlugin);
  await app.register(openapiPlugin);
  await app.register(rateLimitPlugin, { redisUrl: config.redisUrl, redisKeyPrefix: config.redisKeyPrefix });
  const sessions = await appSessionCache<Session>(app, config, clock);
  await app.register(authGuardPlugin, { db, clock, sessions });
  await app.register(periodicTaskPlugin, {
    name: 'purge expired sessions, e-mail links, share links and API keys',
    intervalMs: options.sweepIntervalMs ?? HOUR,
    run: async () => ({
      ...(await purgeExpired({ db, clock })),
      shareLinks: await purgeExpiredShares({ db, clock }),
      apiKeys: await purgeExpiredKeys({ db, clock }),
    }),
  });

  const authRateLimit = options.authRateLimit ?? perMinute(config.rateLimits.authPerMinute);
  const authDeps = { db, mailer, config, clock, log: app.log, sessions };
  // Stops the start with one line when SECRET_KEY cannot open the keys already stored.
  const secrets = await openSecretBox({ db, config, log: app.log }, isoNow(clock));
  // Before the runners that use them, so they are closed after the runners stop (onClose hooks run last first).
  const notices = await appInstanceNotices(app, config);
  forgetSettingsOnChange(notices, db);
  forgetConnectionsOnChange(notices, db);
  const connectionsDeps = { db, clock, llm: config.llm, secrets, log: app.log, notices };
  // Bots' MCP tools: pooled connections with the web research's address rules, closed with the app.
  const mcp = createMcpServers({
    db,
    clock,
    secrets,
    log: app.log,
    allowHosts: config.web.fetchAllowHosts,
    toolTimeoutMs: config.mcp.toolTimeoutMs,
  });
  app.addHook('onClose', async () => mcp.close());
  const models = createModelCatalog(modelSource(connectionsDeps), app.log, config.files.embeddingModel);
  const storage = createStorage(config.files);
  // Per use, so an admin's new embeddings default applies at once; its vectors never meet another model's.
  const embeddings = {
    current: async () => {
      const chosen = await models.embeddings();
      return chosen && createEmbeddings(chosen.model, chosen.id, chosen.env);
    },
  };
  const pgvector = pgvectorStartup({ db, log: app.log, fromPassages: options.pgvectorFromPassages });
  app.addHook('onReady', async () => pgvector.start());
  app.addHook('onClose', async () => pgvector.stop());
  const fileJobs = createFileJobs(
    { db, clock, storage, embeddings, log: app.log, notices },
    {
      ...DEFAULT_FILE_JOBS,
      workers: config.files.extractionWorkers,
      pdftotext: config.files.pdftotext,
      priority: config.files.extractionPriority,
      ...options.fileJobs,
    },
  );
  if (options.fileJobs?.start !== false) app.addHook('onReady', async () => fileJobs.start());
  app.addHook('onClose', async () => fileJobs.stop());
  if (options.warmKnowledge) {
    const warmUp = knowledgeWarmUp({ db, embeddings, log: app.log });
    app.addHook('onReady', async () => warmUp.start());
    app.addHook('onClose', async () => warmUp.stop());
  }
  // Work that outlives a reply (naming its conversation) finishes before the database closes.
  const chatBackground = new Set<Promise<unknown>>();
  const backgroundSettled = async () => void (await Promise.allSettled([...chatBackground]));
  app.decorate('backgroundSettled', backgroundSettled);
  app.addHook('onClose', backgroundSettled);
  // The chat and the OpenAI-compatible API answer with the same context: one per app, so the page cache is shared.
  // PDFs stay refused until a bounded reader exists for them.
  const contextProviders = [
    knowledgeReplyContext({ db, embeddings, storage }),
    webReplyContext(createWebResearch(config.web)),
    mcpReplyContext(mcp),
    ...(options.extraContextProviders ?? []),
  ];
  const chatTimeouts: ChatTimeouts = {
    firstTokenMs: config.chat.firstTokenTimeoutMs,
    totalMs: config.chat.totalTimeoutMs,
    ...options.chatTimeouts,
  };
  // This instance's checkpoints of the replies it writes; closed after the server stops taking requests.
  const replyStore = createReplyStore({ db, clock, log: app.log, observe: metrics.observer });
  app.addHook('onClose', async () => replyStore.close());
  const { redisUp, ...sharing } = await replySharing(app, config);
  // Every reply is counted once it ends; the app waits for the last counts before the database closes.
  const usage = createUsageMeter({
    db,
    clock,
    inProgress: await appRepliesInProgress(app, config),
    log: app.log,
    background: chatBackground,
  });
  await app.register(drainingPlugin, { runningReplies: () => sharing.replies.running() });
  // What everyone but a bot's owner gets: its published version (decision 0043).
  const published = publishedVersions(db.kysely);
  // What every way of answering shares: the chat, training previews, evaluations, the widget, `/v1` and `/mcp`.
  const replyPipeline = {
    db,
    clock,
    models,
    timeouts: chatTimeouts,
    contextProviders,
    usage,
    publishedVersions: published,
  };
  const chatDeps = { ...replyPipeline, replyStore, background: chatBackground, ...sharing };
  // Evaluations are jobs any instance may run (decision 0042), answering through the chat's pipeline.
  const evaluationsDeps: EvaluationsDeps = { ...replyPipeline, signals: evaluationSignals(notices) };
  // A run of a release moves the release on (its next run, or the gate's decision), on whichever instance ran it.
  evaluationsDeps.evaluationFinished = (evaluation) => decideWhenRun(evaluationsDeps, evaluation);
  const evaluationJobs = createEvaluationJobs({ ...evaluationsDeps, log: app.log });
  app.addHook('onReady', async () => evaluationJobs.start());
  app.addHook('onClose', async () => evaluationJobs.stop());
  await app.register(
    async (api) => {
      await api.register(healthRoutes, { db, redisUp, draining: () => app.draining });
      await api.register(authRoutes, {
        prefix: '/auth',
        deps: authDeps,
        rateLimit: authRateLimit,
        accountRateLimit: options.authRateLimit ?? {
          max: config.rateLimits.signInPerAccountPerHour,
          timeWindow: 60 * 60_000,
        },
      });
      await api.register(botsRoutes, {
        deps: { db, clock, models },
        promptRateLimit: perMinute(config.rateLimits.promptGenerationPerMinute),
      });
      await api.register(sharingRoutes, { deps: { db, clock } });
      await api.register(feedbackRoutes, { deps: { db, clock } });
      await api.register(testCasesRoutes, { deps: { db, clock } });
      await api.register(insightsRoutes, { deps: { db, clock } });
      const modelCallRateLimit = options.chatRateLimit ?? perMinute(config.rateLimits.modelCallsPerMinute);
      // Training previews and evaluations answer through the chat's pipeline: the bot people get is the one tested.
      await api.register(trainingRoutes, { deps: replyPipeline, modelCallRateLimit });
      await api.register(evaluationsRoutes, { deps: evaluationsDeps, modelCallRateLimit });
      await api.register(releasesRoutes, { deps: evaluationsDeps, modelCallRateLimit });
      await api.register(activitiesRoutes, { deps: { db } });
      await api.register(preferencesRoutes, { deps: { db } });
      await api.register(settingsRoutes, { deps: { db, clock, models, notices } });
      await api.register(connectionsRoutes, { deps: connectionsDeps });
      await api.register(modelsRoutes, { models });
      await api.register(peopleRoutes, { deps: authDeps });
      await api.register(accountRoutes, {
        prefix: '/account',
        deps: { db, clock, sessions },
        passwordCheckLimit: authRateLimit,
      });
      const filesDeps = { db, clock, storage, limits: config.files.limits, jobs: fileJobs };
      await api.register(filesRoutes, { deps: filesDeps });
      await api.register(botTransferRoutes, {
        deps: { ...filesDeps, importMaxBytes: config.botImportMaxBytes, models },
      });
      // Often, so a dead instance's reply ends within CHAT_STALE_REPLY_MS (one cheap indexed update).
      const sweep = sweepSchedule(config.chat.staleReplyMs);
      await api.register(periodicTaskPlugin, {
        name: 'mark interrupted replies',
        intervalMs: sweep.everyMs,
        run: () => sweepInterruptedReplies(chatDeps, sweep.silentForMs),
      });
      await api.register(periodicTaskPlugin, {
        name: 'index new messages for search',
        intervalMs: SEARCH_INDEX_MS,
        quiet: true,
        run: () => indexNewMessages(chatDeps),
      });
      await api.register(conversationsRoutes, { deps: chatDeps });
      await api.register(repliesRoutes, {
        deps: chatDeps,
        rateLimit: options.chatRateLimit ?? perMinute(config.rateLimits.modelCallsPerMinute),
      });
      await api.register(keysRoutes, { deps: { db, clock } });
      await api.register(mcpServersRoutes, { deps: mcp });
      await api.register(usageRoutes, { deps: { db, clock } });
      await api.register(adminUsageRoutes, { deps: { db, clock } });
      await api.register(sharesRoutes, {
        deps: { db, clock },
        rateLimit: perMinute(config.rateLimits.sharesPerMinute),
      });
    },
    { prefix: '/api' },
  );
  // The APIs called with an API key; browsers may call them from the origins the operator lists (API_CORS_ORIGINS).
  const keyApi = (prefix: string, routes: (api: typeof app) => Promise<unknown>) =>
    app.register(
      async (api) => {
        await api.register(apiCorsPlugin, { origins: config.apiCorsOrigins });
        await routes(api);
      },
      { prefix },
    );
  const apiKeyRateLimit = perMinute(config.rateLimits.apiKeyPerMinute);
  await keyApi('/v1', async (api) =>
    api.register(openAiRoutes, {
      deps: {
        ...replyPipeline,
        imageBytes: config.files.limits.imageBytes,
        download: createSafeDownload({
          allowHosts: config.web.fetchAllowHosts,
          allowPorts: config.web.fetchAllowPorts,
        }),
      },
      rateLimit: apiKeyRateLimit,
    }),
  );
  await keyApi('/mcp', async (api) =>
    api.register(mcpRoutes, {
      deps: replyPipeline,
      rateLimit: apiKeyRateLimit,
    }),
  );

  await app.register(metricsRoutes, { metrics, token: config.metricsToken });
  await app.register(widgetRoutes, { deps: chatDeps, rateLimit: perMinute(config.rateLimits.widgetPerMinute) });
  await app.register(staticClientPlugin, {
    root: options.clientRoot ?? fileURLToPath(new URL('../../dist/client', import.meta.url)),
  });
  return app;
}
