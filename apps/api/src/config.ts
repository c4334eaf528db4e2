import path from 'node:path';
import { type ProductId, productIds } from '@altwise/contracts/billing';
import { z } from 'zod';
import { type EngineOptions, engineEnvSchema, engineOptionsFromParsedEnv } from './engines/engine-options.ts';
import type { ImageEngineConfig } from './engines/images/create-image-engine.ts';

/**
 * The environment, checked once at start. This is the only module that reads `process.env`;
 * everything else receives an `AppConfig`. Every variable is listed with its default in the
 * repository's `.env.example`.
 */

const repoRoot = path.resolve(import.meta.dirname, '../../..');

export const processRoles = ['all', 'api', 'worker'] as const;
export type ProcessRole = (typeof processRoles)[number];

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

/** Empty strings count as unset, so `FOO=` in a .env file means "use the default". */
const optionalText = z.preprocess((value) => (value === '' ? undefined : value), z.string().optional());

const booleanText = (name: string) =>
  z.preprocess(
    (value) => (value === '' ? undefined : value),
    z
      .enum(['true', 'false', '1', '0', 'yes', 'no'], {
        error: `${name} must be true or false`,
      })
      .transform((value) => value === 'true' || value === '1' || value === 'yes')
      .optional(),
  );

const positiveInt = (name: string, fallback: number) =>
  z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce
      .number({ error: `${name} must be a number` })
      .int(`${name} must be a whole number`)
      .min(1, `${name} must be at least 1`)
      .default(fallback),
  );

export const paymentProviders = ['sandbox', 'dodo'] as const;
export type PaymentProviderName = (typeof paymentProviders)[number];

/** DODO_PRODUCT_GROWTH_MONTHLY, …, DODO_PRODUCT_CREDIT_PACK: Dodo's product id for each catalogue product. */
export const dodoProductVariable = (productId: ProductId) =>
  `DODO_PRODUCT_${productId.toUpperCase().replaceAll('-', '_')}` as const;
const dodoProductVariables = Object.fromEntries(
  productIds.map((id) => [dodoProductVariable(id), optionalText]),
) as Record<`DODO_PRODUCT_${string}`, typeof optionalText>;

