import { editAltTextRequestSchema } from '@altwise/contracts/generation';
import { type FormEvent, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TextAreaField } from '../../../components/ui/form-fields.tsx';
import { ImageFileName, LargePreview, wideDialog } from '../../../components/ui/image-preview.tsx';
import { LongDescriptionField } from '../../../components/ui/long-description-field.tsx';
import { notify } from '../../../components/ui/notify.ts';
import { needsWordsQuestions, ReviewDetails } from '../../../components/ui/review-details.tsx';
import { serverMessage } from '../../../lib/api-error.ts';
import { useApproveAltText } from '../api/approve-alt-text.ts';
import { useEditAltText } from '../api/edit-alt-text.ts';
import type { LibraryRow } from './library-table.tsx';

export const altTextSaved = 'Alt text updated';
export const altTextSaveFailed = 'Failed to update alt text. Please try again.';
export const altTextApproved = 'Alt text approved';
export const altTextApproveFailed = 'Failed to approve alt text. Please try again.';

export type EditTarget = LibraryRow & { number: number };

/**
 * Edit one image's alt text (the `Alt text` textarea is checked by the contract the server uses) and its
 * long description (with a "Copy markup" button), with the picture large beside them (
 * nobody can judge an alt text for a picture they cannot see). It also shows why the generator wrote it
 * (confidence and evidence); saving an edit is a review, and Approve keeps a flagged alt text as
 * it is.
 */
export function EditAltTextDialog({
  target,
  onClose,
  onSaved,
}: {
  target: EditTarget;
  onClose: () => void;
  onSaved: (image: LibraryRow) => void;
}) {
  const [value, setValue] = useState(target.alt_text);
  const [longDescription, setLongDescription] = useState(target.longDescription ?? '');
  const [touched, setTouched] = useState(false);
  const edit = useEditAltText();
  const approval = useApproveAltText();
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const parsed = editAltTextRequestSchema.safeParse({ alt_text: value, longDescription });
  const problem = (field: string) =>
    touched && !parsed.success ? parsed.error.issues.find((i) => i.path[0] === field)?.message : undefined;
  const error = problem('alt_text');
  // Nothing to approve where the generator had no words (ADR 068): a person writes them.
  const canApprove = target.needsReview && !target.needsWords;
  const longDescriptionError = problem('longDescription');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!parsed.success) {
      // The long description's own error is next to it; the alt text comes first.
      if (parsed.error.issues.some((i) => i.path[0] === 'alt_text')) textareaRef.current?.focus();
      return;
    }
    edit.mutate(
      { id: target.id, ...parsed.data },
      {
        onSuccess: (image) => {
          notify.success(altTextSaved);
          onSaved(image);
        },
        onError: (failure) => {
          notify.error(serverMessage(failure) ?? altTextSaveFailed);
        },
      },
    );
  };

  const approve = () => {
    approval.mutate(target.id, {
      onSuccess: (image) => {
        notify.success(altTextApproved);
        onSaved(image);
      },
      onError: (failure) => {
        notify.error(serverMessage(failure) ?? altTextApproveFailed);
      },
    });
  };

  return (
    <Dialog
      open
      onClose={onClose}
      title={`Edit alt text for image ${target.number}`}
      initialFocusRef={textareaRef}
      className={wideDialog}
    >
      <form onSubmit={submit} noValidate className="grid gap-4 md:grid-cols-[minmax(0,480px)_minmax(0,1fr)]">
        <LargePreview url={target.thumbnailUrl} />
        <div className="flex min-w-0 flex-col gap-4">
          <div className="text-sm">
            <ImageFileName src={target.src} name={target.fileName} />
            <p className="break-all text-slate-700">{target.src}</p>
          </div>
          {target.needsWords ? (
            <section
              aria-label="Needs your words"
              className="rounded-md bg-amber-50 p-3 text-sm text-slate-900"
            >
              <p>{target.needsWordsReason}</p>
              <p className="mt-2 font-semibold">Before you write</p>
              <ol className="mt-1 list-decimal space-y-1 pl-5">
                {needsWordsQuestions.map((question) => (
                  <li key={question}>{question}</li>
                ))}
              </ol>
            </section>
          ) : null}
          <TextAreaField
            label="Alt text"
            ref={textareaRef}
            name="alt_text"
            rows={5}
            value={value}
            onChange={(event) => setValue(event.target.value)}
            onBlur={() => setTouched(true)}
            error={error}
          />
          <LongDescriptionField
            image={target}
            altText={value}
            value={longDescription}
            onChange={setLongDescription}
            error={longDescriptionError}
          />
          <ReviewDetails
            confidence={target.confidence}
            needsReview={target.needsReview}
            reasons={target.reasons}
            origin={target.origin}
          />
          {canApprove ? (
            <p className="text-sm text-slate-700">
              Approve keeps this alt text as it is; saving an edit approves it too.
            </p>
          ) : null}
          <div className="flex flex-wrap justify-end gap-3">
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            {canApprove ? (
              <Button
                variant="secondary"
                isLoading={approval.isPending}
                loadingText="Approving..."
                disabled={edit.isPending}
                onClick={approve}
              >
                Approve
              </Button>
            ) : null}
            <Button type="submit" isLoading={edit.isPending} loadingText="Saving...">
              Save
            </Button>
          </div>
        </div>
      </form>
    </Dialog>
  );
}
