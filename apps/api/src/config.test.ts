import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, configVariableNames, loadConfig } from './config.ts';
import { engineOptionsFromEnv } from './engines/engine-options.ts';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected loadConfig to throw');
}

describe('loadConfig', () => {
  it('runs on embedded defaults with an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      env: 'development',
      port: 3000,
      host: '0.0.0.0',
      dataDir: path.resolve('data'),
      database: { driver: 'pglite', dir: path.resolve('data/pglite') },
      publicUrl: 'http://localhost:3000',
      logLevel: 'info',
      role: 'all',
      storage: { driver: 'local', dir: path.resolve('data/files') },
      web: { serve: false },
    });
    expect(config.web.distDir).toMatch(/apps\/web\/dist$/);
  });

  it('derives PUBLIC_URL from PORT, serves the web app in production and treats empty values as unset', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      PORT: '3101',
      DATA_DIR: '/tmp/x',
      DATABASE_URL: '',
      JWT_SECRET: 'x'.repeat(32),
    });
    expect(config.publicUrl).toBe('http://localhost:3101');
    expect(config.web.serve).toBe(true);
    expect(config.database).toEqual({ driver: 'pglite', dir: '/tmp/x/pglite' });
  });

  it('uses Postgres and S3 when configured', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://u:p@db:5432/altwise',
      PROCESS_ROLE: 'api',
      STORAGE_DRIVER: 's3',
      S3_BUCKET: 'files',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_FORCE_PATH_STYLE: 'true',
      PUBLIC_URL: 'https://altwise.example/',
      TRUST_PROXY: 'true',
    });
    expect(config.trustProxy).toBe(true);
    expect(config.database).toEqual({ driver: 'postgres', url: 'postgres://u:p@db:5432/altwise' });
    expect(config.role).toBe('api');
    expect(config.publicUrl).toBe('https://altwise.example');
    expect(config.storage).toMatchObject({
      driver: 's3',
      bucket: 'files',
      region: 'us-east-1',
      forcePathStyle: true,
    });
  });

  it('reads the WordPress import page size, 100 by default, refusing one WordPress would not answer', () => {
    expect(loadConfig({}).integrations.pageSize).toBe(100);
    expect(loadConfig({ WORDPRESS_PAGE_SIZE: '4' }).integrations.pageSize).toBe(4);
    expect(problemsOf({ WORDPRESS_PAGE_SIZE: '500' }).join('\n')).toContain(
      'WORDPRESS_PAGE_SIZE must be at most 100 (WordPress answers no more per page)',
    );
    expect(problemsOf({ WORDPRESS_PAGE_SIZE: 'all' }).join('\n')).toContain(
      'WORDPRESS_PAGE_SIZE must be a number',
    );
  });

  it('reads the WordPress run lease, two minutes by default, refusing one shorter than a second', () => {
    expect(loadConfig({}).integrations.leaseMs).toBe(120_000);
    expect(loadConfig({ WORDPRESS_LEASE_MS: '1000' }).integrations.leaseMs).toBe(1000);
    expect(problemsOf({ WORDPRESS_LEASE_MS: '10' }).join('\n')).toContain(
      'WORDPRESS_LEASE_MS must be at least 1000 (1 second)',
    );
  });

  it('reads how many attachment writes go to one site at once, 4 by default, refusing 0 and words', () => {
    expect(loadConfig({}).integrations.concurrency).toBe(4);
    expect(loadConfig({ WORDPRESS_CONCURRENCY: '8' }).integrations.concurrency).toBe(8);
    expect(problemsOf({ WORDPRESS_CONCURRENCY: '0' }).join('\n')).toContain(
      'WORDPRESS_CONCURRENCY must be at least 1',
    );
    expect(problemsOf({ WORDPRESS_CONCURRENCY: 'abc' }).join('\n')).toContain(
      'WORDPRESS_CONCURRENCY must be a number',
    );
    expect(problemsOf({ WORDPRESS_CONCURRENCY: '2.5' }).join('\n')).toContain(
      'WORDPRESS_CONCURRENCY must be a whole number',
    );
  });

  it('lists every bad variable at once', () => {
    const problems = problemsOf({
      NODE_ENV: 'staging',
      PORT: 'eighty',
      LOG_LEVEL: 'loud',
      PUBLIC_URL: 'not a url',
      DATABASE_URL: 'mysql://x',
      STORAGE_DRIVER: 's3',
      SERVE_WEB: 'maybe',
    });
    const text = problems.join('\n');
    for (const name of [
      'NODE_ENV',
      'PORT',
      'LOG_LEVEL',
      'PUBLIC_URL',
      'DATABASE_URL',
      'S3_BUCKET',
      'SERVE_WEB',
    ]) {
      expect(text).toContain(name);
    }
    expect(problems).toHaveLength(7);
  });

  it('refuses split roles on the embedded database, saying why', () => {
    for (const role of ['api', 'worker']) {
      const [problem] = problemsOf({ PROCESS_ROLE: role });
      expect(problem).toContain(`PROCESS_ROLE=${role} needs DATABASE_URL`);
      expect(problem).toContain('PGlite');
    }
  });

  it('requires a JWT_SECRET of 32+ characters in production only, and reads the account settings', () => {
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual([
      expect.stringMatching(/^JWT_SECRET is required when NODE_ENV=production/),
    ]);
    expect(problemsOf({ JWT_SECRET: 'short', JWT_EXPIRES_IN: 'forever', SMTP_URL: 'mail.example' })).toEqual([
      'JWT_SECRET must be at least 32 characters (e.g. openssl rand -base64 48)',
      'JWT_EXPIRES_IN must be a number followed by s, m, h, d or w (e.g. 7d)',
      'SMTP_URL must look like smtp://user:pass@host:587 or smtps://host:465',
    ]);
    const defaults = loadConfig({});
    expect(defaults.auth).toEqual({
      jwtSecret: undefined,
      jwtExpiresIn: '7d',
      google: null,
      rateLimit: { perIp: 50, perEmail: 10, windowSeconds: 900 },
      apiKeyRateLimitPerMinute: 120,
    });
    expect(defaults.mail).toEqual({ smtpUrl: null, from: 'Altwise <no-reply@localhost>' });
    const configured = loadConfig({
      GOOGLE_CLIENT_ID: 'client.apps.googleusercontent.com',
      SMTP_URL: 'smtp://u:p@mail:587',
      AUTH_RATE_LIMIT_PER_EMAIL: '2',
    });
    expect(configured.auth.google).toEqual({
      clientId: 'client.apps.googleusercontent.com',
      jwksUrl: 'https://www.googleapis.com/oauth2/v3/certs',
    });
    expect(configured.auth.rateLimit.perEmail).toBe(2);
    expect(configured.mail.smtpUrl).toBe('smtp://u:p@mail:587');
  });

  it('puts the whole list in the error message', () => {
    expect(() => loadConfig({ PORT: '70000', PROCESS_ROLE: 'boss' })).toThrow(
      /Invalid configuration:\n {2}- PORT must be between 1 and 65535\n {2}- PROCESS_ROLE must be all, api or worker/,
    );
  });

  it('folds in the engine and contact variables, with the same defaults as the engine itself', () => {
    const config = loadConfig({});
    expect(config.engine).toEqual(engineOptionsFromEnv({}));
    expect(config.contact).toEqual({
      supportEmail: 'support@localhost',
      rateLimit: { perIp: 5, windowSeconds: 3600 },
    });
    expect(config.content).toEqual({ rateLimit: { perUser: 30, windowSeconds: 3600 } });
    const configured = loadConfig({
      ALT_TEXT_ENGINE: 'openai',
      OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
      OPENAI_MODEL: 'llama3.2-vision',
      ENGINE_WORKERS: '',
      SUPPORT_EMAIL: 'help@altwise.example',
      CONTACT_RATE_LIMIT_PER_IP: '20',
    });
    expect(configured.engine).toMatchObject({
      provider: 'openai',
      openai: { baseURL: 'http://127.0.0.1:11434/v1', model: 'llama3.2-vision', apiKey: 'not-needed' },
      offline: { workers: 1 },
    });
    expect(configured.contact.supportEmail).toBe('help@altwise.example');
    expect(configured.contact.rateLimit.perIp).toBe(20);
  });

  it('lists bad engine and contact variables with the others', () => {
    const problems = problemsOf({
      PORT: 'x',
      ALT_TEXT_ENGINE: 'magic',
      ENGINE_WORKERS: '0',
      SUPPORT_EMAIL: 'nobody',
      CONTACT_RATE_LIMIT_PER_IP: '0',
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        'PORT must be a number',
        expect.stringMatching(/^ALT_TEXT_ENGINE: /),
        expect.stringMatching(/^ENGINE_WORKERS: /),
        'SUPPORT_EMAIL must be an email address such as support@example.com',
        'CONTACT_RATE_LIMIT_PER_IP must be at least 1',
      ]),
    );
    expect(problemsOf({ ALT_TEXT_ENGINE: 'openai' })).toEqual([
      'OPENAI_API_KEY is required when ALT_TEXT_ENGINE=openai talks to api.openai.com',
    ]);
  });

  it('has every variable listed in .env.example, and nothing else', async () => {
    const example = await readFile(path.resolve(import.meta.dirname, '../../../.env.example'), 'utf8');
    const listed = [...example.matchAll(/^([A-Z0-9_]+)=/gm)].map((match) => match[1]);
    expect(listed.sort()).toEqual([...configVariableNames].sort());
  });
});