const envSchema = z.object({
  NODE_ENV: z
    .enum(['development', 'production', 'test'], {
      error: 'NODE_ENV must be development, production or test',
    })
    .default('development'),
  PORT: z.coerce
    .number({ error: 'PORT must be a number' })
    .int('PORT must be a whole number')
    .min(1, 'PORT must be between 1 and 65535')
    .max(65535, 'PORT must be between 1 and 65535')
    .default(3000),
  HOST: z.string().min(1, 'HOST must not be empty').default('0.0.0.0'),
  DATA_DIR: z.string().min(1, 'DATA_DIR must not be empty').default('./data'),
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres:// or postgresql://')
      .optional(),
  ),
  PUBLIC_URL: optionalText.pipe(
    z.url({ protocol: /^https?$/, error: 'PUBLIC_URL must be an absolute http(s) URL' }).optional(),
  ),
  LOG_LEVEL: z.enum(logLevels, { error: `LOG_LEVEL must be one of ${logLevels.join(', ')}` }).default('info'),
  PROCESS_ROLE: z.enum(processRoles, { error: 'PROCESS_ROLE must be all, api or worker' }).default('all'),
  STORAGE_DRIVER: z.enum(['local', 's3'], { error: 'STORAGE_DRIVER must be local or s3' }).default('local'),
  S3_BUCKET: optionalText,
  S3_REGION: optionalText,
  S3_ENDPOINT: optionalText.pipe(
    z.url({ protocol: /^https?$/, error: 'S3_ENDPOINT must be an absolute http(s) URL' }).optional(),
  ),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: booleanText('S3_FORCE_PATH_STYLE'),
  WEB_DIST_DIR: optionalText,
  SERVE_WEB: booleanText('SERVE_WEB'),
  TRUST_PROXY: booleanText('TRUST_PROXY'),
  JWT_SECRET: optionalText.pipe(
    z.string().min(32, 'JWT_SECRET must be at least 32 characters (e.g. openssl rand -base64 48)').optional(),
  ),
  INTEGRATIONS_SECRET: optionalText.pipe(
    z
      .string()
      .min(32, 'INTEGRATIONS_SECRET must be at least 32 characters (e.g. openssl rand -base64 48)')
      .optional(),
  ),
  WORDPRESS_REQUESTS_PER_MINUTE: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce
      .number({ error: 'WORDPRESS_REQUESTS_PER_MINUTE must be a number' })
      .int('WORDPRESS_REQUESTS_PER_MINUTE must be a whole number')
      .min(1, 'WORDPRESS_REQUESTS_PER_MINUTE must be at least 1')
      .default(300),
  ),
  WORDPRESS_TIMEOUT_MS: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce
      .number({ error: 'WORDPRESS_TIMEOUT_MS must be a number' })
      .int('WORDPRESS_TIMEOUT_MS must be a whole number')
      .min(100, 'WORDPRESS_TIMEOUT_MS must be at least 100')
      .max(300_000, 'WORDPRESS_TIMEOUT_MS must be at most 300000 (5 minutes)')
      .default(30_000),
  ),
  WORDPRESS_PAGE_SIZE: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce
      .number({ error: 'WORDPRESS_PAGE_SIZE must be a number' })
      .int('WORDPRESS_PAGE_SIZE must be a whole number')
      .min(1, 'WORDPRESS_PAGE_SIZE must be at least 1')
      .max(100, 'WORDPRESS_PAGE_SIZE must be at most 100 (WordPress answers no more per page)')
      .default(100),
  ),
  WORDPRESS_LEASE_MS: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce
      .number({ error: 'WORDPRESS_LEASE_MS must be a number' })
      .int('WORDPRESS_LEASE_MS must be a whole number')
      .min(1000, 'WORDPRESS_LEASE_MS must be at least 1000 (1 second)')
      .max(3_600_000, 'WORDPRESS_LEASE_MS must be at most 3600000 (1 hour)')
      .default(120_000),
  ),
  WORDPRESS_MAX_ANSWER_BYTES: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce
      .number({ error: 'WORDPRESS_MAX_ANSWER_BYTES must be a number' })
      .int('WORDPRESS_MAX_ANSWER_BYTES must be a whole number')
      .min(65_536, 'WORDPRESS_MAX_ANSWER_BYTES must be at least 65536 (64 KB)')
      .max(67_108_864, 'WORDPRESS_MAX_ANSWER_BYTES must be at most 67108864 (64 MB)')
      .default(8_388_608),
  ),
  WORDPRESS_CONCURRENCY: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce
      .number({ error: 'WORDPRESS_CONCURRENCY must be a number' })
      .int('WORDPRESS_CONCURRENCY must be a whole number')
      .min(1, 'WORDPRESS_CONCURRENCY must be at least 1')
      .max(16, 'WORDPRESS_CONCURRENCY must be at most 16')
      .default(4),
  ),
  JWT_EXPIRES_IN: z
    .string()
    .regex(/^[1-9][0-9]*[smhdw]$/, 'JWT_EXPIRES_IN must be a number followed by s, m, h, d or w (e.g. 7d)')
    .default('7d'),
  GOOGLE_CLIENT_ID: optionalText,
  GOOGLE_JWKS_URL: z
    .url({ protocol: /^https?$/, error: 'GOOGLE_JWKS_URL must be an absolute http(s) URL' })
    .default('https://www.googleapis.com/oauth2/v3/certs'),
  SMTP_URL: optionalText.pipe(
    z
      .string()
      .regex(/^smtps?:\/\/[^/]/, 'SMTP_URL must look like smtp://user:pass@host:587 or smtps://host:465')
      .optional(),
  ),
  MAIL_FROM: z.string().min(3, 'MAIL_FROM must not be empty').default('Altwise <no-reply@localhost>'),
  AUTH_RATE_LIMIT_PER_IP: positiveInt('AUTH_RATE_LIMIT_PER_IP', 50),
  AUTH_RATE_LIMIT_PER_EMAIL: positiveInt('AUTH_RATE_LIMIT_PER_EMAIL', 10),
  AUTH_RATE_LIMIT_WINDOW_SECONDS: positiveInt('AUTH_RATE_LIMIT_WINDOW_SECONDS', 900),
  API_KEY_RATE_LIMIT_PER_MINUTE: positiveInt('API_KEY_RATE_LIMIT_PER_MINUTE', 120),
  SUPPORT_EMAIL: z
    .preprocess((value) => (value === '' ? undefined : value), z.string().optional())
    .default('support@localhost')
    .pipe(
      z
        .string()
        .regex(/^[^\s@<>]+@[^\s@<>]+$/, 'SUPPORT_EMAIL must be an email address such as support@example.com'),
    ),
  CONTACT_RATE_LIMIT_PER_IP: positiveInt('CONTACT_RATE_LIMIT_PER_IP', 5),
  CONTACT_RATE_LIMIT_WINDOW_SECONDS: positiveInt('CONTACT_RATE_LIMIT_WINDOW_SECONDS', 3600),
  CONTENT_RATE_LIMIT_PER_USER: positiveInt('CONTENT_RATE_LIMIT_PER_USER', 30),
  CONTENT_RATE_LIMIT_WINDOW_SECONDS: positiveInt('CONTENT_RATE_LIMIT_WINDOW_SECONDS', 3600),
  PAYMENT_PROVIDER: z
    .preprocess(
      (value) => (value === '' ? undefined : value),
      z.enum(paymentProviders, { error: 'PAYMENT_PROVIDER must be sandbox or dodo' }).optional(),
    )
    .default('sandbox'),
  ALLOW_SANDBOX_PAYMENTS: booleanText('ALLOW_SANDBOX_PAYMENTS'),
  PAYMENT_WEBHOOK_SECRET: optionalText.pipe(
    z.string().min(24, 'PAYMENT_WEBHOOK_SECRET must be at least 24 characters').optional(),
  ),
  DODO_API_KEY: optionalText,
  DODO_WEBHOOK_SECRET: optionalText,
  DODO_ENVIRONMENT: z
    .preprocess(
      (value) => (value === '' ? undefined : value),
      z
        .enum(['test_mode', 'live_mode'], { error: 'DODO_ENVIRONMENT must be test_mode or live_mode' })
        .optional(),
    )
    .default('test_mode'),
  ...dodoProductVariables,
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  FETCH_ALLOW_PRIVATE: booleanText('FETCH_ALLOW_PRIVATE'),
  CHROMIUM_PATH: optionalText,
  REEL_MAX_RENDERS: positiveInt('REEL_MAX_RENDERS', 1),
  REEL_RENDER_TIMEOUT_SECONDS: positiveInt('REEL_RENDER_TIMEOUT_SECONDS', 120),
  EXIFTOOL_PATH: z.string().trim().min(1, 'EXIFTOOL_PATH must name the exiftool program').default('exiftool'),
  GENERATION_CONCURRENCY: positiveInt('GENERATION_CONCURRENCY', 8),
  GENERATION_MAX_ATTEMPTS: positiveInt('GENERATION_MAX_ATTEMPTS', 3),
  GENERATION_RETRY_DELAY_MS: positiveInt('GENERATION_RETRY_DELAY_MS', 1000),
  GENERATION_LEASE_SECONDS: positiveInt('GENERATION_LEASE_SECONDS', 60),
  GENERATION_RATE_LIMIT_PER_MINUTE: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce
      .number({ error: 'GENERATION_RATE_LIMIT_PER_MINUTE must be a number' })
      .int('GENERATION_RATE_LIMIT_PER_MINUTE must be a whole number')
      .min(0, 'GENERATION_RATE_LIMIT_PER_MINUTE must be 0 (unlimited) or more')
      .default(0),
  ),
  STRIPE_API_BASE: optionalText.pipe(
    z.url({ protocol: /^https?$/, error: 'STRIPE_API_BASE must be an absolute http(s) URL' }).optional(),
  ),
  IMAGE_ENGINE: z
    .preprocess(
      (value) => (value === '' ? undefined : value),
      z.enum(['offline', 'openai'], { error: 'IMAGE_ENGINE must be offline or openai' }).optional(),
    )
    .default('offline'),
  OPENAI_IMAGE_MODEL: z
    .preprocess((value) => (value === '' ? undefined : value), z.string().optional())
    .default('gpt-image-1'),
  OPENAI_IMAGE_TIMEOUT_MS: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce
      .number({ error: 'OPENAI_IMAGE_TIMEOUT_MS must be a number' })
      .int('OPENAI_IMAGE_TIMEOUT_MS must be a whole number')
      .min(1000, 'OPENAI_IMAGE_TIMEOUT_MS must be between 1000 and 600000')
      .max(600_000, 'OPENAI_IMAGE_TIMEOUT_MS must be between 1000 and 600000')
      .default(120_000),
  ),
});

