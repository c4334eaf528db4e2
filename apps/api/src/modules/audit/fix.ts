import { randomUUID } from 'node:crypto';
import type {
  AuditFixStatus,
  AuditImage,
  AuditSuggestionEvidence,
  FixAuditRequest,
  FixAuditResponse,
  ReviewAuditRequest,
  ReviewAuditResponse,
} from '@altwise/contracts/audit';
import { MAX_AUDIT_FIX_IMAGES } from '@altwise/contracts/audit';
import type { AuditProblem } from '@altwise/contracts/audit-problems';
import { type AltOrigin, approvedOrigin, editedOrigin } from '@altwise/contracts/provenance';
import type { Database } from '../../db/client.ts';
import type { AuditImageFactsRecord } from '../../db/tables/audits.ts';
import type { GenerationItemContext } from '../../db/tables/generation-items.ts';
import { conflict, notFound, unpublishableAlt } from '../../errors.ts';
import {
  judgePublishable,
  listUnpublishable,
  type PublishableVerdict,
  suggestionToStore,
} from '../../rules/publishable.ts';
import { discardPreview } from '../files/preview.ts';
import type { FilesService } from '../files/service.ts';
import type { GenerationService } from '../generation/service.ts';
import { addLibraryImages, replaceLibraryAltText } from '../library/service.ts';
import { engineContext } from './engine-context.ts';
import {
  type AuditFixImageRow,
  countReviews,
  findAuditOf,
  landFixSuggestion,
  linkFixItems,
  markSuggestionLanded,
  rejectSuggestions,
  selectFixImages,
  selectUnfixedFailing,
} from './repository.ts';

/**
 * Fixing an audit's failing images and reviewing the suggestions (points 3 and 4; ADR
 * 030). A fix is an ordinary generation batch (source `audit`: one credit per image reserved up
 * front, refunded per image that fails, 402 with nothing queued when short), started through
 * generation's one primitive (ADR 043), whose results land on the audit images as pending
 * suggestions; only an accept or an edit puts alt text in the library.
 */

/** What the audit needs of generation: its one batch start and the registry of landers. */
export type FixGeneration = Pick<
  GenerationService,
  'startGenerationBatch' | 'runAfterCommit' | 'resolveLanguage' | 'registerLander'
>;

type ImageRow = AuditFixImageRow;

/**
 * What the reviewer sees beside a suggestion (point 9): the engine's confidence, review flag
 * and evidence. None for an edited suggestion: its words are the user's, not the engine's.
 */
export function suggestionEvidenceOf(
  row: Pick<ImageRow, 'suggestion' | 'suggestionDetails' | 'reviewState' | 'origin' | 'src' | 'facts'>,
): AuditSuggestionEvidence | null {
  const details = row.suggestionDetails;
  if (!details || row.reviewState === null || row.reviewState === 'edited') return null;
  return {
    confidence: details.confidence,
    needsReview: details.needsReview,
    reasons: details.reasons ?? [],
    needsWords: details.needsWords === true && (row.suggestion ?? '') === '' && !details.decorative,
    needsWordsReason: details.needsWords && !details.decorative ? (details.needsWordsReason ?? null) : null,
    publishable: judgeSuggestion(row).publishable,
  };
}

/** The file name at the end of an image's address, for the publishable rule's file-name check. */
function fileNameOf(src: string): string | undefined {
  try {
    const path = new URL(src).pathname;
    return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1)) || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether an audit image's suggestion may go live (ADR 067), from what is stored: its text, origin,
 * evidence, the decorative mark and what the page said around it. Exported for the publishing paths
 * (WordPress, the CLI) that read audit images.
 */
export function judgeSuggestion(
  row: Pick<ImageRow, 'suggestion' | 'suggestionDetails' | 'origin' | 'src' | 'facts'>,
): PublishableVerdict {
  return judgePublishable({
    altText: row.suggestion ?? '',
    decorative: row.suggestionDetails?.decorative === true,
    origin: row.origin ?? 'ai',
    reasons: row.suggestionDetails?.reasons ?? [],
    context: {
      heading: row.facts.heading,
      siteName: row.facts.siteName,
      fileName: fileNameOf(row.src),
    },
  });
}

/** Whether the image's latest fix is under way, failed (refunded), or neither. */
export function fixStatusOf(itemStatus: string | null | undefined): AuditFixStatus | null {
  if (itemStatus === 'pending' || itemStatus === 'processing') return 'generating';
  if (itemStatus === 'failed') return 'failed';
  return null;
}

