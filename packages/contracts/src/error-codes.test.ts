import { describe, expect, it } from 'vitest';
import { codeForStatus, errorCodes, errorStatus, statusForCode } from './error-codes.ts';

describe('the one table from error code to HTTP status (ADR 047)', () => {
  const codes = Object.values(errorCodes);

  it('gives every code exactly one status, a 4xx or 5xx, and lists no other code', () => {
    expect(Object.keys(errorStatus).sort()).toEqual([...codes].sort());
    for (const code of codes) {
      const status = statusForCode(code);
      expect(status, code).toBe(errorStatus[code]);
      expect(status >= 400 && status < 600, `${code}: ${status}`).toBe(true);
    }
  });

  it('answers 500 for an unknown code, an empty one and the names of Object.prototype', () => {
    for (const code of [
      'NOT_A_CODE',
      '',
      'bad_request',
      'toString',
      '__proto__',
      'constructor',
      'hasOwnProperty',
    ])
      expect(statusForCode(code), JSON.stringify(code)).toBe(500);
  });

  it('reads the table backwards: a status gives a code of that status, its first (generic) one', () => {
    for (const status of new Set(Object.values(errorStatus)))
      expect(statusForCode(codeForStatus(status) ?? ''), String(status)).toBe(status);
    expect(codeForStatus(400)).toBe(errorCodes.badRequest);
    expect(codeForStatus(402)).toBe(errorCodes.insufficientCredits);
    expect(codeForStatus(503)).toBe(errorCodes.unavailable);
    expect(codeForStatus(418)).toBeUndefined();
    expect(codeForStatus(0)).toBeUndefined();
  });
});
