import {
  CAPTION_CREDIT_COST,
  DEFAULT_QUALITY,
  MAX_GENERATED_IMAGES,
  MAX_MUSIC_BYTES,
  MAX_REEL_IMAGE_BYTES,
  MAX_REEL_IMAGES,
  MIN_GENERATED_IMAGES,
  QUALITY_CREDIT_COST,
  type Quality,
  qualities,
} from '@altwise/contracts/limits';
import { messages } from '@altwise/contracts/messages';
import { MAX_STUDIO_PROMPT_CHARS, REEL_FILE_NAME } from '@altwise/contracts/studio';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { FileField, ProgressBar, SelectField, TextAreaField } from '../../components/ui/form-fields.tsx';
import { MessageBanner } from '../../components/ui/message-banner.tsx';
import { notify } from '../../components/ui/notify.ts';
import { serverMessage, wasRefunded } from '../../lib/api-error.ts';
import { copyText } from '../../lib/copy-text.ts';
import { creditsQueryKey, useRemainingCredits } from '../../lib/credits.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { saveBlob } from '../../lib/save-file.ts';
import { useEstimatedProgress } from '../../lib/use-estimated-progress.ts';
import { useObjectUrls } from '../../lib/use-object-urls.ts';
import { createReel, type ReelImage } from './api/create-reel.ts';
import { useGenerateImages } from './api/generate-images.ts';
import { generateStyledCaption } from './api/generate-styled-caption.ts';
import { type ImageTab, ImageTabs } from './components/image-tabs.tsx';

const m = messages.reel;
type Source = 'generate' | 'upload';
type Captioned = { url: string; caption: string; name: string };

const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
const qualityOptions = [...qualities].reverse().map((value) => ({
  value,
  label: `${capitalise(value)} — ${QUALITY_CREDIT_COST[value]} credits per image`,
}));
const countOptions = Array.from({ length: MAX_GENERATED_IMAGES - MIN_GENERATED_IMAGES + 1 }, (_, i) => {
  const value = String(MIN_GENERATED_IMAGES + i);
  return { value, label: value };
});
const EXPECTED_GENERATION_MS = 5000;
const EXPECTED_REEL_MS = 10_000;

function failureText(error: unknown): string {
  return serverMessage(error) ?? messages.common.unknownError;
}

/**
 * The AI Reel Generator of the product spec §2 (/reel-generator): images generated from a text prompt or uploaded
 * (with styled captions on a second tab), music, and a reel downloaded as reel.mp4. The server charges
 * and refunds credits itself: the page checks the balance before spending, says what the
 * server refunded, and refetches the balance after every spend; it never calls /credits/deduct or
 * /credits/refund, which would charge twice.
 */
