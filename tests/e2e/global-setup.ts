import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from '../../scripts/lib/run.ts';
import { startFakeGoogleKeys, startImagePage, startMailbox } from './test-services.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    dataDir: string;
    /** Where the test SMTP server writes each delivered message as JSON (mailbox.ts reads it). */
    mailDir: string;
    /** The product's GOOGLE_CLIENT_ID and the private JWK that signs test ID tokens (google.ts). */
    googleClientId: string;
    googlePrivateJwk: string;
    /** A local page with 30 images for the scrape journey (test-services.ts startImagePage). */
    imagePageURL: string;
  }
}

const root = resolve(import.meta.dirname, '../..');

async function waitForHealth(baseURL: string, child: ChildProcess, log: () => string) {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited with ${child.exitCode}:\n${log()}`);
    try {
      const response = await fetch(`${baseURL}/api/v1/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`The server did not become healthy in 90 s:\n${log()}`);
}

/**
 * Starts the built product in production mode on a free port with a throw-away data directory, a real
 * SMTP server it delivers mail to, and Google sign-in checked against keys made here.
 */
export default async function setup(project: TestProject) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'altwise-e2e-'));
  const mailDir = join(dataDir, 'e2e-mailbox');
  const mailbox = await startMailbox(mailDir);
  const google = await startFakeGoogleKeys();
  const imagePage = await startImagePage();
  const baseURL = `http://127.0.0.1:${port}`;
  let output = '';
  const child = spawn(process.execPath, [join(root, 'scripts/serve.ts')], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: baseURL,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      SMTP_URL: mailbox.url,
      MAIL_FROM: 'Altwise <no-reply@altwise.test>',
      GOOGLE_CLIENT_ID: google.clientId,
      GOOGLE_JWKS_URL: google.jwksUrl,
      // The scrape journey reads a page served on 127.0.0.1 (test-services.ts); off in production.
      FETCH_ALLOW_PRIVATE: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  try {
    await waitForHealth(baseURL, child, () => output);
  } catch (error) {
    child.kill('SIGTERM');
    await Promise.all([mailbox.close(), google.close(), imagePage.close()]);
    throw error;
  }
  project.provide('baseURL', baseURL);
  project.provide('dataDir', dataDir);
  project.provide('mailDir', mailDir);
  project.provide('googleClientId', google.clientId);
  project.provide('googlePrivateJwk', google.privateJwk);
  project.provide('imagePageURL', imagePage.url);

  return async () => {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    await Promise.all([mailbox.close(), google.close(), imagePage.close()]);
    rmSync(dataDir, { recursive: true, force: true });
  };
}
