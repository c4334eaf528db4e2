/**
 * A small robots.txt reader (RFC 9309): the group for our user agent (`AltwiseBot`), else the `*`
 * group; `Allow` and `Disallow` with `*` and `$`; the longest matching rule wins, `Allow` on a tie.
 * An empty `Disallow:` allows everything.
 *
 * Rules come from the audited site, so they are matched without building a regular expression from
 * them (ADR 045): a rule is split at its `*`s and the pieces are found left to right, each at its
 * first place after the one before. That is O(rule × path) at worst, never exponential.
 */

export const AUDIT_USER_AGENT = 'altwisebot';

/** The part of a robots.txt that is read (RFC 9309 §2.5 asks for at least 500 KiB). */
export const MAX_ROBOTS_CHARS = 512 * 1024;
/** Longest rule kept whole: a longer Disallow is cut here (it then refuses more), a longer Allow dropped. */
export const MAX_RULE_LENGTH = 2048;
/** Most rules kept from the chosen groups; the rest are ignored. */
export const MAX_RULES = 5000;

type Rule = {
  allow: boolean;
  /** The rule as written after normalising, `*`s and `$` included: its length ranks it. */
  length: number;
  /** The literal pieces between the `*`s. */
  pieces: string[];
  /** The rule ended in `$`: the path must end where the rule ends. */
  anchored: boolean;
};

export type RobotsRules = {
  /** Whether the path (with its query) may be fetched. */
  allows(pathAndQuery: string): boolean;
  /** True when the rules refuse every page of the site (`Disallow: /` and no `Allow`). */
  disallowsAll: boolean;
};

const hex = (byte: number) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
const unreserved = /[A-Za-z0-9\-._~]/;
const encoder = new TextEncoder();

/**
 * The one form paths and rules are compared in (RFC 9309 §2.2.2, RFC 3986 §6.2.2): a `%XX` of an
 * unreserved character is decoded, every other `%XX` kept with upper-case hex, and characters
 * outside printable US-ASCII written as `%XX` of their UTF-8 octets. So `/caf%C3%A9`, `/café` and
 * `/caf%c3%a9` are one path, and `/a%2Fb` stays apart from `/a/b`. Linear in the input.
 */
export function normalizePath(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x25 /* % */ && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
      const byte = Number.parseInt(text.slice(i + 1, i + 3), 16);
      const char = String.fromCharCode(byte);
      out += byte < 0x80 && unreserved.test(char) ? char : hex(byte);
      i += 2;
    } else if (code > 0x20 && code < 0x7f) {
      out += text[i];
    } else {
      const point = text.codePointAt(i) as number;
      if (point > 0xffff) i++;
      // A lone surrogate encodes as U+FFFD, as the URL parser would write it.
      for (const byte of encoder.encode(String.fromCodePoint(point))) out += hex(byte);
    }
  }
  return out;
}

function compileRule(allow: boolean, written: string): Rule | null {
  let pattern = written;
  if (pattern.length > MAX_RULE_LENGTH) {
    if (allow) return null;
    pattern = pattern.slice(0, MAX_RULE_LENGTH);
  }
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  // `*` and a final `$` are the only special characters; each piece is normalised on its own.
  const pieces = body.split('*').map(normalizePath);
  const length =
    pieces.reduce((sum, piece) => sum + piece.length, 0) + (pieces.length - 1) + (anchored ? 1 : 0);
  return { allow, length, pieces, anchored };
}

/**
 * Whether the rule matches the (normalised) path. The first piece must start the path; each next
 * piece is taken at its first occurrence after the previous one, which leaves the most room for the
 * rest, so if any placement works this one does. With `$` the last piece must end the path, at or
 * after where the others ended.
 */
export function ruleMatches(rule: Pick<Rule, 'pieces' | 'anchored'>, path: string): boolean {
  const { pieces, anchored } = rule;
  const first = pieces[0] as string;
  if (!path.startsWith(first)) return false;
  if (pieces.length === 1) return !anchored || path.length === first.length;
  let at = first.length;
  const middle = anchored ? pieces.length - 1 : pieces.length;
  for (let i = 1; i < middle; i++) {
    const piece = pieces[i] as string;
    const found = path.indexOf(piece, at);
    if (found < 0) return false;
    at = found + piece.length;
  }
  if (!anchored) return true;
  const last = pieces[pieces.length - 1] as string;
  return path.length - last.length >= at && path.endsWith(last);
}

export function parseRobots(input: string): RobotsRules {
  const text = input.length > MAX_ROBOTS_CHARS ? input.slice(0, MAX_ROBOTS_CHARS) : input;
  const groups: { agents: string[]; rules: { allow: boolean; pattern: string }[] }[] = [];
  let current: (typeof groups)[number] | null = null;
  let lastWasAgent = false;
  for (const rawLine of text.split(/\r?\n|\r/)) {
    const hash = rawLine.indexOf('#');
    const line = (hash < 0 ? rawLine : rawLine.slice(0, hash)).trim();
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const field = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (field === 'user-agent') {
      if (!current || !lastWasAgent) {
        current = { agents: [], rules: [] };
        groups.push(current);
      }
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
    } else if ((field === 'allow' || field === 'disallow') && current) {
      lastWasAgent = false;
      if (value) current.rules.push({ allow: field === 'allow', pattern: value });
    } else {
      lastWasAgent = false;
    }
  }
  const ours = groups.filter((group) =>
    group.agents.some((agent) => agent !== '*' && AUDIT_USER_AGENT.startsWith(agent)),
  );
  const chosen = ours.length > 0 ? ours : groups.filter((group) => group.agents.includes('*'));
  const rules: Rule[] = [];
  for (const written of chosen.flatMap((group) => group.rules)) {
    if (rules.length >= MAX_RULES) break;
    const rule = compileRule(written.allow, written.pattern);
    if (rule) rules.push(rule);
  }

  const allows = (pathAndQuery: string) => {
    const path = normalizePath(pathAndQuery);
    let best: { allow: boolean; length: number } | null = null;
    for (const rule of rules) {
      // A rule no longer than the best so far can change nothing but a tie, so it is not matched.
      if (best && (rule.length < best.length || (rule.length === best.length && (best.allow || !rule.allow))))
        continue;
      if (!ruleMatches(rule, path)) continue;
      best = { allow: rule.allow, length: rule.length };
    }
    return best?.allow ?? true;
  };
  const disallowsAll =
    rules.some(
      (rule) =>
        !rule.allow &&
        !rule.anchored &&
        rule.pieces[0] === '/' &&
        rule.pieces.slice(1).every((piece) => piece === ''),
    ) && !rules.some((rule) => rule.allow);
  return { allows, disallowsAll };
}

/** No robots.txt (a 4xx, RFC 9309 §2.3.1.3): every page may be fetched. */
export const allowEverything: RobotsRules = { allows: () => true, disallowsAll: false };

/** A robots.txt that could not be reached (5xx, network error, RFC 9309 §2.3.1.4): no page may be fetched. */
export const disallowEverything: RobotsRules = { allows: () => false, disallowsAll: true };
