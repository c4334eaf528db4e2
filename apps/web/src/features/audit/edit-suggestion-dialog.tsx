import { type AuditImage, reviewAuditRequestSchema } from '@altwise/contracts/audit';
import { type FormEvent, useRef, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { TextAreaField } from '../../components/ui/form-fields.tsx';
import { LargePreview, wideDialog } from '../../components/ui/image-preview.tsx';
import { LongDescriptionField } from '../../components/ui/long-description-field.tsx';
import { OriginLabel } from '../../components/ui/origin-label.tsx';
import { ReviewDetails } from '../../components/ui/review-details.tsx';

/**
 * Edit a suggestion before accepting it: the picture large (issue 19), beside it the existing alt and
 * the suggestion, the suggestion in an editable textarea, its long description below (issue 19, with
 * "Copy markup"), and the engine's confidence and evidence. Saving sends the review action `edit` with
 * both.
 */
export function EditSuggestionDialog({
  image,
  number,
  isSaving,
  onSave,
  onClose,
}: {
  image: AuditImage;
  number: number;
  isSaving: boolean;
  onSave: (edit: { altText: string; longDescription: string | null }) => void;
  onClose: () => void;
}) {
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
        <LargePreview url={image.thumbnailUrl} />
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
            label="Suggested alt text"
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
          {image.suggestionEvidence ? (
            <ReviewDetails
              confidence={image.suggestionEvidence.confidence}
              needsReview={image.suggestionEvidence.needsReview}
              reasons={image.suggestionEvidence.reasons}
            />
          ) : null}
          <div className="flex flex-wrap justify-end gap-3">
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
