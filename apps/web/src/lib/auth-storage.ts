/**
 * The browser storage keys of the product spec §3: `token` (a JWT), `user` (JSON: id, username, email, firstName,
 * lastName) and `userId`. Every read and write of the session goes through this module so that the
 * AuthProvider can follow changes made elsewhere (a 401 in the API client, another tab).
 */

export const storageKeys = { token: 'token', user: 'user', userId: 'userId' } as const;

export type StoredUser = {
  id: string;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
};

type Listener = () => void;
const listeners = new Set<Listener>();

function notify(): void {
  for (const listener of listeners) listener();
}

/** Calls `listener` whenever the stored session changes, in this tab or another one. */
export function subscribeToSession(listener: Listener): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === storageKeys.token || event.key === storageKeys.user) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** Storage can throw (private mode, disabled cookies); the app then behaves as signed out. */
function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Nothing to do: the session lives in memory for this page only.
  }
}

function remove(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // Same as above.
  }
}

export function readToken(): string | null {
  const token = read(storageKeys.token);
  return token ? token : null;
}

export function writeToken(token: string): void {
  write(storageKeys.token, token);
  notify();
}

/** Removes only the token (what a 401 does, the product spec §4); the user record stays until logout. */
export function clearToken(): void {
  remove(storageKeys.token);
  notify();
}

function toText(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

/** Accepts any object with an id; missing text fields become ''. Returns null for anything else. */
export function toStoredUser(value: unknown): StoredUser | null {
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  const id = toText(record.id);
  if (!id) return null;
  return {
    id,
    username: toText(record.username),
    email: toText(record.email),
    firstName: toText(record.firstName),
    lastName: toText(record.lastName),
  };
}

export function readUser(): StoredUser | null {
  const raw = read(storageKeys.user);
  if (!raw) return null;
  try {
    return toStoredUser(JSON.parse(raw));
  } catch {
    return null;
  }
}

export function writeUser(user: StoredUser): void {
  write(storageKeys.user, JSON.stringify(user));
  write(storageKeys.userId, user.id);
  notify();
}

/** The stored `userId`, falling back to the stored user's id (the product spec §3). */
export function readUserId(): string | null {
  return read(storageKeys.userId) || readUser()?.id || null;
}

/** Logout wipes all local storage, not only our keys (the product spec §4). */
export function clearAllStorage(): void {
  try {
    window.localStorage.clear();
  } catch {
    // Nothing stored that we could reach.
  }
  notify();
}
