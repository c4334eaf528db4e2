import { editAltTextRequestSchema } from '@altwise/contracts/generation';
import { messages } from '@altwise/contracts/messages';
import { type FormEvent, useId, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { notify } from '../../../components/ui/notify.ts';
import { serverMessage } from '../../../lib/api-error.ts';
import { useEditAltText } from '../api/edit-alt-text.ts';

export const altTextSaved = 'Alt text updated';
export const altTextSaveFailed = 'Failed to update alt text. Please try again.';

export type EditTarget = { id: string; src: string; alt_text: string; number: number };

/** Edit one image's alt text (the `Alt text` textarea is checked by the contract the server uses). */
export function EditAltTextDialog({
  target,
  onClose,
  onSaved,
}: {
  target: EditTarget;
  onClose: () => void;
  onSaved: (image: { id: string; src: string; alt_text: string }) => void;
}) {
  const [value, setValue] = useState(target.alt_text);
  const [touched, setTouched] = useState(false);
  const edit = useEditAltText();
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  const parsed = editAltTextRequestSchema.safeParse({ alt_text: value });
  const error = touched && !parsed.success ? parsed.error.issues[0]?.message : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!parsed.success) {
      textareaRef.current?.focus();
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
          notify.error(serverMessage(failure, messages.common.unknownError) ?? altTextSaveFailed);
        },
      },
    );
  };

  return (
    <Dialog
      open
      onClose={onClose}
      title={`Edit alt text for image ${target.number}`}
      initialFocusRef={textareaRef}
    >
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        <p className="text-sm break-all text-slate-700">{target.src}</p>
        <div className="flex flex-col gap-1">
          <label htmlFor={id} className="text-sm font-medium text-slate-900">
            Alt text
          </label>
          <textarea
            id={id}
            ref={textareaRef}
            name="alt_text"
            rows={5}
            value={value}
            onChange={(event) => setValue(event.target.value)}
            onBlur={() => setTouched(true)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            className={`rounded-md border bg-white px-3 py-2 text-slate-900 ${error ? 'border-red-700' : 'border-slate-500'}`}
          />
          {error ? (
            <p id={`${id}-error`} className="text-sm font-medium text-red-700">
              {error}
            </p>
          ) : null}
        </div>
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" isLoading={edit.isPending} loadingText="Saving...">
            Save
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
