import { POST_LOGIN_DELAY_MS } from '@altwise/contracts/limits';
import { routes } from '@altwise/contracts/routes';
import { createContext, type ReactNode, use, useCallback, useEffect, useMemo, useState } from 'react';
import {
  clearAllStorage,
  readToken,
  readUser,
  type StoredUser,
  subscribeToSession,
  toStoredUser,
  writeToken,
  writeUser,
} from './auth-storage.ts';

/** What a login call hands over (the product spec §4): a token is required, the user and its id are optional. */
export type LoginData = {
  token?: string | null;
  user?: unknown;
};

export type AuthState = {
  isAuthenticated: boolean;
  user: StoredUser | null;
  /** Stores the session; resolves after POST_LOGIN_DELAY_MS. Without a token it logs an error and does nothing. */
  login: (data: LoginData) => Promise<void>;
  /** Clears the session and all local storage, then loads /login as a full page. */
  logout: () => void;
};

const AuthContext = createContext<AuthState | null>(null);

type Session = { isAuthenticated: boolean; user: StoredUser | null };

function readSession(): Session {
  return { isAuthenticated: readToken() !== null, user: readUser() };
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const assignLocation = (url: string) => window.location.assign(url);

export function AuthProvider({
  children,
  navigateTo = assignLocation,
}: {
  children: ReactNode;
  /** Full-page navigation used by logout; replaceable in tests. */
  navigateTo?: (url: string) => void;
}) {
  // Read synchronously so that a stored token counts from the first render (no flash of the public bar).
  const [session, setSession] = useState<Session>(readSession);

  // Follow changes made outside React: a 401 in the API client, a login or logout in another tab.
  useEffect(() => subscribeToSession(() => setSession(readSession())), []);

  const login = useCallback(async (data: LoginData) => {
    if (!data.token) {
      console.error('Login failed: the login data holds no token, so nothing was stored.');
      return;
    }
    writeToken(data.token);
    const user = toStoredUser(data.user);
    if (user) writeUser(user);
    setSession({ isAuthenticated: true, user: user ?? readUser() });
    await wait(POST_LOGIN_DELAY_MS);
  }, []);

  const logout = useCallback(() => {
    clearAllStorage();
    setSession({ isAuthenticated: false, user: null });
    navigateTo(routes.login);
  }, [navigateTo]);

  const value = useMemo<AuthState>(() => ({ ...session, login, logout }), [session, login, logout]);
  return <AuthContext value={value}>{children}</AuthContext>;
}

export function useAuth(): AuthState {
  const auth = use(AuthContext);
  if (!auth) throw new Error('useAuth must be used inside <AuthProvider>.');
  return auth;
}