const engineVariableNames = Object.keys(engineEnvSchema.shape) as (keyof typeof engineEnvSchema.shape)[];

/** Every variable the app reads; `.env.example` lists each of them (a test checks). */
export const configVariableNames = [
  ...(Object.keys(envSchema.shape) as (keyof typeof envSchema.shape)[]),
  ...engineVariableNames,
];

export type StorageConfig =
  | { driver: 'local'; dir: string }
  | {
      driver: 's3';
      bucket: string;
      region: string;
      endpoint: string | undefined;
      accessKeyId: string | undefined;
      secretAccessKey: string | undefined;
      forcePathStyle: boolean;
    };

export type AppConfig = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** Absolute. Holds the embedded database (`pglite/`) and local files (`files/`). */
  dataDir: string;
  database: { driver: 'postgres'; url: string } | { driver: 'pglite'; dir: string };
  /** Base of links the product sends out (emails, file URLs), without a trailing slash. */
  publicUrl: string;
  logLevel: LogLevel;
  role: ProcessRole;
  storage: StorageConfig;
  web: { serve: boolean; distDir: string };
  /** Behind a reverse proxy: take client IP and protocol from X-Forwarded-* headers. */
  trustProxy: boolean;
  auth: {
    /** Unset outside production: a random secret is kept in `${dataDir}/jwt-secret` instead. */
    jwtSecret: string | undefined;
    /** Session token lifetime, e.g. `7d`. */
    jwtExpiresIn: string;
    /** Null when GOOGLE_CLIENT_ID is unset: Google sign-in is off. */
    google: { clientId: string; jwksUrl: string } | null;
    rateLimit: { perIp: number; perEmail: number; windowSeconds: number };
    /** Requests each API key may make per minute (ADR 028), counted in the database. */
    apiKeyRateLimitPerMinute: number;
  };
  mail: {
    /** Null: the embedded outbox (stored in the database and written to the log). */
    smtpUrl: string | null;
    from: string;
  };
  payments: PaymentsConfig;
  /** Null when STRIPE_SECRET_KEY is unset: the legacy card routes run on the sandbox. */
  stripe: StripeConfig | null;
  contact: {
    /** Where contact-form messages are emailed (reply-to: the sender). */
    supportEmail: string;
    rateLimit: { perIp: number; windowSeconds: number };
  };
  /** Blog posts each user may generate per window (a configured model costs money per call). */
  content: { rateLimit: { perUser: number; windowSeconds: number } };
  /** The alt-text and text engine (engines/engine-options.ts, ADR 005). */
  engine: EngineOptions;
  /** The media studio's image engine (engines/images, ADR 016); the API key and base URL are the engine's. */
  images: ImageEngineConfig;
  /** Reels (modules/reels, ADR 017): ffmpeg renders at once, their time limit, their scratch space. */
  reels: { maxRenders: number; renderTimeoutSeconds: number; tempDir: string };
  /** Image files carrying their alt text (modules/image-metadata, ADR 064): ExifTool and its scratch space. */
  metadata: { exiftoolPath: string; tempDir: string };
  /** Fetching user-given URLs (scraped pages, images): net/safe-fetch.ts. */
  fetch: {
    /** FETCH_ALLOW_PRIVATE: private and local addresses may be fetched. For local testing only. */
    allowPrivate: boolean;
    connectTimeoutMs: number;
    /** The whole fetch of a page, redirects and body included. */
    timeoutMs: number;
  };
  /**
   * Rendered audits (ADR 061): CHROMIUM_PATH, Debian's /usr/bin/chromium when unset,
   * `off` for none. A path where no browser is found means no rendering (render: "always" is refused).
   */
  render: { chromiumPath: string | null };
  /** Bulk alt-text generation (modules/generation, ADR 015). */
  generation: GenerationConfig;
  /** Outgoing webhooks (modules/webhooks, ADR 029): the answer's time limit and the retry schedule. */
  webhooks: { timeoutMs: number; retryBaseMs: number; retryMaxDelayMs: number; retryWindowMs: number };
  /** Connected WordPress sites (modules/integrations, ADR 056). */
  integrations: {
    /** Unset: a random secret is kept in `${dataDir}/integrations-secret` instead. */
    secret: string | undefined;
    /** Calls to one site per minute, from this process. */
    requestsPerMinute: number;
    /** One REST call, its answer included. */
    timeoutMs: number;
    /** Media, posts or pages read per REST call while importing; the import's cursor moves by pages. */
    pageSize: number;
    /** How long a run holds its site before another may take over (ms); renewed every quarter of it. */
    leaseMs: number;
    /** Most bytes read from one answer; the connection is cut past it (ADR 070). */
    maxAnswerBytes: number;
    /** Attachment writes a publish or undo has in flight to one site at once (ADR 076). */
    concurrency: number;
  };
};

