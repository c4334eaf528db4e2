import { randomUUID } from 'node:crypto';
import { API_BASE } from '@altwise/contracts/routes';
import { refuseUnstorableText } from '@altwise/contracts/text';
import Fastify, { type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';
import packageJson from '../package.json' with { type: 'json' };
import type { AppConfig } from './config.ts';
import { type DatabaseHandle, databaseOptionsFromConfig, openDatabase } from './db/client.ts';
import { createAltTextEngine } from './engines/alt-text-engine.ts';
import { createImageEngine } from './engines/images/create-image-engine.ts';
import type { ImageEngine } from './engines/images/types.ts';
import { createOfflineEngine } from './engines/offline/offline-engine.ts';
import type { AltTextEngine } from './engines/types.ts';
import { AppError } from './errors.ts';
import { createJobQueue, type JobQueue, type WorkOptions } from './jobs/queue.ts';
import { startWorkers } from './jobs/workers.ts';
import { serializeError } from './lib/log-errors.ts';
import { createMailTransport } from './mail/create-mail-transport.ts';
import type { MailTransport } from './mail/mail-transport.ts';
import { type AccountDeletion, createAccountDeletion } from './modules/accounts/account-deletion.ts';
import { accountDeletionRoutes } from './modules/accounts/account-deletion-routes.ts';
import { createGoogleIdTokenVerifier } from './modules/accounts/google-id-tokens.ts';
import { accountsRoutes } from './modules/accounts/routes.ts';
import { type AccountsService, createAccountsService } from './modules/accounts/service.ts';
import { createSessionTokens, resolveJwtSecret } from './modules/accounts/session-tokens.ts';
import { createSessionUserCache, type SessionUserCache } from './modules/accounts/session-users.ts';
import { apiKeysRoutes } from './modules/api-keys/routes.ts';
import { type ApiKeysService, createApiKeysService } from './modules/api-keys/service.ts';
import { findChromium } from './modules/audit/render/processes.ts';
import { createRenderer, type Renderer } from './modules/audit/render/renderer.ts';
import { auditRoutes } from './modules/audit/routes.ts';
import { type AuditService, createAuditService } from './modules/audit/service.ts';
import { createPaymentProvider } from './modules/billing/create-payment-provider.ts';
import { billingRoutes, paymentWebhookRoutes } from './modules/billing/routes.ts';
import { sandboxCheckoutRoutes } from './modules/billing/sandbox-checkout-routes.ts';
import type { SandboxProvider } from './modules/billing/sandbox-provider.ts';
import {
  type BillingService,
  createBillingService,
  findCurrentPlanLabel,
} from './modules/billing/service.ts';
import { createStripeCardProvider } from './modules/billing/stripe-provider.ts';
import { contactRoutes } from './modules/contact/routes.ts';
import { type ContactService, createContactService } from './modules/contact/service.ts';
import { contentRoutes } from './modules/content/routes.ts';
import { type ContentService, createContentService } from './modules/content/service.ts';
import { creditsRoutes } from './modules/credits/routes.ts';
import { type CreditsService, createCreditsService } from './modules/credits/service.ts';
import { filesRoutes } from './modules/files/routes.ts';
import { createFilesService, type FilesService } from './modules/files/service.ts';
import { generationRoutes } from './modules/generation/routes.ts';
import { createGenerationService, type GenerationService } from './modules/generation/service.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { createHealthService } from './modules/health/service.ts';
import { imageMetadataRoutes } from './modules/image-metadata/routes.ts';
import { createImageMetadataService, type ImageMetadataService } from './modules/image-metadata/service.ts';
import { createCredentialBox, resolveIntegrationsSecret } from './modules/integrations/credentials.ts';
import { integrationsRoutes } from './modules/integrations/routes.ts';
import { createIntegrationsService, type IntegrationsService } from './modules/integrations/service.ts';
import { libraryRoutes } from './modules/library/routes.ts';
import { countLibraryImages, createLibraryService, type LibraryService } from './modules/library/service.ts';
import { devOutboxRoutes } from './modules/mail/routes.ts';
import { createMailService, type MailService } from './modules/mail/service.ts';
import { monitorRoutes } from './modules/monitors/routes.ts';
import { createMonitorsService, type MonitorsService } from './modules/monitors/service.ts';
import { reelsRoutes } from './modules/reels/routes.ts';
import { createReelsService, type ReelsService } from './modules/reels/service.ts';
import { scrapeRoutes } from './modules/scrape/routes.ts';
import { createScrapeService, type ScrapeService } from './modules/scrape/service.ts';
import { studioRoutes } from './modules/studio/routes.ts';
import { createStudioService, type StudioService } from './modules/studio/service.ts';
import { webhooksRoutes } from './modules/webhooks/routes.ts';
import { createWebhooksService, type WebhooksService } from './modules/webhooks/service.ts';
import { createPageSandbox, type PageSandbox, type PageSandboxLimits } from './pages/page-sandbox.ts';
import { authPlugin } from './plugins/auth.ts';
import { docsPlugin } from './plugins/docs.ts';
import { errorHandlerPlugin, sendFrameworkError } from './plugins/error-handler.ts';
import { OneLineRequestLog } from './plugins/request-log.ts';
import { securityPlugin } from './plugins/security.ts';
import { webPlugin } from './plugins/web.ts';
import { createStorage } from './storage/create-storage.ts';
import type { FileStorage } from './storage/file-storage.ts';

/** What the app runs on. Everything here is closed when the app closes. */
export type AppDeps = {
  database: DatabaseHandle;
  storage: FileStorage;
  queue: JobQueue;
  files: FilesService;
  mail: MailService;
  accounts: AccountsService;
  /** The users of recently authenticated sessions, kept while the database's LISTEN is up (ADR 039). */
  sessionUsers: SessionUserCache;
  /** DELETE /users/me: the account and everything in it (ADR 022). */
  accountDeletion: AccountDeletion;
  /** API keys (ADR 028): created, listed, revoked; requireUser authenticates with them. */
  apiKeys: ApiKeysService;
  credits: CreditsService;
  billing: BillingService;
  /** The alt-text and text engine, created once; its models load on first use. */
  engine: AltTextEngine;
  contact: ContactService;
  content: ContentService;
  scrape: ScrapeService;
  library: LibraryService;
  /** Reels: images and music rendered to an MP4 by ffmpeg. */
  reels: ReelsService;
  /** The media studio's image engine (IMAGE_ENGINE): edits and generated images. */
  imageEngine: ImageEngine;
  /** Image edits, generated images and styled captions, paid in credits. */
  studio: StudioService;
  /** Bulk alt-text generation: batches, their jobs and progress. */
  generation: GenerationService;
  /** Outgoing webhooks: endpoints, signed deliveries and their retries (ADR 029). */
  webhooks: WebhooksService;
  /** Alt-text audits of pages, sites and sitemaps (ADR 026). */
  audits: AuditService;
  /** Sites re-audited every day or week, compared run to run (ADR 062). */
  monitors: MonitorsService;
  /** Connected WordPress sites: import, publish and undo (ADR 056). */
  integrations: IntegrationsService;
  /** Image files carrying their alt text (ADR 064). */
  imageMetadata: ImageMetadataService;
  /** Worker threads that read crawled and scraped HTML under time and memory limits (ADR 048). */
  pages: PageSandbox;
  /** The headless browser of rendered audits (ADR 061); null without CHROMIUM_PATH's browser. */
  renderer: Renderer | null;
  /** Set when PAYMENT_PROVIDER=sandbox: the embedded provider behind /buy/{productId}. */
  sandboxPayments: SandboxProvider | null;
};

export type BuildAppOptions = {
  /** An already opened database (tests pass an in-memory PGlite); otherwise opened from config. */
  database?: DatabaseHandle;
  storage?: FileStorage;
  /** Worker polling, shortened by tests. */
  workOptions?: WorkOptions;
  /** Replaces the transport chosen from config (SMTP_URL or the outbox). */
  mailTransport?: MailTransport;
  /** Replaces the engine chosen from config (ALT_TEXT_ENGINE). */
  engine?: AltTextEngine;
  /** Replaces the image engine chosen from config (IMAGE_ENGINE). */
  imageEngine?: ImageEngine;
  /** Other limits for the page-reading threads (tests reach the time limit with a short one). */
  pageLimits?: Partial<PageSandboxLimits>;
  /** Where log lines go instead of stdout (tests read what the log says). */
  logStream?: { write(line: string): void };
  /**
   * Rendered audits' limits, and which addresses the browser's proxy refuses instead of the
   * FETCH_ALLOW_PRIVATE rule (tests let their local site through and refuse every other private one).
   */
  renderOptions?: {
    /** Private addresses the browser may reach though every other one is refused. */
    allowAddresses?: string[];
    timeoutMs?: number;
    maxBytes?: number;
    maxRendererMemoryMb?: number;
  };
};

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig;
    deps: AppDeps;
    /** Every route the app registered, as registered (ADR 047: the route walk checks each is protected or public). */
    registeredRoutes: readonly RouteOptions[];
  }
}