/**
 * An image's element kind and accessible name. The name is stored only when it is not
 * the ARIA label or the alt already stored (a title, an svg's <title>). Images audited before names
 * were computed have no source stored: theirs is read the way the checks read it then (ARIA label,
 * else alt).
 */
export function namingOf(
  alt: string | null,
  facts: AuditImageFactsRecord,
): Pick<AuditImage, 'element' | 'name' | 'nameSource'> {
  const label = facts.ariaLabel?.trim();
  const text = alt === null ? '' : alt.replace(/\s+/g, ' ').trim().slice(0, 1000);
  switch (facts.nameSource) {
    case 'aria-labelledby':
    case 'aria-label':
      return { element: facts.element, name: label || null, nameSource: facts.nameSource };
    case 'alt':
      return { element: facts.element, name: text || null, nameSource: 'alt' };
    case 'title':
    case 'svg-title':
      return { element: facts.element, name: facts.name ?? null, nameSource: facts.nameSource };
    case 'none':
      return { element: facts.element, name: null, nameSource: 'none' };
  }
  if (label) return { element: facts.element, name: label, nameSource: 'aria-label' };
  return text
    ? { element: facts.element, name: text, nameSource: 'alt' }
    : { element: facts.element, name: null, nameSource: 'none' };
}

/** What toAuditImage reads: a fix's row, or a row of GET /audits/{id}/images. */
type ShownImageRow = Pick<
  ImageRow,
  | 'id'
  | 'auditId'
  | 'pageUrl'
  | 'src'
  | 'alt'
  | 'role'
  | 'facts'
  | 'verdict'
  | 'problems'
  | 'suggestion'
  | 'longDescription'
  | 'reviewState'
  | 'origin'
  | 'suggestionDetails'
  | 'thumbnailUrl'
  | 'screenshotKey'
> & { itemStatus: string | null };

/** A stored image as the API shows it (GET /audits/{id}/images, a fix's answer). */
export function toAuditImage(row: ShownImageRow): AuditImage {
  return {
    id: row.id,
    pageUrl: row.pageUrl,
    src: row.src,
    alt: row.alt,
    role: row.role,
    ...namingOf(row.alt, row.facts),
    verdict: row.verdict,
    problems: row.problems as AuditProblem[],
    suggestion: row.suggestion,
    longDescription: row.longDescription,
    reviewState: row.reviewState,
    origin: auditImageOrigin(row.origin, row.alt),
    fixStatus: fixStatusOf(row.itemStatus),
    thumbnailUrl: row.thumbnailUrl,
    suggestionEvidence: suggestionEvidenceOf(row),
    screenshotUrl: screenshotUrlOf(row.auditId, row.id, row.screenshotKey),
    usedIn: {
      heading: row.facts.heading?.trim() || null,
      caption: row.facts.caption?.trim() || null,
      linkTarget: row.facts.linkTarget?.trim() || null,
      linkText: row.facts.linkText?.trim() || null,
    },
  };
}

/** Where the owner reads an image's screenshot of its rendered page (ADR 061); null without one. */
export function screenshotUrlOf(auditId: string, imageId: string, key: string | null): string | null {
  return key ? `/api/v1/audits/${auditId}/images/${imageId}/screenshot` : null;
}

/**
 * Where an audit image's alt text came from (ADR 057): its suggestion's origin once it has one, else
 * the page's alt, which a person wrote; null when it has neither.
 */
export function auditImageOrigin(suggestionOrigin: AltOrigin | null, alt: string | null): AltOrigin | null {
  return suggestionOrigin ?? (alt !== null ? 'human' : null);
}

/** What the engine is told about an audit image: its page and its place on it. */
export function contextOf(row: Pick<ImageRow, 'pageUrl' | 'alt' | 'role' | 'facts'>): GenerationItemContext {
  const { facts } = row;
  return engineContext(facts, {
    pageUrl: row.pageUrl,
    existingAlt: row.alt ?? facts.ariaLabel ?? facts.name ?? undefined,
    role: row.role,
  });
}

/** How much an image's place says about it: a caption, the text beside it, a link, a heading. */
function contextWeight(image: Pick<ImageRow, 'facts'>): number {
  const { facts } = image;
  return (
    (facts.caption ? 4 : 0) +
    (facts.adjacentText ? 4 : 0) +
    (facts.linkTarget ? 2 : 0) +
    (facts.heading ? 1 : 0)
  );
}

/**
 * The images of a fix grouped by what they show and the role their place gives them (ADR 069): the
 * same file at the same link target is described once, from the use that says most about it (a post
 * with a caption and a paragraph beats a media library with none), and every use gets those words.
 * A use that links elsewhere gets its own description, since the link's purpose is its alt.
 */
