import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { capture, freePort, isRoot } from './run.ts';
import { installDebianPackages } from './system-packages.ts';

/**
 * A throw-away WordPress for the integration tests: Debian's `wordpress` tree copied
 * into a temporary folder with its own wp-config.php, a MariaDB on a socket in that folder and
 * PHP's built-in server on a free loopback port. Application passwords work over http because
 * WP_ENVIRONMENT_TYPE is `local`. Pretty permalinks stay off, so the REST API answers at
 * `/?rest_route=` (and `/wp-json/` does not), as on many real sites.
 */
export type WordPressSite = {
  url: string;
  username: string;
  /** An application password for `username` (spaces included, as WordPress shows it). */
  applicationPassword: string;
  /** The administrator's login password (for the cookie login only). */
  loginPassword: string;
  stop: () => Promise<void>;
};

const WORDPRESS_TREE = '/usr/share/wordpress';
const THEME = '/usr/share/wordpress/wp-content/themes/twentytwentythree';
const PACKAGES = ['wordpress', 'wordpress-theme-twentytwentythree', 'mariadb-server', 'php-cli', 'php-mysql'];

function missingPackages(): boolean {
  return (
    !existsSync(join(WORDPRESS_TREE, 'wp-settings.php')) ||
    !existsSync(THEME) ||
    !existsSync('/usr/sbin/mariadbd') ||
    !existsSync('/usr/bin/mariadb-install-db') ||
    !existsSync('/usr/bin/php')
  );
}

async function waitFor(what: string, ready: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await ready().catch(() => false)) return;
    if (Date.now() > until) throw new Error(`${what} did not start within ${timeoutMs / 1000} s`);
    await sleep(100);
  }
}

/** Stops a child started with `detached: true` and its whole process group (PHP's workers too). */
function stopProcess(child: ChildProcess): Promise<void> {
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, signal);
    } catch {
      child.kill(signal);
    }
  };
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      signalGroup('SIGKILL');
      return resolve();
    }
    const timer = setTimeout(() => signalGroup('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      // The workers of PHP's built-in server outlive their parent: end the group.
      signalGroup('SIGKILL');
      resolve();
    });
    signalGroup('SIGTERM');
  });
}

function phpString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function wpConfig(socket: string): string {
  const salts = [
    'AUTH_KEY',
    'SECURE_AUTH_KEY',
    'LOGGED_IN_KEY',
    'NONCE_KEY',
    'AUTH_SALT',
    'SECURE_AUTH_SALT',
    'LOGGED_IN_SALT',
    'NONCE_SALT',
  ]
    .map((name) => `define('${name}', '${randomBytes(24).toString('hex')}');`)
    .join('\n');
  return `<?php
define('DB_NAME', 'wordpress');
define('DB_USER', 'root');
define('DB_PASSWORD', '');
define('DB_HOST', ${phpString(`localhost:${socket}`)});
define('DB_CHARSET', 'utf8mb4');
define('DB_COLLATE', '');
${salts}
define('WP_ENVIRONMENT_TYPE', 'local');
define('WP_CONTENT_DIR', __DIR__ . '/wp-content');
define('AUTOMATIC_UPDATER_DISABLED', true);
define('DISABLE_WP_CRON', true);
define('WP_HTTP_BLOCK_EXTERNAL', true);
$table_prefix = 'wp_';
if (!defined('ABSPATH')) define('ABSPATH', __DIR__ . '/');
require_once ABSPATH . 'wp-settings.php';
`;
}

