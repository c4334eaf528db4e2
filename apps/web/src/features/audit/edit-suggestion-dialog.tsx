import { type AuditImage, reviewAuditRequestSchema } from '@altwise/contracts/audit';
import { type FormEvent, useRef, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { TextAreaField } from '../../components/ui/form-fields.tsx';
import { LargePreview, wideDialog } from '../../components/ui/image-preview.tsx';
import { LongDescriptionField } from '../../components/ui/long-description-field.tsx';
import { OriginLabel } from '../../components/ui/origin-label.tsx';
import {
  formatPercent,
  needsWordsQuestions,
  ReviewDetails,
  reasonLabel,
} from '../../components/ui/review-details.tsx';

/**
 * For an image the engine could not describe (ADR 068): why, what it did find with its scores,
 * where the image is used, and three questions to answer before writing.
 */
function NeedsWordsGuide({ image }: { image: AuditImage }) {
  const evidence = image.suggestionEvidence;
  const { usedIn } = image;
  const places = [
    ['Page', image.pageUrl],
    ['Heading', usedIn.heading],
    ['Caption', usedIn.caption],
    ['Link text', usedIn.linkText],
    ['Link target', usedIn.linkTarget],
  ].filter((entry): entry is [string, string] => Boolean(entry[1]));
  return (
    <section
      aria-labelledby="needs-words-heading"
      className="rounded-md bg-amber-50 p-3 text-sm text-slate-900"
    >
      <h3 id="needs-words-heading" className="font-semibold">
        Needs your words
      </h3>
      <p className="mt-1">{evidence?.needsWordsReason}</p>
      <h4 className="mt-3 font-semibold">What we found</h4>
      {evidence && evidence.reasons.length > 0 ? (
        <ul className="mt-1 list-disc space-y-1 pl-5">
          {evidence.reasons.map((reason) => (
            <li key={`${reason.source}-${reason.detail}`}>
              {reasonLabel(reason.source)}: {reason.detail}
              {reason.score !== undefined ? ` (${formatPercent(reason.score)})` : ''}
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-1">Nothing in the image itself.</p>
      )}
      <h4 className="mt-3 font-semibold">Where it is used</h4>
      <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        {places.map(([label, text]) => (
          <div key={label} className="contents">
            <dt className="font-medium">{label}</dt>
            <dd className="break-all">{text}</dd>
          </div>
        ))}
      </dl>
      <h4 className="mt-3 font-semibold">Before you write</h4>
      <ol className="mt-1 list-decimal space-y-1 pl-5">
        {needsWordsQuestions.map((question) => (
          <li key={question}>{question}</li>
        ))}
      </ol>
      <p className="mt-3">
        To have a vision model describe images like this, set ALT_TEXT_ENGINE=openai with OPENAI_API_KEY, and
        OPENAI_BASE_URL for any OpenAI-compatible server, a local one included.
      </p>
    </section>
  );
}

/**
 * Edit a suggestion before accepting it: the picture large, beside it the existing alt and
 * the suggestion, the suggestion in an editable textarea, its long description below (with
 * "Copy markup"), and the engine's confidence and evidence. Saving sends the review action `edit` with
 * both.
 */
export function EditSuggestionDialog({
  image,
  number,
  isSaving,
  onSave,
  onMarkDecorative,
  onClose,
}: {
  image: AuditImage;
  number: number;
  isSaving: boolean;
  onSave: (edit: { altText: string; longDescription: string | null }) => void;
  /** Marks the image decorative on purpose: `alt=""` from a person (ADR 068). */
  onMarkDecorative?: () => void;
  onClose: () => void;
}) {
  const needsWords = image.suggestionEvidence?.needsWords === true;
  const [value, setValue] = useState(image.suggestion ?? '');
  const [longDescription, setLongDescription] = useState(image.longDescription ?? '');
  const [touched, setTouched] = useState(false);
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  // The contract the server checks the review with.
  const parsed = reviewAuditRequestSchema.safeParse({
    imageIds: [image.id],
    action: 'edit',
    altText: value,
    longDescription,
  });
  const problem = (field: string) =>
    parsed.success || !touched ? undefined : parsed.error.issues.find((i) => i.path[0] === field)?.message;
  const error = problem('altText');
  const longDescriptionError = problem('longDescription');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!parsed.success || parsed.data.altText === undefined) {
      if (!parsed.success && parsed.error.issues.every((i) => i.path[0] === 'longDescription')) return;
      textareaRef.current?.focus();
      return;
    }
    onSave({ altText: parsed.data.altText, longDescription: parsed.data.longDescription ?? null });
  };

  return (
    <Dialog
      open
      onClose={onClose}
      title={`Edit suggestion for image ${number}`}
      initialFocusRef={textareaRef}
      className={wideDialog}
    >
      <form onSubmit={submit} noValidate className="grid gap-4 md:grid-cols-[minmax(0,480px)_minmax(0,1fr)]">
        <div className="flex min-w-0 flex-col gap-4">
          <LargePreview url={image.thumbnailUrl} />
          {needsWords ? <NeedsWordsGuide image={image} /> : null}
        </div>
        <div className="flex min-w-0 flex-col gap-4">
          <p className="text-sm break-all text-slate-700">{image.src}</p>
          <div className="text-sm">
            <p className="font-medium text-slate-900">Existing alt</p>
            <p className="text-slate-800">
              {image.alt === null ? '(missing)' : image.alt === '' ? '(empty)' : image.alt}
            </p>
          </div>
          {image.suggestion !== null && image.origin ? (
            <p className="text-sm text-slate-800">
              Suggestion: <OriginLabel origin={image.origin} />
            </p>
          ) : null}
          <TextAreaField
            label={needsWords ? 'Your alt text' : 'Suggested alt text'}
            ref={textareaRef}
            name="altText"
            rows={4}
            value={value}
            onChange={(event) => setValue(event.target.value)}
            onBlur={() => setTouched(true)}
            error={error}
          />
          <LongDescriptionField
            image={image}
            altText={value}
            value={longDescription}
            onChange={setLongDescription}
            error={longDescriptionError}
          />
          {image.suggestionEvidence && !needsWords ? (
            <ReviewDetails
              confidence={image.suggestionEvidence.confidence}
              needsReview={image.suggestionEvidence.needsReview}
              reasons={image.suggestionEvidence.reasons}
            />
          ) : null}
          {/* Sticky, so Save stays in sight on a short window (900 px) however long the form is. */}
          <div className="sticky bottom-0 flex flex-wrap justify-end gap-3 border-t border-slate-200 bg-white py-3">
            {onMarkDecorative ? (
              <Button variant="secondary" onClick={onMarkDecorative} disabled={isSaving}>
                Mark as decorative
              </Button>
            ) : null}
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" isLoading={isSaving} loadingText="Saving...">
              Save and accept
            </Button>
          </div>
        </div>
      </form>
    </Dialog>
  );
}