/** 1 MiB for JSON bodies; file uploads set their own limits on their routes. */
export const BODY_LIMIT = 1024 * 1024;

const saneRequestId = /^[A-Za-z0-9._:-]{1,128}$/;

export function loggerOptions(config: AppConfig): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    // Request bodies are not logged, but nothing secret may reach the log even if one is.
    redact: [
      'req.headers.authorization',
      'req.headers.cookie',
      'res.headers["set-cookie"]',
      'authorization',
      ...['password', 'currentPassword', 'newPassword', 'confirmPassword', 'credential'].flatMap((key) => [
        key,
        `*.${key}`,
        `*.*.${key}`,
      ]),
    ],
    // A failed query's parameters (a key's hash, a secret) never reach the log.
    serializers: { err: serializeError, error: serializeError },
    ...(config.env === 'development' && process.stdout.isTTY
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' },
          },
        }
      : {}),
  };
}

/**
 * Builds the whole app: opens the database and applies migrations, starts the job queue (and its
 * workers when the role includes them), and registers the HTTP plugins. The returned instance is
 * not yet listening; server.ts listens, worker.ts only keeps it running.
 */
export async function buildApp(config: AppConfig, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logStream
      ? { ...(loggerOptions(config) as object), stream: options.logStream }
      : loggerOptions(config),
    bodyLimit: BODY_LIMIT,
    trustProxy: config.trustProxy,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && saneRequestId.test(incoming) ? incoming : randomUUID();
    },
    // Emailed tokens and storage keys travel as path parameters; Fastify's default of 100 characters
    // would answer longer ones with its own 414 instead of our error shape.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1024 },
    // A malformed URL (bad percent-encoding) is refused by the router itself: same error shape.
    frameworkErrors: sendFrameworkError,
    logController: new OneLineRequestLog(),
  });
  // Every request schema refuses text Postgres cannot store (NUL, lone surrogates) first: one 400
  // for every field of every route, instead of a 500 from the database.
  app.setValidatorCompiler((route) =>
    validatorCompiler({ ...route, schema: refuseUnstorableText(route.schema as ZodType) }),
  );
  app.setSerializerCompiler(serializerCompiler);
  // Before any plugin: it sees every route, whichever plugin adds it.
  const registeredRoutes: RouteOptions[] = [];
  app.decorate('registeredRoutes', registeredRoutes);
  app.addHook('onRoute', (route) => {
    registeredRoutes.push(route);
  });

  const database = options.database ?? (await openDatabase(databaseOptionsFromConfig(config)));
  let queue: JobQueue | undefined;
  let mailTransport: MailTransport | undefined;
  let engine: AltTextEngine | undefined;
  /** The audit's pixel reader when the alt-text engine is not the offline one (ADR 037). */
  let pixelEngine: AltTextEngine | undefined;
  // Threads start on the first page read, so creating the pool costs nothing.
  const pages = createPageSandbox(options.pageLimits);
  // The browser starts with the first rendered page, so creating the pool costs nothing either.
  const chromiumPath = findChromium(config.render.chromiumPath ?? 'off');
  if (config.render.chromiumPath && !chromiumPath)
    app.log.warn(
      { chromiumPath: config.render.chromiumPath },
      'no browser at CHROMIUM_PATH: audits read pages as sent (render "always" is refused)',
    );
  const renderer = chromiumPath
    ? createRenderer({
        executablePath: chromiumPath,
        allowPrivate: config.fetch.allowPrivate,
        allowAddresses: options.renderOptions?.allowAddresses,
        connectTimeoutMs: config.fetch.connectTimeoutMs,
        logger: app.log,
        timeoutMs: options.renderOptions?.timeoutMs,
        maxBytes: options.renderOptions?.maxBytes,
        maxRendererMemoryMb: options.renderOptions?.maxRendererMemoryMb,
      })
    : null;
  try {
    await database.migrate();
    const storage = options.storage ?? createStorage(config);
    const files = createFilesService({ db: database.db, storage, logger: app.log });
    const runsWorkers = config.role !== 'api';
    queue = createJobQueue({ database, runsWorkers, logger: app.log });
    mailTransport = options.mailTransport ?? createMailTransport(config, app.log);
    const mail = createMailService({ db: database.db, queue, transport: mailTransport, logger: app.log });
    const sessions = createSessionTokens(await resolveJwtSecret(config), config.auth.jwtExpiresIn);
    // Listens for session changes on the database; closing the database stops it (ADR 039). A
    // worker serves no sessions, so it opens no listening connection.
    const sessionUsers = createSessionUserCache({
      listen: config.role === 'worker' ? undefined : database.listen,
      logger: app.log,
    });
    await sessionUsers.start();
    const accounts = createAccountsService({
      db: database.db,
      mail,
      sessions,
      sessionUsers,
      verifyGoogleIdToken: config.auth.google ? createGoogleIdTokenVerifier(config.auth.google) : null,
      publicUrl: config.publicUrl,
      logger: app.log,
      currentPlanLabel: (userId) => findCurrentPlanLabel(database.db, userId),
      countImages: (userId) => countLibraryImages(database.db, userId),
    });
    const apiKeys = createApiKeysService({
      db: database.db,
      rateLimitPerMinute: config.auth.apiKeyRateLimitPerMinute,
    });
    const credits = createCreditsService(database.db, app.log);
    const payments = await createPaymentProvider(config.payments, {
      dataDir: config.dataDir,
      // The sandbox posts its signed webhooks through this app's own HTTP pipeline, as a provider would.
      deliver: async (headers, body) =>
        (await app.inject({ method: 'POST', url: `${API_BASE}/webhooks/payments`, headers, payload: body }))
          .statusCode,
    });
    if (payments.sandbox && config.env === 'production')
      app.log.warn(
        'PAYMENT_PROVIDER=sandbox: test cards buy real credits here. Set PAYMENT_PROVIDER=dodo for real payments.',
      );
    const billing = createBillingService({
      db: database.db,
      provider: payments.provider,
      sandbox: payments.sandbox,
      // STRIPE_SECRET_KEY: the legacy card routes go through Stripe instead of the sandbox.
      card: config.stripe ? createStripeCardProvider(config.stripe) : null,
      publicUrl: config.publicUrl,
      logger: app.log,
    });
    // Creating the engine loads nothing: the offline models load in worker threads on the first image,
    // and text generation never needs them, so start-up does not wait for them.
    engine = options.engine ?? createAltTextEngine(config.engine);
    const contact = createContactService({
      db: database.db,
      mail,
      supportEmail: config.contact.supportEmail,
      logger: app.log,
    });
    const content = createContentService({ db: database.db, engine, logger: app.log });
    const scrape = createScrapeService({
      fetch: config.fetch,
      readImages: (input) => pages.run('scrapeImages', input),
      logger: app.log,
    });
    const accountDeletion = createAccountDeletion({
      db: database.db,
      queue,
      // Renewal stops through billing's own cancel; having nothing to cancel is not an error here.
      cancelSubscriptions: async (userId) => {
        await billing.cancelSubscription(userId).catch((error: unknown) => {
          if (!(error instanceof AppError && error.statusCode === 404)) throw error;
        });
      },
      sessionUsers,
      logger: app.log,
    });
    const library = createLibraryService({
      db: database.db,
      deleteFile: (key) => files.deleteFile(key),
      logger: app.log,
    });
    const reels = createReelsService({
      files,
      publicUrl: config.publicUrl,
      tempDir: config.reels.tempDir,
      maxRenders: config.reels.maxRenders,
      maxWaiting: 4,
      renderTimeoutMs: config.reels.renderTimeoutSeconds * 1000,
      logger: app.log,
    });
    const imageEngine = options.imageEngine ?? createImageEngine(config.images);
    const studio = createStudioService({ db: database.db, files, engine, imageEngine, logger: app.log });
    const webhooks = createWebhooksService({
      db: database.db,
      queue,
      fetch: config.fetch,
      delivery: config.webhooks,
      logger: app.log,
    });
    const generation = createGenerationService({
      db: database.db,
      queue,
      files,
      engine,
      config,
      runsWorkers,
      logger: app.log,
      onBatchFinished: (tx, batchId) => webhooks.emitBatchFinished(tx, batchId),
    });
    const audits = createAuditService({
      db: database.db,
      queue,
      fetch: config.fetch,
      pages,
      runsWorkers,
      logger: app.log,
      generation,
      files,
      renderer,
      // A monitor's run is compared with its previous one first: the event carries the difference.
      onAuditCompleted: async (tx, auditId) =>
        webhooks.emitAuditCompleted(tx, auditId, await monitors.recordCompletedRun(tx, auditId)),
      // Audits are free: their pixel check always uses the offline engine's OCR, never a paid model.
      // With ALT_TEXT_ENGINE=openai an offline engine is made for it (it loads nothing until used).
      readImageText: (image) => {
        if (!engine?.readImageText) pixelEngine ??= createOfflineEngine(config.engine);
        const reader = engine?.readImageText ? engine : pixelEngine;
        if (!reader?.readImageText) throw new Error('The offline engine reads no pixels.');
        return reader.readImageText(image);
      },
    });
    const monitors = createMonitorsService({
      db: database.db,
      audits,
      mail,
      publicUrl: config.publicUrl,
      logger: app.log,
    });
    const integrations = createIntegrationsService({
      db: database.db,
      queue,
      audits,
      box: createCredentialBox(await resolveIntegrationsSecret(config.integrations.secret, config.dataDir)),
      fetch: config.fetch,
      settings: config.integrations,
      logger: app.log,
    });
    const imageMetadata = createImageMetadataService({ db: database.db, files, config, logger: app.log });
    await queue.start();
    if (runsWorkers)
      await startWorkers(
        queue,
        { files, mail, credits, generation, audits, monitors, webhooks, integrations },
        options.workOptions,
      );

    app.decorate('config', config);
    app.decorate('deps', {
      database,
      storage,
      queue,
      files,
      mail,
      accounts,
      sessionUsers,
      accountDeletion,
      apiKeys,
      credits,
      billing,
      engine,
      contact,
      content,
      scrape,
      library,
      reels,
      imageEngine,
      studio,
      generation,
      webhooks,
      audits,
      monitors,
      integrations,
      imageMetadata,
      pages,
      renderer,
      sandboxPayments: payments.sandbox,
    });
  } catch (error) {
    await queue?.stop().catch(() => {});
    await mailTransport?.close().catch(() => {});
    await engine?.close().catch(() => {});
    await pixelEngine?.close().catch(() => {});
    await pages.close().catch(() => {});
    await renderer?.close().catch(() => {});
    await database.close().catch(() => {});
    throw error;
  }

  app.addHook('onClose', async (instance) => {
    // Batches under way stop claiming images and finish the ones in hand; the rest resume later.
    await instance.deps.generation
      .close()
      .catch((error) => instance.log.error({ err: error }, 'stopping generation failed'));
    await instance.deps.audits
      .close()
      .catch((error) => instance.log.error({ err: error }, 'stopping audits failed'));
    // Imports waiting for a slot give up (their jobs retry); the running ones finish their job below.
    instance.deps.integrations.close();
    // Workers finish their current job before the database goes away.
    await instance.deps.queue
      .stop()
      .catch((error) => instance.log.error({ err: error }, 'stopping the queue failed'));
    await instance.deps.mail.close().catch(() => {});
    await instance.deps.engine
      .close()
      .catch((error) => instance.log.error({ err: error }, 'closing the engine failed'));
    await pixelEngine?.close().catch(() => {});
    // After the audits and the queue: no page is being read any more.
    await instance.deps.pages.close().catch(() => {});
    await instance.deps.renderer?.close().catch(() => {});
    await instance.deps.database.close();
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  try {
    await app.register(errorHandlerPlugin);
    // First of the plugins with routes: every route after it is protected unless marked public (ADR 047).
    await app.register(authPlugin, {
      authenticate: app.deps.accounts.authenticate,
      apiKeys: app.deps.apiKeys,
    });
    await app.register(securityPlugin, { https: config.publicUrl.startsWith('https://') });
    await app.register(docsPlugin);

    const health = createHealthService({
      database: app.deps.database,
      queue: app.deps.queue,
      storage: app.deps.storage,
      role: config.role,
      version: packageJson.version,
    });
    await app.register(healthRoutes, { prefix: API_BASE, health });
    await app.register(accountsRoutes, { prefix: API_BASE, accounts: app.deps.accounts, config });
    await app.register(accountDeletionRoutes, {
      prefix: API_BASE,
      deletion: app.deps.accountDeletion,
      config,
    });
    await app.register(apiKeysRoutes, { prefix: API_BASE, apiKeys: app.deps.apiKeys });
    await app.register(creditsRoutes, { prefix: API_BASE, credits: app.deps.credits });
    await app.register(billingRoutes, { prefix: API_BASE, billing: app.deps.billing });
    await app.register(paymentWebhookRoutes, { prefix: API_BASE, billing: app.deps.billing });
    await app.register(contactRoutes, {
      prefix: API_BASE,
      contact: app.deps.contact,
      rateLimit: config.contact.rateLimit,
    });
    await app.register(contentRoutes, {
      prefix: API_BASE,
      content: app.deps.content,
      rateLimit: config.content.rateLimit,
    });
    await app.register(scrapeRoutes, { prefix: API_BASE, scrape: app.deps.scrape });
    await app.register(libraryRoutes, { prefix: API_BASE, library: app.deps.library });
    await app.register(reelsRoutes, { prefix: API_BASE, reels: app.deps.reels });
    await app.register(studioRoutes, { prefix: API_BASE, studio: app.deps.studio });
    await app.register(generationRoutes, { prefix: API_BASE, generation: app.deps.generation });
    await app.register(webhooksRoutes, { prefix: API_BASE, webhooks: app.deps.webhooks });
    await app.register(auditRoutes, { prefix: API_BASE, audits: app.deps.audits });
    await app.register(monitorRoutes, { prefix: API_BASE, monitors: app.deps.monitors });
    await app.register(integrationsRoutes, { prefix: API_BASE, integrations: app.deps.integrations });
    await app.register(imageMetadataRoutes, { prefix: API_BASE, metadata: app.deps.imageMetadata });
    if (app.deps.billing.sandboxPayments)
      await app.register(sandboxCheckoutRoutes, {
        payments: app.deps.billing.sandboxPayments,
        publicUrl: config.publicUrl,
      });
    if (config.env === 'development') await app.register(devOutboxRoutes, { mail: app.deps.mail });
    await app.register(filesRoutes, { files: app.deps.files });
    await app.register(webPlugin, config.web);
  } catch (error) {
    // The onClose hook stops the queue and closes the database.
    await app.close().catch(() => {});
    throw error;
  }

  return app;
}
