import { createHash, randomBytes } from 'node:crypto';
import { accountMessages, type ProfileUser, type SessionUser } from '@altwise/contracts/auth';
import { errorCodes } from '@altwise/contracts/errors';
import { DEFAULT_PLAN_LABEL, FREE_CREDITS } from '@altwise/contracts/limits';
import { messages } from '@altwise/contracts/messages';
import { routes } from '@altwise/contracts/routes';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Transaction } from '../../db/client.ts';
import type { AccountTokenPurpose } from '../../db/tables/account-tokens.ts';
import type { User } from '../../db/tables/users.ts';
import { AppError, badRequest, conflict, notFound, unauthorized } from '../../errors.ts';
import { isUuid } from '../../lib/ids.ts';
import { getContentHistory } from '../content/service.ts';
import { getCreditsSpent, grantCredits, SIGNUP_BONUS_REFERENCE } from '../credits/service.ts';
import type { MailService } from '../mail/service.ts';
import { confirmEmailMail, resetPasswordMail, welcomeMail } from '../mail/templates.ts';
import type { GoogleIdTokenVerifier } from './google-id-tokens.ts';
import { decoyPasswordHash, hashPassword, verifyPassword } from './passwords.ts';
import {
  claimWelcomeMail,
  findAccountTokenForUpdate,
  findUserByEmail,
  findUserByGoogleSub,
  findUserById,
  insertAccountToken,
  insertUser,
  markAccountTokenUsed,
  prepareSessionUserLookup,
  replacePassword,
  spendAccountTokens,
  updateUser,
} from './repository.ts';
import type { SessionTokens } from './session-tokens.ts';
import type { SessionUserCache } from './session-users.ts';

export const CONFIRM_EMAIL_TTL_MS = 24 * 60 * 60 * 1000;
export const RESET_PASSWORD_TTL_MS = 60 * 60 * 1000;

/** Who is calling, as established by `requireUser` from a verified session token. */
export type AuthUser = { id: string; email: string };

export type AccountsService = ReturnType<typeof createAccountsService>;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const tokenShape = /^[A-Za-z0-9_-]{32,64}$/;

function isUniqueViolation(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '23505') return true;
  }
  return false;
}

export function toSessionUser(user: User): SessionUser {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
  };
}

const usernameFrom = (email: string) => email.split('@')[0] || email;

/**
 * Accounts: registration and email confirmation, login, Google sign-in, profile and password.
 * Every write that belongs together (a user, its confirmation token and its mail; a confirmation and
 * its free credits) happens in one transaction, so a failure leaves nothing half-written.
 */