export type GenerationConfig = {
  /** Images described at once by one process, across all batches. */
  concurrency: number;
  /** Engine attempts per image before it fails and is refunded. */
  maxAttempts: number;
  /** First retry delay; doubles each attempt. */
  retryDelayMs: number;
  /** How long a claimed image belongs to its worker before another process may take it over. */
  leaseSeconds: number;
  /** Engine calls per minute per provider and process; 0: unlimited. */
  rateLimitPerMinute: number;
};

export type PaymentsConfig =
  | {
      provider: 'sandbox';
      /** Signs the sandbox's webhooks; unset: a random one kept in `${dataDir}/payment-webhook-secret`. */
      webhookSecret: string | undefined;
    }
  | {
      provider: 'dodo';
      apiKey: string;
      webhookSecret: string;
      environment: 'test_mode' | 'live_mode';
      /** Dodo's product id for each catalogue product id. */
      productIds: Record<ProductId, string>;
    };

/** The legacy card routes through Stripe (ADR 012, "Stripe (legacy card routes)"). */
export type StripeConfig = {
  secretKey: string;
  /** The signing secret (whsec_…) of the Stripe webhook endpoint. */
  webhookSecret: string;
  /** A Stripe-compatible server instead of api.stripe.com (tests); null: Stripe itself. */
  apiBase: { protocol: 'http' | 'https'; host: string; port: number } | null;
};

