import { MAX_GENERATION_PROMPT_CHARS } from '@altwise/contracts/generation';
import { CREDITS_PER_IMAGE } from '@altwise/contracts/limits';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { notify } from '../../../components/ui/notify.ts';
import { serverMessage } from '../../../lib/api-error.ts';
import { useRemainingCredits } from '../../../lib/credits.ts';
import { useRegenerateAltText } from '../api/regenerate-alt-text.ts';
import type { EditTarget } from './edit-alt-text-dialog.tsx';

export const altTextRegenerated = 'Alt text regenerated';
export const regenerateFailed = 'Failed to regenerate alt text. Please try again.';

/** Asks before spending: regenerating one alt text costs 1 credit (refunded by the server on failure). */
export function RegenerateDialog({
  target,
  onClose,
  onDone,
}: {
  target: EditTarget;
  onClose: () => void;
  onDone: (image: { id: string; src: string; alt_text: string }) => void;
}) {
  const [prompt, setPrompt] = useState('');
  const regenerate = useRegenerateAltText();
  const credits = useRemainingCredits();
  const balance = credits.data?.imageCredits;
  const id = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    regenerate.mutate(
      { id: target.id, chatGptPrompt: prompt.trim() || undefined },
      {
        onSuccess: ({ image }) => {
          notify.success(altTextRegenerated);
          onDone(image);
        },
        onError: (failure) => {
          notify.error(serverMessage(failure) ?? regenerateFailed);
        },
      },
    );
  };

  return (
    <Dialog open onClose={onClose} title={`Regenerate alt text for image ${target.number}`}>
      <form onSubmit={submit} className="flex flex-col gap-4">
        <p className="text-slate-800">
          A new alt text is written for this image. This costs {CREDITS_PER_IMAGE} credit; it is refunded if
          it fails.
        </p>
        {balance !== undefined ? (
          <p className="text-sm text-slate-800">
            You have {balance} {balance === 1 ? 'credit' : 'credits'}.
          </p>
        ) : null}
        <div className="flex flex-col gap-1">
          <label htmlFor={id} className="text-sm font-medium text-slate-900">
            Custom prompt (optional)
          </label>
          <textarea
            id={id}
            rows={3}
            maxLength={MAX_GENERATION_PROMPT_CHARS}
            value={prompt}
            onChange={(event) => setPrompt(event.target.value)}
            className="rounded-md border border-slate-500 bg-white px-3 py-2 text-slate-900"
          />
        </div>
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button
            type="submit"
            disabled={balance !== undefined && balance < CREDITS_PER_IMAGE}
            isLoading={regenerate.isPending}
            loadingText="Regenerating..."
          >
            Regenerate (1 credit)
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
