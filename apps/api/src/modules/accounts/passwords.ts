import { argon2, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Password hashing with argon2id, built into Node 24 (no native package). Hashes are stored as PHC
 * strings, `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`, so the parameters can be raised later
 * and old hashes still verify. The defaults are OWASP's recommended minimum for argon2id.
 */
export type Argon2Parameters = { memory: number; passes: number; parallelism: number };

export const defaultArgon2Parameters: Argon2Parameters = { memory: 19_456, passes: 2, parallelism: 1 };

const TAG_LENGTH = 32;
const SALT_LENGTH = 16;
const phcPattern = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

function derive(
  password: string,
  salt: Buffer,
  params: Argon2Parameters,
  tagLength: number,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    argon2(
      'argon2id',
      {
        message: Buffer.from(password, 'utf8'),
        nonce: salt,
        parallelism: params.parallelism,
        tagLength,
        memory: params.memory,
        passes: params.passes,
      },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

const b64 = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');

export async function hashPassword(
  password: string,
  params: Argon2Parameters = defaultArgon2Parameters,
): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const hash = await derive(password, salt, params, TAG_LENGTH);
  return `$argon2id$v=19$m=${params.memory},t=${params.passes},p=${params.parallelism}$${b64(salt)}$${b64(hash)}`;
}

/** False for a wrong password and for anything that is not an argon2id PHC string. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = phcPattern.exec(stored);
  if (!match) return false;
  const [, memory, passes, parallelism, salt, hash] = match;
  const expected = Buffer.from(hash ?? '', 'base64');
  const actual = await derive(
    password,
    Buffer.from(salt ?? '', 'base64'),
    { memory: Number(memory), passes: Number(passes), parallelism: Number(parallelism) },
    expected.length,
  );
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash of a random password, checked against when no account exists so timing does not tell. */
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return decoyHash;
}
