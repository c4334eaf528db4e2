import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * Password rules after NIST SP 800-63B (ADR 074): a minimum length, a list of common and breached
 * passwords shipped with the product, and nothing else — no composition rules, pasting allowed.
 */
export const PASSWORD_MIN = 8;

export const passwordRuleMessages = {
  tooShort: `Password must be at least ${PASSWORD_MIN} characters`,
  tooCommon:
    'This password is on a list of common or breached passwords. Please choose one that is harder to guess.',
} as const;

let commonPasswords: Set<string> | undefined;

/** The shipped list (about 18,000 entries long enough to pass the length rule), built on first use. */
function commonPasswordSet(): Set<string> {
  commonPasswords ??= new Set(
    dictionary['passwords-common']
      .filter((entry) => entry.length >= PASSWORD_MIN)
      .map((entry) => entry.toLowerCase()),
  );
  return commonPasswords;
}

/** True when the password, in any letter case, is on the list of common or breached passwords. */
export function isCommonPassword(password: string): boolean {
  return commonPasswordSet().has(password.toLowerCase());
}

export type PasswordStrength = {
  /** 0: refused (too short or common), 1: weak, 2: fair, 3: strong. */
  score: 0 | 1 | 2 | 3;
  label: string;
};

/**
 * A hint, not a rule: longer passwords and passphrases score higher. Mixing character kinds only
 * helps a short one a little, so nobody is pushed towards "Passw0rd!"-style substitutions.
 */
export function passwordStrength(password: string): PasswordStrength {
  if (password.length < PASSWORD_MIN) return { score: 0, label: 'Too short' };
  if (isCommonPassword(password)) return { score: 0, label: 'Too common' };
  const distinct = new Set(password).size;
  const kinds = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^a-zA-Z0-9]/].filter((kind) => kind.test(password)).length;
  if (password.length >= 16 && distinct >= 8) return { score: 3, label: 'Strong' };
  if (password.length >= 12 && distinct >= 6)
    return { score: kinds >= 2 ? 3 : 2, label: kinds >= 2 ? 'Strong' : 'Fair' };
  if (distinct < 4) return { score: 1, label: 'Weak' };
  return { score: kinds >= 3 ? 2 : 1, label: kinds >= 3 ? 'Fair' : 'Weak' };
}