export function ReelGeneratorPage() {
  usePageTitle('AI Reel Generator');
  const queryClient = useQueryClient();
  const credits = useRemainingCredits();
  const balance = credits.data?.imageCredits;
  const generation = useGenerateImages();

  const [source, setSource] = useState<Source>('generate');
  const [tab, setTab] = useState<ImageTab>('original');
  const [prompt, setPrompt] = useState('');
  const [count, setCount] = useState(MIN_GENERATED_IMAGES);
  const [quality, setQuality] = useState<Quality>(DEFAULT_QUALITY);
  const [uploads, setUploads] = useState<File[]>([]);
  const [captionPrompt, setCaptionPrompt] = useState('');
  const [captioned, setCaptioned] = useState<Captioned[]>([]);
  const [captioning, setCaptioning] = useState<{ done: number; total: number } | null>(null);
  const [music, setMusic] = useState<File | null>(null);
  const [creatingReel, setCreatingReel] = useState(false);
  const [reelError, setReelError] = useState<string | null>(null);
  const uploadUrls = useObjectUrls(uploads);
  const generationProgress = useEstimatedProgress(generation.isPending, EXPECTED_GENERATION_MS);
  const reelProgress = useEstimatedProgress(creatingReel, EXPECTED_REEL_MS);

  const generated = generation.data?.images ?? [];
  const reelImages: ReelImage[] =
    source === 'generate'
      ? generated.map((image) => image.url)
      : tab === 'captioned'
        ? captioned.map((image) => image.url)
        : uploads;
  const busy = generation.isPending || captioning !== null || creatingReel;

  const chooseImages = (files: File[], input: HTMLInputElement) => {
    if (files.length > MAX_REEL_IMAGES) {
      notify.error(m.maxImages);
      input.value = '';
      return;
    }
    const fitting = files.filter((file) => {
      if (file.size <= MAX_REEL_IMAGE_BYTES) return true;
      notify.error(m.imageTooLarge(file.name));
      return false;
    });
    if (fitting.length < files.length) input.value = '';
    // A new selection starts over: captions belong to the images they were made for.
    setUploads(fitting);
    setCaptioned([]);
    setTab('original');
  };

  const chooseMusic = (files: File[], input: HTMLInputElement) => {
    const file = files[0] ?? null;
    if (file && file.size > MAX_MUSIC_BYTES) {
      notify.error(m.musicTooLarge);
      input.value = '';
      setMusic(null);
      return;
    }
    setMusic(file);
  };

  const generateImages = () => {
    if (!prompt.trim()) return notify.error(m.promptRequired);
    const cost = QUALITY_CREDIT_COST[quality] * count;
    if (balance !== undefined && balance < cost) return notify.error(m.notEnoughCredits(cost, balance));
    generation.mutate(
      { prompt: prompt.trim(), numberOfImages: count, quality },
      {
        onSuccess: (data) => notify.success(m.generated(data.images.length)),
        onError: (error) => {
          notify.error(m.generateFailedWith(failureText(error)));
          if (wasRefunded(error)) notify.info(m.refunded);
        },
      },
    );
  };

  const generateCaptions = async () => {
    if (uploads.length === 0) return notify.error(m.selectImages);
    const cost = CAPTION_CREDIT_COST * uploads.length;
    if (balance !== undefined && balance < cost) return notify.error(m.notEnoughCredits(cost, balance));
    setCaptioning({ done: 0, total: uploads.length });
    const results: Captioned[] = [];
    let failed = 0;
    // One call per image, one after another: each is charged and, on failure, refunded on its own.
    for (const [index, file] of uploads.entries()) {
      try {
        const answer = await generateStyledCaption(file, captionPrompt);
        results.push({ url: answer.captionedImage.url, caption: answer.caption, name: file.name });
      } catch {
        failed += 1;
      }
      setCaptioning({ done: index + 1, total: uploads.length });
    }
    setCaptioning(null);
    setCaptioned(results);
    await queryClient.invalidateQueries({ queryKey: creditsQueryKey });
    if (failed === 0) {
      notify.success(m.captionsDone);
    } else if (results.length > 0) {
      // A failed caption never keeps its credit: the server refunds it (or never took it).
      notify.info(m.refundedCaptions(failed));
    } else {
      notify.error(m.captionsFailed);
    }
  };

  const downloadReel = async () => {
    if (!music || reelImages.length === 0) return;
    setCreatingReel(true);
    setReelError(null);
    try {
      const video = await createReel({ audio: music, images: reelImages });
      saveBlob(video, REEL_FILE_NAME);
      notify.success(m.reelDone);
    } catch (error) {
      notify.error(m.reelFailed);
      // The server names the file it could not use; say it where the person is looking.
      setReelError(serverMessage(error) ?? null);
    } finally {
      setCreatingReel(false);
    }
  };

  const copyCaption = (text: string) => copyText(text, 'Caption copied!');

  return (
    <div className="mx-auto max-w-5xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">AI Reel Generator</h1>
      <p className="mt-3 text-lg text-slate-700">
        Generate images from a text prompt or upload up to {MAX_REEL_IMAGES} of your own, add captions and
        music, and download a vertical video reel.
      </p>
      <p className="mt-2 text-sm font-medium text-slate-800" aria-live="polite">
        {balance === undefined
          ? credits.isError
            ? 'Credits remaining: unavailable'
            : 'Credits remaining: loading...'
          : `Credits remaining: ${balance}`}
      </p>

      <Card title="1. Choose your images" className="mt-8">
        <fieldset>
          <legend className="text-sm font-medium text-slate-900">Image source</legend>
          <div className="mt-2 inline-flex rounded-md shadow-sm">
            {(
              [
                ['generate', 'Generate Images from Text'],
                ['upload', 'Upload Images'],
              ] as const
            ).map(([value, label], index) => (
              // Radios, not toggle buttons: one of two choices, and 'Generate Images' stays the one
              // button of that name on the page.
              <label
                key={value}
                className={`relative flex min-h-11 cursor-pointer items-center px-4 text-sm font-semibold ring-1 ring-inset ring-indigo-300 focus-within:z-10 focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-indigo-700 has-disabled:cursor-not-allowed has-disabled:opacity-60 ${
                  index === 0 ? 'rounded-l-md' : '-ml-px rounded-r-md'
                } ${source === value ? 'bg-indigo-700 text-white' : 'bg-white text-indigo-800 hover:bg-indigo-50'}`}
              >
                <input
                  type="radio"
                  name="image-source"
                  value={value}
                  checked={source === value}
                  onChange={() => setSource(value)}
                  disabled={busy}
                  className="sr-only"
                />
                {label}
              </label>
            ))}
          </div>
        </fieldset>

        {source === 'generate' ? (
          <div className="mt-6 flex flex-col gap-5">
            <TextAreaField
              label="Text prompt"
              rows={3}
              maxLength={MAX_STUDIO_PROMPT_CHARS}
              placeholder="e.g. Five reasons to add alt text to your product photos"
              value={prompt}
              onChange={(event) => setPrompt(event.target.value)}
            />
            <div className="grid gap-5 sm:grid-cols-2">
              <SelectField
                label="Number of images"
                options={countOptions}
                value={String(count)}
                onChange={(event) => setCount(Number(event.target.value))}
              />
              <SelectField
                label="Quality"
                options={qualityOptions}
                value={quality}
                onChange={(event) => setQuality(event.target.value as Quality)}
              />
            </div>
            <p className="text-sm text-slate-800">
              This costs {QUALITY_CREDIT_COST[quality] * count} credits.
            </p>
            <div>
              <Button
                onClick={generateImages}
                disabled={busy && !generation.isPending}
                isLoading={generation.isPending}
                loadingText="Generating..."
              >
                Generate Images
              </Button>
            </div>
            {generation.isPending ? (
              <ProgressBar
                label="Generating images"
                value={generationProgress}
                detail="Estimated from the usual generation time"
              />
            ) : null}
            {generation.data?.notice ? (
              <p
                data-testid="generation-notice"
                className="rounded-md border border-slate-300 bg-slate-50 px-4 py-3 text-sm text-slate-900"
              >
                {generation.data.notice}
              </p>
            ) : null}
            {generated.length > 0 ? (
              <ul aria-label="Generated images" className="grid grid-cols-2 gap-3 sm:grid-cols-5">
                {generated.map((image, index) => (
                  <li key={image.url}>
                    <img
                      src={image.url}
                      alt={`${generation.data?.typographic ? 'Text slide' : 'Generated'} ${index + 1} of ${generated.length}: ${generation.variables?.prompt ?? prompt}`}
                      className="aspect-[9/16] w-full rounded-md object-cover"
                    />
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : (
          <div className="mt-6 flex flex-col gap-5">
            <FileField
              label="Images"
              hint={`Up to ${MAX_REEL_IMAGES} images, each less than 10MB.`}
              accept="image/*"
              multiple
              disabled={busy}
              onFiles={chooseImages}
            />
            <ImageTabs selected={tab} captionedDisabled={captioned.length === 0} onSelect={setTab}>
              {tab === 'original' ? (
                uploads.length === 0 ? (
                  <p className="text-sm text-slate-700">No images selected yet.</p>
                ) : (
                  <ul aria-label="Original images" className="grid grid-cols-2 gap-3 sm:grid-cols-5">
                    {uploads.map((file, index) => (
                      <li key={`${file.name}-${file.size}-${file.lastModified}`}>
                        {uploadUrls[index] ? (
                          <img
                            src={uploadUrls[index]}
                            alt={`Upload ${index + 1}: ${file.name}`}
                            className="aspect-square w-full rounded-md object-cover"
                          />
                        ) : null}
                        <p className="mt-1 truncate text-xs text-slate-700">{file.name}</p>
                      </li>
                    ))}
                  </ul>
                )
              ) : (
                <ul aria-label="Captioned images" className="grid gap-4 sm:grid-cols-3">
                  {captioned.map((image) => (
                    <li key={image.url} className="flex flex-col gap-2">
                      <img
                        src={image.url}
                        alt={`${image.name} with the caption: ${image.caption}`}
                        className="h-auto max-h-72 w-full rounded-md object-contain object-left-top"
                      />
                      <p className="text-sm text-slate-900">{image.caption}</p>
                      <div>
                        <Button
                          variant="secondary"
                          size="sm"
                          onClick={() => copyCaption(image.caption)}
                          aria-label={`Copy the caption of ${image.name}`}
                        >
                          Copy caption
                        </Button>
                      </div>
                    </li>
                  ))}
                </ul>
              )}
            </ImageTabs>
            <TextAreaField
              label="Caption prompt (optional)"
              hint={`The tone or topic of the captions. Each caption costs ${CAPTION_CREDIT_COST} credit.`}
              rows={2}
              maxLength={MAX_STUDIO_PROMPT_CHARS}
              placeholder="e.g. upbeat, for a coffee shop"
              value={captionPrompt}
              onChange={(event) => setCaptionPrompt(event.target.value)}
            />
            <div>
              <Button
                variant="secondary"
                onClick={generateCaptions}
                disabled={busy && captioning === null}
                isLoading={captioning !== null}
                loadingText="Generating captions..."
              >
                Generate Captions
              </Button>
            </div>
            {captioning ? (
              <ProgressBar
                label="Generating captions"
                value={(captioning.done / captioning.total) * 100}
                detail={`${captioning.done} of ${captioning.total} captioned`}
              />
            ) : null}
          </div>
        )}
      </Card>

      <Card title="2. Add music and create the reel" className="mt-8">
        <div className="flex flex-col gap-5">
          <FileField
            label="Music"
            hint="An audio file (MP3, WAV, M4A…), less than 10MB. It is trimmed or looped to the reel's length."
            accept="audio/*"
            disabled={busy}
            onFiles={chooseMusic}
          />
          <p className="text-sm text-slate-800">
            {reelImages.length === 0
              ? source === 'generate'
                ? 'Generate images first.'
                : tab === 'captioned'
                  ? 'Generate captions first.'
                  : 'Upload images first.'
              : `The reel uses the ${reelImages.length} ${
                  source === 'generate' ? 'generated' : tab === 'captioned' ? 'captioned' : 'original'
                } image${reelImages.length === 1 ? '' : 's'}${music ? ` and ${music.name}` : ''}.`}
          </p>
          <div>
            <Button
              onClick={downloadReel}
              disabled={!music || reelImages.length === 0 || (busy && !creatingReel)}
              isLoading={creatingReel}
              loadingText="Creating reel..."
            >
              Create & Download Reel
            </Button>
          </div>
          {reelError ? (
            <MessageBanner type="error" onDismiss={() => setReelError(null)}>
              {`${m.reelFailed}: ${reelError}`}
            </MessageBanner>
          ) : null}
          {creatingReel ? (
            <ProgressBar
              label="Creating your reel"
              value={reelProgress}
              detail="Estimated from the usual rendering time"
            />
          ) : null}
        </div>
      </Card>
    </div>
  );
}