function stripeApiBase(url: string | undefined): StripeConfig['apiBase'] {
  if (!url) return null;
  const parsed = new URL(url);
  const protocol = parsed.protocol === 'http:' ? 'http' : 'https';
  return {
    protocol,
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : protocol === 'http' ? 80 : 443,
  };
}

/** localhost, *.localhost, 127.0.0.0/8 or ::1: a PUBLIC_URL only this machine can reach. */
export function isLoopbackUrl(url: string): boolean {
  let hostname: string;
  try {
    hostname = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    hostname === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}

export class ConfigError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/**
 * Parses the environment into an `AppConfig`. Throws a `ConfigError` naming every bad variable at
 * once, so a misconfigured deployment is fixed in one round.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const parsed = envSchema.safeParse(env);
  // The engine's variables are checked by its own schema (with its cross-field rule); empty means unset here too.
  const engineParsed = engineEnvSchema.safeParse(
    Object.fromEntries(engineVariableNames.map((name) => [name, env[name] === '' ? undefined : env[name]])),
  );
  const problems: string[] = [];
  for (const result of [parsed, engineParsed]) {
    if (result.success) continue;
    for (const issue of result.error.issues) {
      const name = issue.path.join('.');
      problems.push(issue.message.startsWith(name) ? issue.message : `${name}: ${issue.message}`);
    }
  }
  // Cross-field rules are checked on the raw values so they are reported alongside field errors.
  const has = (name: string) => Boolean(env[name]?.trim());
  const role = env.PROCESS_ROLE || 'all';
  if ((role === 'api' || role === 'worker') && !has('DATABASE_URL')) {
    problems.push(
      `PROCESS_ROLE=${role} needs DATABASE_URL: the embedded PGlite database can only be opened by one process, so split API and worker processes must share a Postgres server`,
    );
  }
  if (env.STORAGE_DRIVER === 's3') {
    if (!has('S3_BUCKET')) problems.push('S3_BUCKET is required when STORAGE_DRIVER=s3');
    if (has('S3_ACCESS_KEY_ID') !== has('S3_SECRET_ACCESS_KEY')) {
      problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together');
    }
  }
  if (env.NODE_ENV === 'production' && !has('JWT_SECRET')) {
    problems.push(
      'JWT_SECRET is required when NODE_ENV=production: set it to a long random string (e.g. openssl rand -base64 48), the same for every API process',
    );
  }
  if (
    env.NODE_ENV === 'production' &&
    (env.PAYMENT_PROVIDER || 'sandbox') === 'sandbox' &&
    !isLoopbackUrl(env.PUBLIC_URL?.trim() || 'http://localhost') &&
    !['true', '1', 'yes'].includes(env.ALLOW_SANDBOX_PAYMENTS?.trim() ?? '')
  ) {
    problems.push(
      'PAYMENT_PROVIDER=sandbox on a public address (PUBLIC_URL is not localhost): the sandbox takes test cards, so anyone could buy credits without paying. Set PAYMENT_PROVIDER=dodo for real payments, or ALLOW_SANDBOX_PAYMENTS=true for a public demo where free credits are intended',
    );
  }
  if (env.PAYMENT_PROVIDER === 'dodo') {
    for (const name of ['DODO_API_KEY', 'DODO_WEBHOOK_SECRET', ...productIds.map(dodoProductVariable)]) {
      if (!has(name)) problems.push(`${name} is required when PAYMENT_PROVIDER=dodo`);
    }
  }
  if (
    env.IMAGE_ENGINE === 'openai' &&
    !has('OPENAI_API_KEY') &&
    new URL(env.OPENAI_BASE_URL?.trim() || 'https://api.openai.com/v1', 'https://api.openai.com').hostname ===
      'api.openai.com'
  ) {
    problems.push('OPENAI_API_KEY is required when IMAGE_ENGINE=openai talks to api.openai.com');
  }
  if (has('STRIPE_SECRET_KEY') && !has('STRIPE_WEBHOOK_SECRET')) {
    problems.push(
      'STRIPE_WEBHOOK_SECRET is required when STRIPE_SECRET_KEY is set: the signing secret (whsec_...) of the Stripe webhook endpoint that posts to /api/v1/webhooks/payments',
    );
  }
  if (!parsed.success || !engineParsed.success || problems.length > 0) throw new ConfigError(problems);

  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const storage: StorageConfig =
    e.STORAGE_DRIVER === 's3'
      ? {
          driver: 's3',
          bucket: e.S3_BUCKET ?? '',
          region: e.S3_REGION ?? 'us-east-1',
          endpoint: e.S3_ENDPOINT,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          forcePathStyle: e.S3_FORCE_PATH_STYLE ?? false,
        }
      : { driver: 'local', dir: path.join(dataDir, 'files') };

  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    database: e.DATABASE_URL
      ? { driver: 'postgres', url: e.DATABASE_URL }
      : { driver: 'pglite', dir: path.join(dataDir, 'pglite') },
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    logLevel: e.LOG_LEVEL,
    role: e.PROCESS_ROLE,
    storage,
    web: {
      serve: e.SERVE_WEB ?? e.NODE_ENV === 'production',
      distDir: path.resolve(e.WEB_DIST_DIR ?? path.join(repoRoot, 'apps/web/dist')),
    },
    trustProxy: e.TRUST_PROXY ?? false,
    auth: {
      jwtSecret: e.JWT_SECRET,
      jwtExpiresIn: e.JWT_EXPIRES_IN,
      google: e.GOOGLE_CLIENT_ID ? { clientId: e.GOOGLE_CLIENT_ID, jwksUrl: e.GOOGLE_JWKS_URL } : null,
      rateLimit: {
        perIp: e.AUTH_RATE_LIMIT_PER_IP,
        perEmail: e.AUTH_RATE_LIMIT_PER_EMAIL,
        windowSeconds: e.AUTH_RATE_LIMIT_WINDOW_SECONDS,
      },
      apiKeyRateLimitPerMinute: e.API_KEY_RATE_LIMIT_PER_MINUTE,
    },
    mail: { smtpUrl: e.SMTP_URL ?? null, from: e.MAIL_FROM },
    payments:
      e.PAYMENT_PROVIDER === 'dodo'
        ? {
            provider: 'dodo',
            apiKey: e.DODO_API_KEY ?? '',
            webhookSecret: e.DODO_WEBHOOK_SECRET ?? '',
            environment: e.DODO_ENVIRONMENT,
            productIds: Object.fromEntries(
              productIds.map((id) => [id, String(env[dodoProductVariable(id)] ?? '').trim()]),
            ) as Record<ProductId, string>,
          }
        : { provider: 'sandbox', webhookSecret: e.PAYMENT_WEBHOOK_SECRET },
    stripe: e.STRIPE_SECRET_KEY
      ? {
          secretKey: e.STRIPE_SECRET_KEY,
          webhookSecret: e.STRIPE_WEBHOOK_SECRET ?? '',
          apiBase: stripeApiBase(e.STRIPE_API_BASE),
        }
      : null,
    contact: {
      supportEmail: e.SUPPORT_EMAIL,
      rateLimit: { perIp: e.CONTACT_RATE_LIMIT_PER_IP, windowSeconds: e.CONTACT_RATE_LIMIT_WINDOW_SECONDS },
    },
    content: {
      rateLimit: {
        perUser: e.CONTENT_RATE_LIMIT_PER_USER,
        windowSeconds: e.CONTENT_RATE_LIMIT_WINDOW_SECONDS,
      },
    },
    engine: engineOptionsFromParsedEnv(engineParsed.data),
    images: {
      provider: e.IMAGE_ENGINE,
      openai: {
        baseURL: engineParsed.data.OPENAI_BASE_URL,
        apiKey: engineParsed.data.OPENAI_API_KEY || 'not-needed',
        model: e.OPENAI_IMAGE_MODEL,
        timeoutMs: e.OPENAI_IMAGE_TIMEOUT_MS,
        maxRetries: engineParsed.data.OPENAI_MAX_RETRIES,
      },
    },
    metadata: { exiftoolPath: e.EXIFTOOL_PATH, tempDir: path.join(dataDir, 'tmp', 'metadata') },
    reels: {
      maxRenders: e.REEL_MAX_RENDERS,
      renderTimeoutSeconds: e.REEL_RENDER_TIMEOUT_SECONDS,
      tempDir: path.join(dataDir, 'tmp', 'reels'),
    },
    fetch: { allowPrivate: e.FETCH_ALLOW_PRIVATE ?? false, connectTimeoutMs: 5_000, timeoutMs: 15_000 },
    render: { chromiumPath: e.CHROMIUM_PATH === 'off' ? null : (e.CHROMIUM_PATH ?? '/usr/bin/chromium') },
    generation: {
      concurrency: e.GENERATION_CONCURRENCY,
      maxAttempts: e.GENERATION_MAX_ATTEMPTS,
      retryDelayMs: e.GENERATION_RETRY_DELAY_MS,
      leaseSeconds: e.GENERATION_LEASE_SECONDS,
      rateLimitPerMinute: e.GENERATION_RATE_LIMIT_PER_MINUTE,
    },
    webhooks: {
      timeoutMs: 10_000,
      retryBaseMs: 30_000,
      retryMaxDelayMs: 3_600_000,
      retryWindowMs: 24 * 3_600_000,
    },
    integrations: {
      secret: e.INTEGRATIONS_SECRET,
      requestsPerMinute: e.WORDPRESS_REQUESTS_PER_MINUTE,
      timeoutMs: e.WORDPRESS_TIMEOUT_MS,
      pageSize: e.WORDPRESS_PAGE_SIZE,
      leaseMs: e.WORDPRESS_LEASE_MS,
      maxAnswerBytes: e.WORDPRESS_MAX_ANSWER_BYTES,
      concurrency: e.WORDPRESS_CONCURRENCY,
    },
  };
}
