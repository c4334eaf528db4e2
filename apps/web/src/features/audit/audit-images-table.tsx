import type { AuditImage } from '@altwise/contracts/audit';
import { auditProblemCodes } from '@altwise/contracts/audit-problems';
import { useRef, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { SelectField } from '../../components/ui/form-fields.tsx';
import { ImageFileName, Thumbnail } from '../../components/ui/image-preview.tsx';
import { MessageBanner } from '../../components/ui/message-banner.tsx';
import { notify } from '../../components/ui/notify.ts';
import { OriginLabel } from '../../components/ui/origin-label.tsx';
import { formatPercent } from '../../components/ui/review-details.tsx';
import { errorMessage } from '../../lib/api-error.ts';
import { type AuditImagesFilter, type ReviewAction, useAuditImages, useReviewAudit } from './api/audits.ts';
import { useScreenshot } from './api/screenshot.ts';
import {
  elementLabels,
  nameSourceLabels,
  problemLabels,
  reviewLabels,
  verdictClasses,
  verdictLabels,
} from './audit-labels.ts';
import { EditSuggestionDialog } from './edit-suggestion-dialog.tsx';

export const AUDIT_IMAGES_PAGE_SIZE = 25;

const verdictOptions = [
  { value: '', label: 'All verdicts' },
  ...(['fail', 'warning', 'pass', 'decorative'] as const).map((v) => ({ value: v, label: verdictLabels[v] })),
];
const problemOptions = [
  { value: '', label: 'All problems' },
  ...auditProblemCodes.map((code) => ({ value: code, label: `${problemLabels[code]} (${code})` })),
];
const reviewOptions = [
  { value: '', label: 'All review states' },
  ...(['none', 'pending', 'accepted', 'edited', 'rejected'] as const).map((r) => ({
    value: r,
    label: reviewLabels[r],
  })),
];

const reviewDone: Record<ReviewAction, (n: number) => string> = {
  accept: (n) => (n === 1 ? 'Suggestion accepted' : `${n} suggestions accepted`),
  reject: (n) => (n === 1 ? 'Suggestion rejected' : `${n} suggestions rejected`),
  edit: () => 'Suggestion saved and accepted',
  decorative: () => 'Marked as decorative',
};

/** "3 images need your words": what approve-all and accept-selected left out (ADR 068). */
export const needWordsMessage = (n: number) =>
  n === 1 ? '1 image needs your words' : `${n} images need your words`;

/** A suggestion that may not go live (ADR 067): only a person's words or decorative mark can. */
const unpublishable = (image: AuditImage) => image.suggestionEvidence?.publishable === false;

/** The engine's confidence and the row's review flags, in the table (ADR 068). */
function ConfidenceCell({ image }: { image: AuditImage }) {
  const evidence = image.suggestionEvidence;
  if (!evidence) return <span className="text-slate-700">–</span>;
  return (
    <div className="flex flex-col items-start gap-1">
      <span>{evidence.confidence === null ? 'Not known' : formatPercent(evidence.confidence)}</span>
      {evidence.needsWords ? (
        <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-900 ring-1 ring-inset ring-red-700">
          Needs your words
        </span>
      ) : evidence.needsReview ? (
        <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 ring-1 ring-inset ring-amber-700">
          Needs review
        </span>
      ) : null}
    </div>
  );
}

const bulkActions = [
  ['accept', 'Accept selected'],
  ['reject', 'Reject selected'],
] as const;

function ExistingAlt({ alt }: { alt: string | null }) {
  if (alt === null) return <span className="font-medium text-red-800">(missing)</span>;
  if (alt === '') return <span className="text-slate-700">(empty)</span>;
  return <span className="break-words">{alt}</span>;
}

/** The name a screen reader announces, where it differs from the alt or there is no alt attribute. */
function AccessibleName({ image }: { image: AuditImage }) {
  const hasAlt = image.element === 'img' || image.element === 'input-image' || image.element === 'area';
  if (image.nameSource === 'alt' || (image.nameSource === 'none' && hasAlt)) return null;
  return (
    <span className="mt-1 block text-xs text-slate-700">
      Accessible name:{' '}
      {image.name === null ? (
        <span className="font-medium text-red-800">none</span>
      ) : (
        <span className="break-words text-slate-900">{image.name}</span>
      )}{' '}
      ({nameSourceLabels[image.nameSource]})
    </span>
  );
}

/**
 * The images of an audit: filters by verdict, problem and review state, pages of 25, a selection for
 * bulk review and for "Fix selected images", and per-row Accept / Reject / Edit of suggestions.
 */
/** The image cropped from the rendered page's screenshot (ADR 061), when the page was rendered. */
function Screenshot({ url }: { url: string | null }) {
  const source = useScreenshot(url);
  if (!url) return null;
  return (
    <figure className="mb-1">
      {source ? (
        <img
          src={source}
          alt=""
          className="block h-16 w-24 rounded border border-slate-300 bg-white object-contain"
        />
      ) : (
        <span aria-hidden="true" className="block h-16 w-24 rounded border border-slate-300 bg-slate-100" />
      )}
      <figcaption className="text-xs text-slate-700">As shown on the page</figcaption>
    </figure>
  );
}

export function AuditImagesTable({
  auditId,
  selected,
  onSelectedChange,
  poll,
}: {
  auditId: string;
  selected: ReadonlySet<string>;
  onSelectedChange: (next: Set<string>) => void;
  /** Read the images again every few seconds (while the audit or a fix runs). */
  poll: boolean;
}) {
  const [filter, setFilter] = useState<AuditImagesFilter>({ page: 1, pageSize: AUDIT_IMAGES_PAGE_SIZE });
  const images = useAuditImages(auditId, filter, { poll });
  const review = useReviewAudit(auditId);
  const [editing, setEditing] = useState<{ image: AuditImage; number: number } | null>(null);
  /** The last review's outcome, said by screen readers in a polite live region. */
  const [announcement, setAnnouncement] = useState('');
  const headingRef = useRef<HTMLHeadingElement>(null);

  const setFilterValue = (key: 'verdict' | 'problem' | 'review', value: string) => {
    setFilter((current) => ({ ...current, page: 1, [key]: value === '' ? undefined : value }));
    onSelectedChange(new Set());
  };

  const items = images.data?.items ?? [];
  const total = images.data?.total ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / filter.pageSize));
  const offset = (filter.page - 1) * filter.pageSize;
  const pageIds = items.map((item) => item.id);
  const allOnPageSelected = pageIds.length > 0 && pageIds.every((id) => selected.has(id));
  const selectedWithSuggestion = items.filter((item) => selected.has(item.id) && item.suggestion !== null);

  const toggle = (id: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    onSelectedChange(next);
  };
  const togglePage = (on: boolean) => {
    const next = new Set(selected);
    for (const id of pageIds) {
      if (on) next.add(id);
      else next.delete(id);
    }
    onSelectedChange(next);
  };

  /** After a review the row may leave the filtered list: focus goes to the table's heading then. */
  const keepFocus = () => {
    setTimeout(() => {
      if (!document.activeElement || document.activeElement === document.body) headingRef.current?.focus();
    }, 0);
  };

  const runReview = async (
    imageIds: string[],
    action: ReviewAction,
    edit?: { altText: string; longDescription: string | null },
    options: { skipUnpublishable?: boolean; leftOut?: number } = {},
  ) => {
    // Buttons stay enabled while a review is saved (a disabled button drops focus): ignore a second click.
    if (review.isPending) return;
    const leftOut = options.leftOut ?? 0;
    if (imageIds.length === 0) {
      setAnnouncement(`Nothing accepted: ${needWordsMessage(leftOut)}.`);
      keepFocus();
      return;
    }
    try {
      const answer = await review.mutateAsync({
        imageIds,
        action,
        ...(edit ?? {}),
        ...(options.skipUnpublishable ? { skipUnpublishable: true } : {}),
      });
      const skipped = leftOut + (answer.skipped ?? 0);
      const done = reviewDone[action](imageIds.length - (answer.skipped ?? 0));
      const message = skipped > 0 ? `${done}. ${needWordsMessage(skipped)}.` : done;
      notify.success(message);
      setAnnouncement(message);
      setEditing(null);
      if (action !== 'edit' && action !== 'decorative')
        onSelectedChange(new Set([...selected].filter((id) => !imageIds.includes(id))));
    } catch (error) {
      const message = errorMessage(error, 'The review could not be saved. Please try again.');
      notify.error(message);
      setAnnouncement(message);
    }
    keepFocus();
  };

  /** Accepts the selection, leaving out (and naming the count of) those that need words. */
  const acceptSelected = () => {
    const ready = selectedWithSuggestion.filter((item) => !unpublishable(item));
    void runReview(
      ready.map((item) => item.id),
      'accept',
      undefined,
      { leftOut: selectedWithSuggestion.length - ready.length },
    );
  };
  const pendingOnPage = items.filter((item) => item.reviewState === 'pending');
  /** Approves every pending suggestion on the page; the server skips and counts those needing words. */
  const approveAll = () =>
    void runReview(
      pendingOnPage.map((item) => item.id),
      'accept',
      undefined,
      { skipUnpublishable: true },
    );

  return (
    <section aria-labelledby="audit-images-heading" className="flex flex-col gap-4">
      <h2
        id="audit-images-heading"
        ref={headingRef}
        tabIndex={-1}
        className="text-xl font-semibold text-slate-900"
      >
        Images
      </h2>
      <div className="grid gap-4 sm:grid-cols-3">
        <SelectField
          label="Verdict"
          options={verdictOptions}
          value={filter.verdict ?? ''}
          onChange={(event) => setFilterValue('verdict', event.target.value)}
        />
        <SelectField
          label="Problem"
          options={problemOptions}
          value={filter.problem ?? ''}
          onChange={(event) => setFilterValue('problem', event.target.value)}
        />
        <SelectField
          label="Review state"
          options={reviewOptions}
          value={filter.review ?? ''}
          onChange={(event) => setFilterValue('review', event.target.value)}
        />
      </div>

      <div className="flex flex-wrap items-center gap-3">
        {bulkActions.map(([action, label]) => (
          <Button
            key={action}
            size="sm"
            variant="secondary"
            disabled={selectedWithSuggestion.length === 0}
            onClick={() =>
              action === 'accept'
                ? acceptSelected()
                : void runReview(
                    selectedWithSuggestion.map((item) => item.id),
                    action,
                  )
            }
          >
            {label}
          </Button>
        ))}
        <Button size="sm" variant="secondary" disabled={pendingOnPage.length === 0} onClick={approveAll}>
          Approve all
        </Button>
        <p className="text-sm text-slate-700" aria-live="polite">
          {selected.size === 0 ? 'No image selected' : `${selected.size} selected`}
        </p>
      </div>
      <p role="status" aria-live="polite" className="text-sm text-slate-800">
        {announcement}
      </p>

      {images.isError ? (
        <MessageBanner type="error">
          {errorMessage(images.error, 'The images could not be loaded.')}
        </MessageBanner>
      ) : null}

      <div className="overflow-x-auto">
        <table className="w-full min-w-[64rem] border-collapse text-left text-sm">
          <caption className="sr-only">
            Audited images, page {filter.page} of {pageCount}
          </caption>
          <thead>
            <tr className="border-b border-slate-300 text-slate-900">
              <th scope="col" className="py-2 pr-2">
                <input
                  type="checkbox"
                  aria-label="Select all images on this page"
                  checked={allOnPageSelected}
                  disabled={pageIds.length === 0}
                  onChange={(event) => togglePage(event.target.checked)}
                  className="size-5 accent-indigo-700"
                />
              </th>
              <th scope="col" className="py-2 pr-3 font-semibold">
                Image
              </th>
              <th scope="col" className="py-2 pr-3 font-semibold">
                Existing alt
              </th>
              <th scope="col" className="py-2 pr-3 font-semibold">
                Suggestion
              </th>
              <th scope="col" className="py-2 pr-3 font-semibold">
                Confidence
              </th>
              <th scope="col" className="py-2 pr-3 font-semibold">
                Verdict
              </th>
              <th scope="col" className="py-2 pr-3 font-semibold">
                Problems
              </th>
              <th scope="col" className="py-2 font-semibold">
                Review
              </th>
            </tr>
          </thead>
          <tbody>
            {items.length === 0 ? (
              <tr>
                <td colSpan={8} className="py-4 text-slate-700">
                  {images.isPending ? 'Loading images...' : 'No image matches these filters.'}
                </td>
              </tr>
            ) : null}
            {items.map((image, index) => {
              const number = offset + index + 1;
              return (
                <tr key={image.id} className="border-b border-slate-200 align-top">
                  <td className="py-2 pr-2">
                    <input
                      type="checkbox"
                      aria-label={`Select image ${number}`}
                      checked={selected.has(image.id)}
                      onChange={(event) => toggle(image.id, event.target.checked)}
                      className="size-5 accent-indigo-700"
                    />
                  </td>
                  <th scope="row" className="max-w-56 py-2 pr-3 font-normal">
                    <span className="sr-only">Image {number}</span>
                    <Thumbnail url={image.thumbnailUrl} fallbackUrl={image.src} className="mb-1 h-16 w-24" />
                    <Screenshot url={image.screenshotUrl} />
                    <ImageFileName src={image.src} />
                    <a
                      href={image.pageUrl}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="block break-all text-indigo-800 underline underline-offset-2 hover:no-underline"
                    >
                      {image.pageUrl}
                    </a>
                    <span className="mt-1 block text-xs text-slate-700">{elementLabels[image.element]}</span>
                  </th>
                  <td className="max-w-56 py-2 pr-3">
                    <ExistingAlt alt={image.alt} />
                    <AccessibleName image={image} />
                  </td>
                  <td className="max-w-64 py-2 pr-3">
                    {image.suggestion === null ? (
                      <span className="text-slate-700">
                        {image.fixStatus === 'generating'
                          ? 'Writing a suggestion...'
                          : image.fixStatus === 'failed'
                            ? 'The suggestion failed; its credit is back. Fix it again.'
                            : '–'}
                      </span>
                    ) : image.suggestion === '' ? (
                      <span className="text-slate-700">
                        {image.suggestionEvidence?.needsWords
                          ? '(none: needs your words)'
                          : image.reviewState === 'edited'
                            ? 'Decorative (alt="")'
                            : '(empty)'}
                      </span>
                    ) : (
                      <>
                        <span className="break-words">{image.suggestion}</span>
                        {image.origin ? (
                          <OriginLabel origin={image.origin} className="mt-1 block w-fit" />
                        ) : null}
                      </>
                    )}
                  </td>
                  <td className="py-2 pr-3">
                    <ConfidenceCell image={image} />
                  </td>
                  <td className="py-2 pr-3">
                    <span
                      className={`inline-block rounded px-2 py-0.5 text-xs font-semibold ${verdictClasses[image.verdict]}`}
                    >
                      {verdictLabels[image.verdict]}
                    </span>
                  </td>
                  <td className="max-w-80 py-2 pr-3">
                    {image.problems.length === 0 ? (
                      <span className="text-slate-700">None</span>
                    ) : (
                      <ul className="flex flex-col gap-2">
                        {image.problems.map((problem) => (
                          <li key={problem.code}>
                            <span className="font-semibold">{problem.code}</span>{' '}
                            <span className="text-slate-700">
                              ({problem.severity}, WCAG {problem.wcag.join(', ')})
                            </span>
                            <span className="block text-slate-800">{problem.message}</span>
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                  <td className="py-2">
                    <p className="mb-2">{reviewLabels[image.reviewState ?? 'none']}</p>
                    {image.suggestion !== null ? (
                      <div className="flex flex-wrap gap-2">
                        {unpublishable(image) ? null : (
                          <Button
                            size="sm"
                            variant="secondary"
                            aria-label={`Accept suggestion for image ${number}`}
                            onClick={() => void runReview([image.id], 'accept')}
                          >
                            Accept
                          </Button>
                        )}
                        <Button
                          size="sm"
                          variant="secondary"
                          aria-label={`Reject suggestion for image ${number}`}
                          onClick={() => void runReview([image.id], 'reject')}
                        >
                          Reject
                        </Button>
                        <Button
                          size="sm"
                          variant="ghost"
                          aria-label={`Edit suggestion for image ${number}`}
                          onClick={() => setEditing({ image, number })}
                        >
                          Edit
                        </Button>
                      </div>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>

      <nav aria-label="Image pages" className="flex flex-wrap items-center gap-3">
        <Button
          size="sm"
          variant="secondary"
          disabled={filter.page <= 1}
          onClick={() => setFilter((current) => ({ ...current, page: current.page - 1 }))}
        >
          Previous page
        </Button>
        <p className="text-sm text-slate-800">
          Page {filter.page} of {pageCount} ({total} {total === 1 ? 'image' : 'images'})
        </p>
        <Button
          size="sm"
          variant="secondary"
          disabled={filter.page >= pageCount}
          onClick={() => setFilter((current) => ({ ...current, page: current.page + 1 }))}
        >
          Next page
        </Button>
      </nav>

      {editing ? (
        <EditSuggestionDialog
          image={editing.image}
          number={editing.number}
          isSaving={review.isPending}
          onClose={() => setEditing(null)}
          onSave={(edit) => void runReview([editing.image.id], 'edit', edit)}
          onMarkDecorative={() => void runReview([editing.image.id], 'decorative')}
        />
      ) : null}
    </section>
  );
}