export function describeOnce(
  images: ImageRow[],
): { itemId: string; described: ImageRow; images: ImageRow[] }[] {
  const groups = new Map<string, { itemId: string; described: ImageRow; images: ImageRow[] }>();
  for (const image of images) {
    const key = `${image.src}\u0000${image.facts.linkTarget ?? ''}`;
    const group = groups.get(key);
    if (!group) {
      groups.set(key, { itemId: randomUUID(), described: image, images: [image] });
      continue;
    }
    group.images.push(image);
    if (contextWeight(image) > contextWeight(group.described)) group.described = image;
  }
  return [...groups.values()];
}

const noSuchImage = () => notFound('There is no such image in this audit.');
const auditNotFound = () => notFound('There is no such audit.');

export function createAuditFixer(deps: {
  db: Database;
  generation: FixGeneration;
  /** Deletes a fix's preview that its image did not need (it had one already, ADR 051). */
  files?: Pick<FilesService, 'deleteFile'>;
}) {
  const { db, generation } = deps;

  // A fix's finished image waits on its audit image for the user's review (ADR 030); the batch's
  // claims, retries, refunds and settlement stay generation's.
  generation.registerLander('audit', async (executor, claim, { result, thumbnail, context }) => {
    // Nothing it can stand behind is stored as no alt and the reason, never as filler (ADR 068).
    const stored = suggestionToStore(result, {
      pageTitle: context?.pageTitle,
      heading: context?.heading,
      fileName: context?.fileName,
      siteName: context?.siteName,
    });
    const { landed, keptThumbnail } = await landFixSuggestion(executor, claim, {
      altText: stored.altText,
      origin: result.origin ?? 'ai',
      longDescription: stored.needsWords ? null : (result.longDescription ?? null),
      thumbnail,
      details: {
        engine: result.engine,
        model: result.model,
        confidence: result.confidence,
        reasons: result.reasons,
        needsReview: result.needsReview || stored.needsWords,
        needsWords: stored.needsWords,
        needsWordsReason: stored.needsWordsReason,
      },
    });
    // A preview no row took: the runner deletes it when nothing landed, this when the image had one.
    if (landed && !keptThumbnail && deps.files) await discardPreview(deps.files, thumbnail);
    return landed;
  });

  async function ownedAudit(userId: string, auditId: string) {
    const audit = await findAuditOf(db, userId, auditId);
    if (!audit) throw auditNotFound();
    return audit;
  }

  return {
    /** POST /audits/{id}/fix. */
    async fix(userId: string, auditId: string, request: FixAuditRequest): Promise<FixAuditResponse> {
      await ownedAudit(userId, auditId);
      // The account's default language, as for every batch; refused (422) before anything is
      // reserved when the engine cannot write it.
      const language = (await generation.resolveLanguage(userId, undefined)) ?? null;
      const started = await db.transaction(async (tx) => {
        let images: ImageRow[];
        let remaining = 0;
        if (request.imageIds) {
          const ids = [...new Set(request.imageIds)];
          images = await selectFixImages(tx, auditId, ids, true);
          if (images.length < ids.length) throw noSuchImage();
          const busy = images.filter((image) => fixStatusOf(image.itemStatus) === 'generating').length;
          if (busy > 0)
            throw conflict(
              `${busy} of the selected images ${busy === 1 ? 'is' : 'are'} being fixed already. Wait for the suggestions, then choose again.`,
            );
        } else {
          // Locked first, then read: two fixes at once never queue an image twice.
          const unfixed = await selectUnfixedFailing(tx, auditId, request.limit ?? MAX_AUDIT_FIX_IMAGES);
          images = unfixed.images;
          if (images.length === 0)
            throw conflict('No failing image is left to fix: each has a suggestion or is being fixed.');
          remaining = Math.max(0, unfixed.total - images.length);
        }
        // One description per distinct image (ADR 069): its uses share one item and one credit.
        const groups = describeOnce(images);
        const links = groups.flatMap((group) =>
          group.images.map((image) => ({ imageId: image.id, itemId: group.itemId })),
        );
        const items = groups.map((group) => ({
          id: group.itemId,
          src: group.described.src,
          fileKey: null,
          context: contextOf(group.described) as GenerationItemContext,
          // The page's own language (its `<html lang>`), else the account's (ADR 069).
          language: group.described.facts.language ?? language,
        }));
        // Throws 402 (Insufficient credits) before anything is stored.
        const batch = await generation.startGenerationBatch(tx, { userId, source: 'audit', items });
        await linkFixItems(tx, auditId, links);
        return {
          batchId: batch.batchId,
          images: images.map((image) => image.id),
          creditsReserved: batch.total,
          remainingCredits: batch.balance,
          remaining,
        };
      });
      generation.runAfterCommit(started.batchId);
      return started;
    },

    /** POST /audits/{id}/review: all the named images or none. */
    async review(userId: string, auditId: string, request: ReviewAuditRequest): Promise<ReviewAuditResponse> {
      await ownedAudit(userId, auditId);
      const ids = [...new Set(request.imageIds)];
      let skipped = 0;
      await db.transaction(async (tx) => {
        const images = await selectFixImages(tx, auditId, ids, true);
        if (images.length < ids.length) throw noSuchImage();
        const unsuggested = images.filter((image) => image.suggestion === null).length;
        if (unsuggested > 0)
          throw conflict(
            `${unsuggested} of the selected images ${unsuggested === 1 ? 'has' : 'have'} no suggestion yet. Fix ${unsuggested === 1 ? 'it' : 'them'} first; nothing was changed.`,
          );
        if (request.action === 'reject') {
          const landed = images.filter(
            (image) => image.reviewState === 'accepted' || image.reviewState === 'edited',
          ).length;
          if (landed > 0)
            throw conflict(
              `${landed} of the selected images ${landed === 1 ? 'is' : 'are'} in your library already; delete ${landed === 1 ? 'it' : 'them'} there instead. Nothing was changed.`,
            );
          await rejectSuggestions(tx, auditId, ids);
          return;
        }
        let landing = images;
        if (request.action === 'accept') {
          // Only alt text we can stand behind is approved (ADR 067): a named set with any other is
          // refused whole; "approve all" leaves those pending and counts them (ADR 068).
          const refused = listUnpublishable(images, (image) => image.id, judgeSuggestion);
          if (refused.length > 0 && !request.skipUnpublishable) throw unpublishableAlt(refused, 'approve');
          const refusedIds = new Set(refused.map((image) => image.imageId));
          landing = images.filter((image) => !refusedIds.has(image.id));
          skipped = refused.length;
        }
        for (const image of landing) {
          const edited = request.action === 'edit' || request.action === 'decorative';
          const decorative = request.action === 'decorative';
          const altText = decorative
            ? ''
            : request.action === 'edit'
              ? (request.altText ?? '')
              : (image.suggestion ?? '');
          // An edit that leaves the long description out keeps the suggestion's (ADR 050).
          const longDescription =
            edited && request.longDescription !== undefined ? request.longDescription : image.longDescription;
          const details = image.suggestionDetails;
          const suggested = image.origin ?? 'ai';
          // Decorative on purpose is a person's decision: `alt=""` is their word (ADR 068).
          const origin: AltOrigin = decorative
            ? 'human'
            : edited
              ? editedOrigin(suggested, image.suggestion ?? '', altText)
              : approvedOrigin(suggested);
          // A person's own words carry no engine verdict; an accepted suggestion keeps the engine's,
          // and counts as reviewed.
          const verdict = edited
            ? { engine: null, model: null, confidence: null, reasons: null, needsReview: false }
            : {
                engine: details?.engine ?? null,
                model: details?.model ?? null,
                confidence: details?.confidence ?? null,
                reasons: details?.reasons ?? null,
                needsReview: false,
              };
          const updated = image.libraryImageId
            ? await replaceLibraryAltText(tx, userId, image.libraryImageId, {
                altText,
                origin,
                longDescription,
                ...verdict,
              })
            : undefined;
          const libraryImageId =
            updated?.id ??
            (
              await addLibraryImages(tx, userId, [
                {
                  src: image.src,
                  altText,
                  origin,
                  longDescription,
                  batchId: image.itemBatchId,
                  context: contextOf(image),
                  // The audit's preview, shown in the library too (it stays the audit's file).
                  thumbnailUrl: image.thumbnailUrl,
                  ...verdict,
                },
              ])
            )[0]?.id;
          await markSuggestionLanded(tx, image.id, {
            state: edited ? 'edited' : 'accepted',
            altText,
            origin,
            longDescription,
            libraryImageId: libraryImageId ?? null,
            // A person's words or decorative mark answer a needs-words image (ADR 068).
            ...(edited
              ? {
                  details: {
                    ...(details ?? { engine: null, model: null, confidence: null, reasons: null }),
                    needsReview: false,
                    needsWords: false,
                    needsWordsReason: null,
                    decorative,
                  },
                }
              : {}),
          });
        }
      });
      const items = (await selectFixImages(db, auditId, ids, false)).map(toAuditImage);
      return { items, reviews: await countReviews(db, auditId), skipped };
    },
  };
}
