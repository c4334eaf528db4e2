import type { PageContext } from '../../engines/types.ts';
import type { AuditImageFacts } from '../../rules/checks.ts';

type ContextFacts = Pick<
  AuditImageFacts,
  | 'heading'
  | 'caption'
  | 'adjacentText'
  | 'linkTarget'
  | 'linkText'
  | 'imageRow'
  | 'siteLogo'
  | 'siteName'
  | 'language'
>;

/** What the caller knows beyond the facts: the page, the alt in place, the role, the file. */
interface ContextBase {
  pageUrl?: string;
  pageTitle?: string;
  existingAlt?: string | null;
  role?: string;
  fileName?: string;
}

/**
 * The engine's page context for an audited image: what the audit read around it. One rule for the
 * product's fix (fix.ts) and the CLI's `altwise fix`; empty texts are left out, a content image
 * has no role to tell.
 */
export function engineContext(facts: ContextFacts, base: ContextBase): PageContext {
  const texts: Record<string, string | null | undefined> = {
    pageUrl: base.pageUrl,
    pageTitle: base.pageTitle,
    heading: facts.heading,
    caption: facts.caption,
    surroundingText: facts.adjacentText,
    linkTarget: facts.linkTarget,
    linkText: facts.linkText,
    existingAlt: base.existingAlt,
    role: base.role === 'content' ? undefined : base.role,
    fileName: base.fileName,
  };
  return {
    ...Object.fromEntries(
      Object.entries(texts).filter((entry): entry is [string, string] => Boolean(entry[1]?.trim())),
    ),
    ...(facts.imageRow ? { imageRow: facts.imageRow } : {}),
    ...(facts.siteLogo ? { siteLogo: true } : {}),
    ...(facts.siteName ? { siteName: facts.siteName } : {}),
    // The language of the image's place (ADR 071): the engine writes in it or asks for words.
    ...(facts.language ? { language: facts.language } : {}),
  } as PageContext;
}