export function createAccountsService(deps: {
  db: Database;
  mail: MailService;
  sessions: SessionTokens;
  /** The users of recently authenticated sessions (ADR 039); this service forgets the ones it changes. */
  sessionUsers: SessionUserCache;
  /** Null when Google sign-in is not configured. */
  verifyGoogleIdToken: GoogleIdTokenVerifier | null;
  publicUrl: string;
  logger: FastifyBaseLogger;
  /** The plan the profile names (billing knows it); 'Trial' when not given. */
  currentPlanLabel?: (userId: string) => Promise<string>;
  /** How many images the user's library holds (the library knows it); 0 when not given. */
  countImages?: (userId: string) => Promise<number>;
}) {
  const { db, mail, sessions, sessionUsers, verifyGoogleIdToken, publicUrl } = deps;
  const readSessionUser = prepareSessionUserLookup(db);

  /** A fresh single-use token for an emailed link; only its hash is stored. */
  async function createAccountToken(
    tx: Transaction,
    userId: string,
    purpose: AccountTokenPurpose,
    ttlMs: number,
  ) {
    const token = randomBytes(32).toString('base64url');
    await insertAccountToken(tx, {
      userId,
      purpose,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + ttlMs),
    });
    return token;
  }

  async function queueConfirmation(tx: Transaction, user: User) {
    const token = await createAccountToken(tx, user.id, 'confirm-email', CONFIRM_EMAIL_TTL_MS);
    await mail.queueMail(tx, confirmEmailMail(user, `${publicUrl}${routes.confirmEmail(token)}`));
  }

  /** The welcome mail, at most once per account, with the account's own names. */
  async function queueWelcome(tx: Transaction, user: User) {
    if (await claimWelcomeMail(tx, user.id)) {
      await mail.queueMail(tx, welcomeMail(user, `${publicUrl}${routes.dashboard}`));
    }
  }

  /**
   * Marks the address confirmed, gives the free credits once (the ledger reference is unique) and
   * welcomes the person: a welcome before confirmation would greet an address nobody has proven.
   */
  async function confirmAddress(tx: Transaction, user: User) {
    if (!user.emailConfirmedAt) await updateUser(tx, user.id, { emailConfirmedAt: new Date() });
    await grantCredits(tx, user.id, FREE_CREDITS, 'grant', SIGNUP_BONUS_REFERENCE);
    await queueWelcome(tx, user);
  }

  const issueSession = (user: User) =>
    sessions.issue({ userId: user.id, sessionVersion: user.sessionVersion });

  return {
    async register(input: { firstName: string; lastName: string; email: string; password: string }) {
      if (await findUserByEmail(db, input.email)) throw conflict(accountMessages.emailTaken);
      const passwordHash = await hashPassword(input.password);
      try {
        await db.transaction(async (tx) => {
          const user = await insertUser(tx, {
            email: input.email,
            username: usernameFrom(input.email),
            firstName: input.firstName,
            lastName: input.lastName,
            passwordHash,
          });
          await queueConfirmation(tx, user);
        });
      } catch (error) {
        // Two registrations of the same address at once: the unique index decides.
        if (isUniqueViolation(error)) throw conflict(accountMessages.emailTaken);
        throw error;
      }
      return { status: 'success' as const, message: accountMessages.registered };
    },

    async confirmEmail(token: string) {
      if (!tokenShape.test(token)) {
        throw new AppError(errorCodes.tokenInvalid, accountMessages.confirmationInvalid);
      }
      await db.transaction(async (tx) => {
        const row = await findAccountTokenForUpdate(tx, hashToken(token), 'confirm-email');
        if (!row) throw new AppError(errorCodes.tokenInvalid, accountMessages.confirmationInvalid);
        const user = await findUserById(tx, row.userId);
        if (!user) throw new AppError(errorCodes.tokenInvalid, accountMessages.confirmationInvalid);
        if (user.emailConfirmedAt) {
          throw new AppError(errorCodes.emailAlreadyConfirmed, accountMessages.alreadyConfirmed);
        }
        if (row.usedAt) throw new AppError(errorCodes.tokenInvalid, accountMessages.confirmationInvalid);
        if (row.expiresAt.getTime() <= Date.now()) {
          throw new AppError(errorCodes.tokenExpired, accountMessages.confirmationExpired);
        }
        await markAccountTokenUsed(tx, row.id);
        await confirmAddress(tx, user);
      });
      return { status: 'success' as const, message: accountMessages.emailConfirmed };
    },

    /** Same answer whether or not the address has an account; only unconfirmed ones get a mail. */
    async resendConfirmation(email: string) {
      const user = await findUserByEmail(db, email);
      if (user && !user.emailConfirmedAt) await db.transaction((tx) => queueConfirmation(tx, user));
      return { status: 'success' as const, message: accountMessages.confirmationResent };
    },

    async login(email: string, password: string) {
      const user = await findUserByEmail(db, email);
      if (!user?.passwordHash) {
        // Spend the same time as a real check, so response time does not tell who has an account.
        await verifyPassword(password, await decoyPasswordHash());
        if (user) throw unauthorized(accountMessages.googlePasswordLogin);
        throw unauthorized(accountMessages.invalidCredentials);
      }
      if (!(await verifyPassword(password, user.passwordHash))) {
        throw unauthorized(accountMessages.invalidCredentials);
      }
      if (!user.emailConfirmedAt) {
        throw new AppError(errorCodes.emailNotConfirmed, accountMessages.emailNotConfirmed);
      }
      return {
        status: 'success' as const,
        message: messages.login.success,
        token: await issueSession(user),
        user: toSessionUser(user),
      };
    },

    /** For `requireUser`: null unless the token is valid and its session has not been revoked. */
    async authenticate(token: string): Promise<AuthUser | null> {
      const claims = await sessions.verify(token);
      if (!claims || !isUuid(claims.userId)) return null;
      // A database failure is not a signed-out caller: it answers 500, and the browser keeps its token.
      const user = await sessionUsers.find(claims.userId, readSessionUser);
      if (!user || user.sessionVersion !== claims.sessionVersion) return null;
      return { id: user.id, email: user.email };
    },

    async getProfile(userId: string): Promise<{ user: ProfileUser }> {
      const user = await findUserById(db, userId);
      if (!user) throw unauthorized();
      return {
        user: {
          ...toSessionUser(user),
          image_credits: user.imageCredits,
          imagecount: (await deps.countImages?.(user.id)) ?? 0,
          subscriptionPlan: (await deps.currentPlanLabel?.(user.id)) ?? DEFAULT_PLAN_LABEL,
          apiRequestCount: await getCreditsSpent(db, user.id),
          monthlyRequestCount: FREE_CREDITS,
          contentHistory: await getContentHistory(db, user.id),
          // Only once set: the profile of an account without one keeps the product spec's exact shape.
          ...(user.defaultLanguage ? { defaultLanguage: user.defaultLanguage } : {}),
        },
      };
    },

    async updateProfile(
      userId: string,
      input: { firstName: string; lastName: string; defaultLanguage?: string | null },
    ) {
      const user = await updateUser(db, userId, {
        firstName: input.firstName,
        lastName: input.lastName,
        ...(input.defaultLanguage === undefined ? {} : { defaultLanguage: input.defaultLanguage || null }),
      });
      if (!user) throw unauthorized();
      return {
        status: 'success' as const,
        message: accountMessages.profileUpdated,
        user: toSessionUser(user),
      };
    },

    /** Ends every earlier session and answers a fresh token for the caller's. */
    async changePassword(userId: string, input: { currentPassword: string; newPassword: string }) {
      const user = await findUserById(db, userId);
      if (!user) throw unauthorized();
      if (!user.passwordHash) throw badRequest(accountMessages.noPasswordYet);
      if (!(await verifyPassword(input.currentPassword, user.passwordHash))) {
        // 400, not 401: the session is fine, only the typed password is wrong.
        throw badRequest(accountMessages.wrongCurrentPassword, [
          { path: 'currentPassword', message: accountMessages.wrongCurrentPassword },
        ]);
      }
      const passwordHash = await hashPassword(input.newPassword);
      const updated = await db.transaction(async (tx) => {
        const row = await replacePassword(tx, user.id, passwordHash);
        await spendAccountTokens(tx, user.id, 'reset-password');
        return row;
      });
      // This process's cache must not wait for the notification (ADR 039).
      sessionUsers.forget(user.id);
      if (!updated) throw unauthorized();
      return {
        status: 'success' as const,
        message: accountMessages.passwordUpdated,
        token: await issueSession(updated),
      };
    },

    /** Same answer whether or not the address has an account. */
    async forgotPassword(email: string) {
      const user = await findUserByEmail(db, email);
      if (user) {
        await db.transaction(async (tx) => {
          const token = await createAccountToken(tx, user.id, 'reset-password', RESET_PASSWORD_TTL_MS);
          const link = `${publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
          await mail.queueMail(tx, resetPasswordMail(user, link));
        });
      }
      return { status: 'success' as const, message: accountMessages.resetRequested };
    },

    async resetPassword(token: string, password: string) {
      if (!tokenShape.test(token)) throw new AppError(errorCodes.tokenInvalid, accountMessages.resetInvalid);
      const passwordHash = await hashPassword(password);
      const userId = await db.transaction(async (tx) => {
        const row = await findAccountTokenForUpdate(tx, hashToken(token), 'reset-password');
        if (!row || row.usedAt) throw new AppError(errorCodes.tokenInvalid, accountMessages.resetInvalid);
        if (row.expiresAt.getTime() <= Date.now()) {
          throw new AppError(errorCodes.tokenExpired, accountMessages.resetExpired);
        }
        const user = await replacePassword(tx, row.userId, passwordHash);
        if (!user) throw new AppError(errorCodes.tokenInvalid, accountMessages.resetInvalid);
        await spendAccountTokens(tx, user.id, 'reset-password');
        // The link reached the mailbox, which is what confirming the address proves.
        if (!user.emailConfirmedAt) await confirmAddress(tx, user);
        return user.id;
      });
      sessionUsers.forget(userId);
      return { status: 'success' as const, message: accountMessages.passwordReset };
    },

    async signInWithGoogle(input: {
      credential: string;
      email?: string;
      googleId?: string;
      isLogin?: boolean;
    }) {
      if (!verifyGoogleIdToken) throw notFound(accountMessages.googleDisabled);
      const identity = await verifyGoogleIdToken(input.credential);
      const emailDiffers =
        input.email !== undefined && input.email.trim().toLowerCase() !== identity.email.toLowerCase();
      const subDiffers = input.googleId !== undefined && input.googleId !== identity.sub;
      if (emailDiffers || subDiffers) throw badRequest(accountMessages.googleMismatch);

      /** Set when linking Google ended the account's earlier sessions. */
      let endedSessionsOf: string | undefined;
      const run = () =>
        db.transaction(async (tx): Promise<{ user: User; isExistingUser: boolean }> => {
          const bySub = await findUserByGoogleSub(tx, identity.sub);
          if (bySub) return { user: bySub, isExistingUser: true };
          const byEmail = await findUserByEmail(tx, identity.email);
          if (byEmail) {
            // Same verified address: link Google to the account. A password set on an account that
            // was never confirmed did not prove the mailbox, so it is dropped (and its sessions end).
            let user = (await updateUser(tx, byEmail.id, { googleSub: identity.sub })) ?? byEmail;
            if (!user.emailConfirmedAt) {
              user = (await replacePassword(tx, user.id, null)) ?? user;
              await confirmAddress(tx, user);
              endedSessionsOf = user.id;
            }
            return { user, isExistingUser: true };
          }
          if (input.isLogin) throw notFound(messages.login.accountNotFound);
          const user = await insertUser(tx, {
            email: identity.email,
            username: usernameFrom(identity.email),
            firstName: identity.firstName || usernameFrom(identity.email),
            lastName: identity.lastName,
            googleSub: identity.sub,
            emailConfirmedAt: new Date(),
          });
          await grantCredits(tx, user.id, FREE_CREDITS, 'grant', SIGNUP_BONUS_REFERENCE);
          return { user, isExistingUser: false };
        });
      let outcome: Awaited<ReturnType<typeof run>>;
      try {
        outcome = await run();
      } catch (error) {
        // A double click created the account in between: the second attempt finds it.
        if (!isUniqueViolation(error)) throw error;
        outcome = await run();
      }
      if (endedSessionsOf) sessionUsers.forget(endedSessionsOf);
      const { user, isExistingUser } = outcome;
      const message = !isExistingUser
        ? messages.google.created
        : input.isLogin
          ? messages.google.loginSuccess
          : messages.google.alreadyRegistered;
      return {
        status: 'success' as const,
        isExistingUser,
        message,
        token: await issueSession(user),
        user: toSessionUser(user),
      };
    },

    /**
     * POST /email/registration: the welcome mail, sent only to a confirmed address with an account
     * and at most once per account, with the account's own names (never the request's), so the
     * endpoint cannot be used to mail arbitrary people or text. An unconfirmed account is welcomed
     * when it confirms. Always `{success: true}`.
     */
    async sendRegistrationEmail(email: string) {
      const user = await findUserByEmail(db, email);
      if (user?.emailConfirmedAt) await db.transaction((tx) => queueWelcome(tx, user));
      return { success: true as const };
    },
  };
}