/** Cookies of one browser-less session, enough for wp-login.php and the REST nonce. */
class CookieJar {
  readonly #cookies = new Map<string, string>();
  take(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair?.indexOf('=') ?? -1;
      if (pair && at > 0) this.#cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  }
  header(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
  set(name: string, value: string) {
    this.#cookies.set(name, value);
  }
}

/**
 * Gives the tests a WordPress: TEST_WORDPRESS_URL (with TEST_WORDPRESS_USER and
 * TEST_WORDPRESS_APP_PASSWORD) when set, else a throw-away one (about half a minute to a minute;
 * the Debian packages are installed first when missing and we run as root).
 */
export async function startWordPress(): Promise<WordPressSite> {
  const given = process.env.TEST_WORDPRESS_URL;
  if (given) {
    return {
      url: given,
      username: process.env.TEST_WORDPRESS_USER ?? 'admin',
      applicationPassword: process.env.TEST_WORDPRESS_APP_PASSWORD ?? '',
      loginPassword: process.env.TEST_WORDPRESS_LOGIN_PASSWORD ?? '',
      stop: async () => {},
    };
  }
  if (missingPackages()) await installDebianPackages(PACKAGES, 'WordPress with MariaDB and PHP');
  if (missingPackages())
    throw new Error(`WordPress is still missing after installing ${PACKAGES.join(' ')}.`);

  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'altwise-wp-'));
  const dataDir = join(dir, 'db');
  const socket = join(dir, 'mysql.sock');
  const tree = join(dir, 'wordpress');
  const children: ChildProcess[] = [];
  // Detached (their own process groups), so Ctrl-C in a terminal does not reach them: they are
  // ended here when this process exits or is told to stop, and by a watchdog if it is killed.
  const killAll = () => {
    for (const child of children)
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {}
  };
  const onSignal = (signal: NodeJS.Signals) => {
    killAll();
    rmSync(dir, { recursive: true, force: true });
    process.removeListener(signal, onSignal);
    // Alone, we keep the signal's usual end (the process dies); else the other listeners decide.
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  process.once('exit', killAll);
  for (const signal of signals) process.on(signal, onSignal);
  let watchdog: ChildProcess | undefined;
  const stop = async () => {
    process.removeListener('exit', killAll);
    for (const signal of signals) process.removeListener(signal, onSignal);
    if (watchdog?.pid) process.kill(-watchdog.pid, 'SIGKILL');
    for (const child of children.reverse()) await stopProcess(child);
    rmSync(dir, { recursive: true, force: true });
  };
  /** A killed (SIGKILL) test process runs no handler: a shell polls it and ends the servers after it. */
  const watch = () => {
    const groups = children.flatMap((child) => (child.pid ? [`-${child.pid}`] : []));
    watchdog = spawn(
      'sh',
      [
        '-c',
        'while kill -0 "$0" 2>/dev/null; do sleep 2; done; kill -KILL "$@" 2>/dev/null; rm -rf "$WATCHED_DIR"',
        String(process.pid),
        ...groups,
      ],
      {
        stdio: 'ignore',
        detached: true,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', WATCHED_DIR: dir },
      },
    );
    watchdog.unref();
  };
  try {
    // MariaDB refuses root unless told to run as root; as anyone else it runs as that user.
    const user = isRoot() ? ['--user=root'] : [];
    await capture('mariadb-install-db', [
      '--auth-root-authentication-method=normal',
      `--datadir=${dataDir}`,
      '--skip-test-db',
      ...user,
    ]);
    const mariadb = spawn(
      '/usr/sbin/mariadbd',
      [
        '--no-defaults',
        `--datadir=${dataDir}`,
        `--socket=${socket}`,
        '--skip-networking',
        `--pid-file=${join(dir, 'mariadb.pid')}`,
        `--log-error=${join(dir, 'mariadb.log')}`,
        '--innodb-flush-log-at-trx-commit=0',
        ...user,
      ],
      { stdio: 'ignore', detached: true },
    );
    children.push(mariadb);
    await waitFor(
      'MariaDB',
      async () => {
        await capture('mariadb', [
          `--socket=${socket}`,
          '-uroot',
          '-e',
          'CREATE DATABASE IF NOT EXISTS wordpress',
        ]);
        return true;
      },
      30_000,
    );

    // A copy, not symlinks: PHP resolves __DIR__ through symlinks, which would load Debian's config.
    cpSync(WORDPRESS_TREE, tree, { recursive: true, verbatimSymlinks: true });
    rmSync(join(tree, 'wp-config.php'), { force: true });
    rmSync(join(tree, 'wp-content'), { recursive: true, force: true });
    for (const folder of ['themes', 'plugins', 'uploads'])
      mkdirSync(join(tree, 'wp-content', folder), { recursive: true });
    symlinkSync(THEME, join(tree, 'wp-content', 'themes', 'twentytwentythree'));
    writeFileSync(join(tree, 'wp-config.php'), wpConfig(socket));

    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const php = spawn('php', ['-S', `127.0.0.1:${port}`, '-t', tree], {
      cwd: tree,
      stdio: 'ignore',
      detached: true,
      // A few PHP workers, so a page that fetches from the site itself does not wait on itself.
      env: { ...process.env, PHP_CLI_SERVER_WORKERS: '4' },
    });
    children.push(php);
    await waitFor(
      'PHP',
      async () => (await fetch(`${url}/wp-login.php`, { redirect: 'manual' })).status > 0,
      30_000,
    );

    const username = 'admin';
    const loginPassword = randomBytes(12).toString('hex');
    const install = await fetch(`${url}/wp-admin/install.php?step=2`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        weblog_title: 'Altwise test site',
        user_name: username,
        admin_password: loginPassword,
        admin_password2: loginPassword,
        pw_weak: '1',
        admin_email: 'admin@example.com',
        blog_public: '0',
        language: '',
      }),
    });
    const installed = await install.text();
    if (!install.ok || !/Success!/i.test(installed))
      throw new Error(`WordPress did not install (${install.status}): ${installed.slice(0, 300)}`);

    const jar = new CookieJar();
    jar.set('wordpress_test_cookie', 'WP%20Cookie%20check');
    const login = await fetch(`${url}/wp-login.php`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header() },
      body: new URLSearchParams({ log: username, pwd: loginPassword, testcookie: '1' }),
    });
    jar.take(login);
    if (login.status !== 302) throw new Error(`WordPress login failed (${login.status})`);
    const nonce = (
      await (
        await fetch(`${url}/wp-admin/admin-ajax.php?action=rest-nonce`, { headers: { cookie: jar.header() } })
      ).text()
    ).trim();
    if (!/^[0-9a-f]+$/.test(nonce)) throw new Error(`WordPress gave no REST nonce: ${nonce.slice(0, 100)}`);
    const created = await fetch(`${url}/?rest_route=/wp/v2/users/me/application-passwords`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: jar.header(), 'x-wp-nonce': nonce },
      body: JSON.stringify({ name: 'altwise-tests' }),
    });
    const body = (await created.json()) as { password?: string; message?: string };
    if (!created.ok || !body.password)
      throw new Error(`WordPress made no application password (${created.status}): ${body.message ?? ''}`);
    watch();
    console.log(
      `[setup] WordPress started on ${url} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    return { url, username, applicationPassword: body.password, loginPassword, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The environment a test process reads to use this WordPress instead of starting its own. */
export function wordpressEnv(site: WordPressSite): Record<string, string> {
  return {
    TEST_WORDPRESS_URL: site.url,
    TEST_WORDPRESS_USER: site.username,
    TEST_WORDPRESS_APP_PASSWORD: site.applicationPassword,
    TEST_WORDPRESS_LOGIN_PASSWORD: site.loginPassword,
  };
}

/** What the seed helpers need of a site. */
type Site = Pick<WordPressSite, 'url' | 'username' | 'applicationPassword'>;

export type SeededMedia = { id: number; sourceUrl: string; altText: string };
export type SeededPost = { id: number; link: string; modified: string };

function authorization(site: Site): string {
  return `Basic ${Buffer.from(`${site.username}:${site.applicationPassword}`).toString('base64')}`;
}

/** One REST call with the application password; throws with WordPress's message when it fails. */
export async function wordpressRest<T>(
  site: Site,
  route: string,
  init: { method?: string; json?: unknown; body?: Buffer; headers?: Record<string, string> } = {},
): Promise<T> {
  const [path, query] = route.split('?');
  const address = `${site.url}/?rest_route=${path}${query ? `&${query}` : ''}`;
  const response = await fetch(address, {
    method: init.method ?? (init.json || init.body ? 'POST' : 'GET'),
    headers: {
      authorization: authorization(site),
      ...(init.json ? { 'content-type': 'application/json' } : {}),
      ...init.headers,
    },
    ...(init.json
      ? { body: JSON.stringify(init.json) }
      : init.body
        ? { body: new Uint8Array(init.body) }
        : {}),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`WordPress ${route} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/** Uploads one image to the media library, with its alt text, title and caption. */
export async function uploadMedia(
  site: Site,
  file: { name: string; bytes: Buffer; type: string; altText?: string; title?: string; caption?: string },
): Promise<SeededMedia> {
  const media = await wordpressRest<{ id: number; source_url: string }>(site, '/wp/v2/media', {
    body: file.bytes,
    headers: { 'content-type': file.type, 'content-disposition': `attachment; filename="${file.name}"` },
  });
  const altText = file.altText ?? '';
  if (file.altText !== undefined || file.title !== undefined || file.caption !== undefined)
    await wordpressRest(site, `/wp/v2/media/${media.id}`, {
      json: {
        alt_text: altText,
        ...(file.title !== undefined ? { title: file.title } : {}),
        ...(file.caption !== undefined ? { caption: file.caption } : {}),
      },
    });
  return { id: media.id, sourceUrl: media.source_url, altText };
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The block editor's markup of an image block, as WordPress 6 saves it. */
export function imageBlock(media: SeededMedia, alt: string): string {
  const altAttribute = escapeAttribute(alt);
  return `<!-- wp:image {"id":${media.id},"sizeSlug":"full","linkDestination":"none"} -->
<figure class="wp-block-image size-full"><img src="${media.sourceUrl}" alt="${altAttribute}" class="wp-image-${media.id}"/></figure>
<!-- /wp:image -->`;
}

/** Creates a published post (or page) with this block markup. */
export async function createPost(
  site: Site,
  post: { title: string; content: string; type?: 'posts' | 'pages' },
): Promise<SeededPost> {
  const created = await wordpressRest<{ id: number; link: string; modified_gmt: string }>(
    site,
    `/wp/v2/${post.type ?? 'posts'}`,
    { json: { title: post.title, content: post.content, status: 'publish' } },
  );
  return { id: created.id, link: created.link, modified: created.modified_gmt };
}

/**
 * A published post (or page) of one paragraph and then one image block per image, each with the
 * alt it is given: how the suites seed a page that uses the library's images.
 */
export function createImagePost(
  site: Site,
  post: { title: string; text: string; images: [SeededMedia, string][]; type?: 'posts' | 'pages' },
): Promise<SeededPost> {
  return createPost(site, {
    title: post.title,
    type: post.type,
    content: [
      `<!-- wp:paragraph --><p>${escapeAttribute(post.text)}</p><!-- /wp:paragraph -->`,
      ...post.images.map(([media, alt]) => imageBlock(media, alt)),
    ].join('\n\n'),
  });
}

/** The raw block markup of a post, as the editor stores it. */
export async function readPostRaw(
  site: Site,
  id: number,
  type: 'posts' | 'pages' = 'posts',
): Promise<string> {
  return (await wordpressRest<{ content: { raw: string } }>(site, `/wp/v2/${type}/${id}?context=edit`))
    .content.raw;
}

/**
 * A second user of the site with its own application password (made by the administrator, who may
 * make one for any user), to test what a user with fewer capabilities can and cannot do.
 */
export async function createWordPressUser(
  site: Site,
  user: { username: string; role: 'administrator' | 'editor' | 'author' | 'contributor' },
): Promise<Site & { id: number }> {
  const created = await wordpressRest<{ id: number }>(site, '/wp/v2/users', {
    json: {
      username: user.username,
      email: `${user.username}@example.com`,
      password: randomBytes(12).toString('hex'),
      roles: [user.role],
    },
  });
  const password = await wordpressRest<{ password: string }>(
    site,
    `/wp/v2/users/${created.id}/application-passwords`,
    { json: { name: 'altwise-tests' } },
  );
  return { id: created.id, url: site.url, username: user.username, applicationPassword: password.password };
}

/** Gives a user another role (the administrator's call). */
export async function setWordPressRole(
  site: Site,
  userId: number,
  role: 'administrator' | 'editor' | 'author' | 'contributor',
): Promise<void> {
  await wordpressRest(site, `/wp/v2/users/${userId}`, { json: { roles: [role] } });
}
