import type { AltTextReasonRecord } from '@altwise/contracts/library';
import { type AltOrigin, altOriginLabels } from '@altwise/contracts/provenance';
import { useId } from 'react';

/** A 0..1 score as a whole percentage ("87%"). */
export function formatPercent(score: number): string {
  return `${Math.round(Math.min(1, Math.max(0, score)) * 100)}%`;
}

/** How each kind of evidence is named to a person. */
const sourceLabels: Record<string, string> = {
  caption: 'Caption',
  existingAlt: 'Existing alt text',
  embedded: 'In the image file',
  pageTitle: 'Page title',
  heading: 'Heading',
  surroundingText: 'Text near the image',
  link: 'Link',
  role: 'Role on the page',
  ocr: 'Text in the image',
  detection: 'Detected object',
  face: 'Faces',
  pixels: 'Colours and tones',
  model: 'Vision model',
  audit: 'Audit check',
};

export function reasonLabel(source: string): string {
  return sourceLabels[source] ?? source;
}

/**
 * The "Review" badge of a row whose alt text a person should look at. The visible word is
 * short; screen readers hear what it means and how sure the generator was.
 */
export function ReviewBadge({ confidence }: { confidence: number | null }) {
  const sure = confidence === null ? '' : ` (the generator was ${formatPercent(confidence)} sure)`;
  return (
    <span
      className="inline-flex items-center rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 ring-1 ring-inset ring-amber-700"
      title={`Needs review${sure}`}
    >
      Review
      <span className="sr-only">: this alt text needs review{sure}</span>
    </span>
  );
}

/** The three questions that lead to good alt text (ADR 068). */
export const needsWordsQuestions = [
  'What is it for?',
  'Is there text in it?',
  'What would a visitor miss?',
] as const;

/**
 * The badge of an image the engine found nothing it could stand behind for (ADR 068): it has no alt
 * text yet and waits for a person's words.
 */
export function NeedsWordsBadge() {
  return (
    <span
      className="inline-flex items-center rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 ring-1 ring-inset ring-amber-700"
      title="Needs your words"
    >
      Needs your words
      <span className="sr-only">: the generator found nothing it could stand behind for this image</span>
    </span>
  );
}

/**
 * Why the alt text says what it says: the generator's confidence and the evidence it used. (The heading
 * avoids the words "alt text": the dialog's textarea is found by its label "Alt text".)
 */
export function ReviewDetails({
  confidence,
  needsReview,
  reasons,
  origin,
}: {
  confidence: number | null;
  needsReview: boolean;
  reasons: readonly AltTextReasonRecord[];
  /** Where the alt text came from (ADR 057). */
  origin?: AltOrigin;
}) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="rounded-md bg-slate-50 p-3 text-sm text-slate-900">
      <h3 id={headingId} className="font-semibold">
        Evidence and confidence
      </h3>
      {origin ? <p className="mt-1">Origin: {altOriginLabels[origin]}</p> : null}
      <p className="mt-1">
        Confidence: {confidence === null ? 'not known' : formatPercent(confidence)}
        {needsReview ? (
          <>
            {' '}
            — <strong className="font-semibold text-amber-900">needs review</strong>
          </>
        ) : null}
      </p>
      {reasons.length > 0 ? (
        <ul className="mt-2 list-disc space-y-1 pl-5">
          {reasons.map((reason, index) => (
            // Reasons have no id; their order is the engine's (most important first) and never changes.
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list from one answer
            <li key={index}>
              <span className="font-medium">{reasonLabel(reason.source)}:</span> {reason.detail}
              {reason.score !== undefined ? ` (${formatPercent(reason.score)})` : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-1 text-slate-700">No evidence was recorded for this alt text.</p>
      )}
    </section>
  );
}
