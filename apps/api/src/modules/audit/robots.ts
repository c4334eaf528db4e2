/**
 * A small robots.txt reader (RFC 9309): the group for our user agent (`AltwiseBot`), else the `*`
 * group; `Allow` and `Disallow` with `*` and `$`; the longest matching rule wins, `Allow` on a tie.
 * An empty `Disallow:` allows everything.
 */

export const AUDIT_USER_AGENT = 'altwisebot';

type Rule = { allow: boolean; pattern: string };

export type RobotsRules = {
  /** Whether the path (with its query) may be fetched. */
  allows(pathAndQuery: string): boolean;
  /** True when the rules refuse every page of the site (`Disallow: /` and no `Allow`). */
  disallowsAll: boolean;
};

function matcher(pattern: string): RegExp {
  const anchored = pattern.endsWith('$');
  const body = (anchored ? pattern.slice(0, -1) : pattern)
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}${anchored ? '$' : ''}`);
}

function decodePath(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

export function parseRobots(text: string): RobotsRules {
  const groups: { agents: string[]; rules: Rule[] }[] = [];
  let current: { agents: string[]; rules: Rule[] } | null = null;
  let lastWasAgent = false;
  for (const rawLine of text.split(/\r?\n|\r/)) {
    const line = rawLine.replace(/#.*$/, '').trim();
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
      if (value) current.rules.push({ allow: field === 'allow', pattern: decodePath(value) });
    } else {
      lastWasAgent = false;
    }
  }
  const ours = groups.filter((group) =>
    group.agents.some((agent) => agent !== '*' && AUDIT_USER_AGENT.startsWith(agent)),
  );
  const chosen = ours.length > 0 ? ours : groups.filter((group) => group.agents.includes('*'));
  const rules = chosen
    .flatMap((group) => group.rules)
    .map((rule) => ({ ...rule, regex: matcher(rule.pattern) }));

  const allows = (pathAndQuery: string) => {
    const path = decodePath(pathAndQuery);
    let best: { allow: boolean; length: number } | null = null;
    for (const rule of rules) {
      if (!rule.regex.test(path)) continue;
      const length = rule.pattern.length;
      if (!best || length > best.length || (length === best.length && rule.allow)) {
        best = { allow: rule.allow, length };
      }
    }
    return best?.allow ?? true;
  };
  const disallowsAll =
    rules.some((rule) => !rule.allow && (rule.pattern === '/' || rule.pattern === '/*')) &&
    !rules.some((rule) => rule.allow);
  return { allows, disallowsAll };
}

/** No robots.txt (or one that could not be read as text): every page may be fetched. */
export const allowEverything: RobotsRules = { allows: () => true, disallowsAll: false };
