import {
  CAPTION_CREDIT_COST,
  DEFAULT_QUALITY,
  MAX_EDITOR_IMAGE_BYTES,
  QUALITY_CREDIT_COST,
  type Quality,
  qualities,
} from '@altwise/contracts/limits';
import { messages } from '@altwise/contracts/messages';
import { EDITED_IMAGE_FILE_NAME, MAX_STUDIO_PROMPT_CHARS } from '@altwise/contracts/studio';
import { useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { FileField, ProgressBar, SelectField, TextAreaField } from '../../components/ui/form-fields.tsx';
import { MessageBanner } from '../../components/ui/message-banner.tsx';
import { notify } from '../../components/ui/notify.ts';
import { serverMessage } from '../../lib/api-error.ts';
import { copyText } from '../../lib/copy-text.ts';
import { useRemainingCredits } from '../../lib/credits.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { saveBlob } from '../../lib/save-file.ts';
import { useEstimatedProgress } from '../../lib/use-estimated-progress.ts';
import { useObjectUrl } from '../../lib/use-object-urls.ts';
import { fetchFileBlob } from './api/download-file.ts';
import { useEditImage } from './api/edit-image.ts';
import { useGenerateStyledCaption } from './api/generate-styled-caption.ts';

const m = messages.editor;
const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
/** Highest quality first: it is the default (the product spec §9). */
const qualityOptions = [...qualities].reverse().map((value) => ({
  value,
  label: `${capitalise(value)} — ${QUALITY_CREDIT_COST[value]} credits`,
}));
/** An edit on the offline engine takes a second or two; a cloud edit takes longer. */
const EXPECTED_EDIT_MS = 6000;

/** What the offline editor understands; several may be combined in one prompt. */
const instructions: readonly { name: string; example: string }[] = [
  { name: 'Black and white', example: 'make it black and white (or greyscale)' },
  { name: 'Sepia', example: 'give it a sepia tone' },
  { name: 'Invert', example: 'invert the colours' },
  { name: 'Blur', example: 'blur it slightly' },
  { name: 'Sharpen', example: 'sharpen it' },
  { name: 'Brighter or darker', example: 'make it brighter / darker' },
  { name: 'Contrast', example: 'more contrast / less contrast' },
  { name: 'Saturation', example: 'more saturation / less saturation' },
  { name: 'Warmer or cooler', example: 'make it warmer / cooler' },
  { name: 'Rotate', example: 'rotate left / rotate 180 degrees' },
  { name: 'Flip or mirror', example: 'flip it vertically / mirror it' },
  { name: 'Crop', example: 'crop to square / crop to 16:9 or 4:5' },
  { name: 'Resize', example: 'resize to 800 px wide / resize to 50%' },
  { name: 'Caption', example: 'add a caption "Summer sale" at the top (or bottom)' },
  { name: 'Border', example: 'add a border / add a navy border' },
];

function failureText(error: unknown): string {
  return serverMessage(error) ?? messages.common.unknownError;
}

/**
 * The AI Image Editor of the product spec §2 (/caption-generator): one image, a quality with its credit cost, a
 * plain-language prompt, the edited result to download, and a styled social caption for the same image.
 * The server charges and refunds the credits itself, so the browser only checks the balance
 * before sending and refetches it afterwards; it does not call /credits/deduct or /credits/refund, which
 * would charge a second time.
 */
export function ImageEditorPage() {
  usePageTitle('AI Image Editor');
  const credits = useRemainingCredits();
  const edit = useEditImage();
  const caption = useGenerateStyledCaption();
  const [image, setImage] = useState<File | null>(null);
  const [quality, setQuality] = useState<Quality>(DEFAULT_QUALITY);
  const [prompt, setPrompt] = useState('');
  const [captionPrompt, setCaptionPrompt] = useState('');
  const [downloading, setDownloading] = useState(false);
  const previewUrl = useObjectUrl(image);
  const progress = useEstimatedProgress(edit.isPending, EXPECTED_EDIT_MS);
  const balance = credits.data?.imageCredits;
  const edited = edit.data;

  const chooseImage = (files: File[], input: HTMLInputElement) => {
    const file = files[0] ?? null;
    edit.reset();
    caption.reset();
    if (file && file.size > MAX_EDITOR_IMAGE_BYTES) {
      notify.error(m.imageTooLarge);
      input.value = '';
      setImage(null);
      return;
    }
    setImage(file);
  };

  const editImage = () => {
    if (!image) return notify.error(m.selectImage);
    if (!prompt.trim()) return notify.error(m.enterPrompt);
    const cost = QUALITY_CREDIT_COST[quality];
    // An unknown balance is left to the server, which refuses with 'Insufficient credits'.
    if (balance !== undefined && balance < cost)
      return notify.error(m.notEnoughCredits(cost, quality, balance));
    edit.mutate(
      { image, prompt: prompt.trim(), quality },
      {
        onSuccess: () => notify.success(m.success),
        onError: (error) => notify.error(m.failed(failureText(error))),
      },
    );
  };

  const download = async () => {
    if (!edited) return notify.error(m.editFirst);
    setDownloading(true);
    try {
      saveBlob(await fetchFileBlob(edited.editedImage.url), EDITED_IMAGE_FILE_NAME);
    } catch {
      notify.error(m.downloadFailed);
    } finally {
      setDownloading(false);
    }
  };

  const writeCaption = () => {
    if (!image) return notify.error(m.selectImage);
    if (balance !== undefined && balance < CAPTION_CREDIT_COST) {
      return notify.error(messages.reel.notEnoughCredits(CAPTION_CREDIT_COST, balance));
    }
    caption.mutate(
      { image, prompt: captionPrompt },
      {
        onSuccess: () => notify.success('Caption generated!'),
        onError: (error) => notify.error(`Failed to generate caption: ${failureText(error)}`),
      },
    );
  };

  const copyCaption = (text: string) => copyText(text, 'Caption copied!');

  return (
    <div className="mx-auto max-w-5xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">AI Image Editor</h1>
      <p className="mt-3 text-lg text-slate-700">
        Upload a photo, say in plain words what to change, and download the result. You can also write an
        Instagram caption for it.
      </p>
      <p className="mt-2 text-sm font-medium text-slate-800" aria-live="polite">
        {balance === undefined
          ? credits.isError
            ? 'Credits remaining: unavailable'
            : 'Credits remaining: loading...'
          : `Credits remaining: ${balance}`}
      </p>

      <div className="mt-8 grid gap-6 lg:grid-cols-2">
        <Card title="Edit an image">
          <div className="flex flex-col gap-5">
            <FileField
              label="Image to edit"
              hint="One JPEG, PNG, WebP or GIF image, less than 10MB."
              accept="image/*"
              disabled={edit.isPending}
              onFiles={chooseImage}
            />
            <SelectField
              label="Quality"
              hint="Each edit costs the credits shown."
              options={qualityOptions}
              value={quality}
              disabled={edit.isPending}
              onChange={(event) => setQuality(event.target.value as Quality)}
            />
            <TextAreaField
              label="Edit prompt"
              rows={3}
              maxLength={MAX_STUDIO_PROMPT_CHARS}
              placeholder='e.g. make it black and white and add a caption "Summer sale" at the bottom'
              value={prompt}
              onChange={(event) => setPrompt(event.target.value)}
            />
            <div className="flex flex-wrap gap-3">
              <Button onClick={editImage} isLoading={edit.isPending} loadingText="Editing...">
                Edit Image
              </Button>
              <Button
                variant="secondary"
                onClick={download}
                isLoading={downloading}
                loadingText="Downloading..."
              >
                Download Edited Image
              </Button>
            </div>
            {edit.isError ? (
              <MessageBanner type="error" onDismiss={() => edit.reset()}>
                {m.failed(failureText(edit.error))}
              </MessageBanner>
            ) : null}
            {edit.isPending ? (
              <ProgressBar
                label="Editing your image"
                value={progress}
                detail="Estimated from the usual editing time"
              />
            ) : null}
          </div>
        </Card>

        <section aria-labelledby="previews-heading" className="flex flex-col gap-4">
          <h2 id="previews-heading" className="text-lg font-semibold text-slate-900">
            Preview
          </h2>
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-1 xl:grid-cols-2">
            <figure className="rounded-xl border border-slate-200 bg-white p-3">
              <figcaption className="mb-2 text-sm font-medium text-slate-800">Original</figcaption>
              {previewUrl && image ? (
                <img
                  src={previewUrl}
                  alt={`Original upload: ${image.name}`}
                  className="max-h-80 w-full rounded-md object-contain"
                />
              ) : (
                <p className="text-sm text-slate-700">No image selected yet.</p>
              )}
            </figure>
            <figure className="rounded-xl border border-slate-200 bg-white p-3">
              <figcaption className="mb-2 text-sm font-medium text-slate-800">Edited</figcaption>
              {edited ? (
                <img
                  src={edited.editedImage.url}
                  alt={`Edited result: ${edited.operations.join(', ') || prompt}`}
                  className="max-h-80 w-full rounded-md object-contain"
                />
              ) : (
                <p className="text-sm text-slate-700">The edited image appears here.</p>
              )}
            </figure>
          </div>
          {edited ? (
            <p className="text-sm text-slate-800" data-testid="edit-operations">
              Changes made: {edited.operations.join('; ') || 'none'} ({edited.creditsCharged} credits).
            </p>
          ) : null}
        </section>
      </div>

      <Card title="Instagram caption" className="mt-8">
        <div className="flex flex-col gap-5">
          <p className="text-sm text-slate-700">
            Write a short social caption for the image above and get the image with the caption set on it.
            Each caption costs {CAPTION_CREDIT_COST} credit.
          </p>
          <TextAreaField
            label="Caption tone (optional)"
            rows={2}
            maxLength={MAX_STUDIO_PROMPT_CHARS}
            placeholder="e.g. playful, with one emoji"
            value={captionPrompt}
            onChange={(event) => setCaptionPrompt(event.target.value)}
          />
          <div>
            <Button
              variant="secondary"
              onClick={writeCaption}
              isLoading={caption.isPending}
              loadingText="Writing caption..."
            >
              Generate Caption
            </Button>
          </div>
          {caption.data ? (
            <div className="grid gap-4 sm:grid-cols-2">
              <div className="flex flex-col gap-3">
                <h3 className="text-base font-semibold text-slate-900">Your caption</h3>
                <p
                  data-testid="caption-text"
                  className="whitespace-pre-wrap rounded-md border border-slate-300 bg-slate-50 p-3 text-slate-900"
                >
                  {caption.data.caption}
                </p>
                <div>
                  <Button variant="secondary" size="sm" onClick={() => copyCaption(caption.data.caption)}>
                    Copy caption
                  </Button>
                </div>
              </div>
              <img
                src={caption.data.captionedImage.url}
                alt={`Your upload with the caption: ${caption.data.caption}`}
                className="max-h-80 w-full rounded-md object-contain"
              />
            </div>
          ) : null}
        </div>
      </Card>

      <Card title="How to use the editor" className="mt-8">
        <ol className="list-decimal space-y-1 pl-5 text-slate-800">
          <li>Choose an image of less than 10MB.</li>
          <li>Pick a quality: high costs 25 credits, medium 10 and low 5.</li>
          <li>Describe the change in plain words and press Edit Image. You may combine several changes.</li>
          <li>Press Download Edited Image to save the result as {EDITED_IMAGE_FILE_NAME}.</li>
        </ol>
        <h3 className="mt-5 text-base font-semibold text-slate-900">What the editor understands</h3>
        <ul className="mt-2 grid gap-x-6 gap-y-1 text-sm text-slate-800 sm:grid-cols-2">
          {instructions.map((item) => (
            <li key={item.name}>
              <span className="font-medium">{item.name}</span>: “{item.example}”
            </li>
          ))}
        </ul>
        <p className="mt-3 text-sm text-slate-800">
          Combine several in one prompt, e.g. “black and white, crop to square and add a caption "Summer sale"
          at the bottom”.
        </p>
        <p className="mt-2 text-sm text-slate-700">
          A prompt the editor cannot carry out is refused with a list of what it can do, and no credits are
          taken. Credits for an edit that fails are given back.
        </p>
      </Card>
    </div>
  );
}
