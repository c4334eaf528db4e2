import type { PasswordStrength } from '@altwise/contracts/password-rules';
import { useEffect, useState } from 'react';

type Rules = typeof import('@altwise/contracts/password-rules');

let loading: Promise<Rules> | undefined;

/**
 * The strength hint under a new password (ADR 074). The rules carry the list of common passwords,
 * so they load after the page is on screen, as the form's schema does (ADR 038). Nothing shows
 * until something is typed: the form states no rules up front.
 */
export function usePasswordStrengthHint(password: string): string | undefined {
  const [rules, setRules] = useState<Rules>();
  useEffect(() => {
    let live = true;
    loading ??= import('@altwise/contracts/password-rules');
    loading.then(
      (arrived) => live && setRules(arrived),
      (error: unknown) => console.error('The password hint could not load.', error),
    );
    return () => {
      live = false;
    };
  }, []);
  if (!password || !rules) return undefined;
  return strengthHint(rules.passwordStrength(password));
}

function strengthHint(strength: PasswordStrength): string {
  const advice =
    strength.score >= 3
      ? 'Good choice.'
      : 'A longer phrase of a few unrelated words is stronger and easy to remember.';
  return `Password strength: ${strength.label}. ${advice}`;
}
