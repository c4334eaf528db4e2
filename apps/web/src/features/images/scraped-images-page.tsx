import { MAX_SCRAPE_IMAGES } from '@altwise/contracts/limits';
import { messages } from '@altwise/contracts/messages';
import { routes } from '@altwise/contracts/routes';
import { INVALID_IMAGE_SOURCE, type ScrapedImage } from '@altwise/contracts/scrape';
import { useId, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { MessageBanner } from '../../components/ui/message-banner.tsx';
import { SpinnerOverlay } from '../../components/ui/spinner-overlay.tsx';
import { serverMessage } from '../../lib/api-error.ts';
import { readUserId } from '../../lib/auth-storage.ts';
import { useRemainingCredits } from '../../lib/credits.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useGenerateAltText } from './api/generate-alt-text.ts';
import { PromptField } from './scrape/prompt-field.tsx';
import {
  imageFileName,
  readScrapedResult,
  type ScrapedResult,
  toScrapedResult,
} from './scrape/scraped-result.ts';

const m = messages.scrape;

/** /scraped-images (the product spec §2): the scraped page's images, a selection and the bulk generate call. */
export function ScrapedImagesPage() {
  usePageTitle('Scraped images');
  const location = useLocation();
  // Router state first (the product spec §2); the session copy keeps the list across a reload.
  const [result] = useState<ScrapedResult | null>(
    () => toScrapedResult(location.state) ?? readScrapedResult(),
  );
  return (
    <div className="mx-auto max-w-5xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Scraped Images</h1>
      {result ? <ScrapedImages result={result} /> : <NoList />}
    </div>
  );
}

function NoList() {
  const navigate = useNavigate();
  return (
    <div className="mt-8 flex flex-col items-start gap-4">
      <p className="text-lg text-slate-800">{m.noList}</p>
      <Button onClick={() => navigate(routes.scrape)}>New Page Scrape</Button>
    </div>
  );
}

function ScrapedImages({ result }: { result: ScrapedResult }) {
  const navigate = useNavigate();
  const credits = useRemainingCredits();
  const generate = useGenerateAltText();
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [prompt, setPrompt] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const headingId = useId();

  const { images, url } = result;
  const selectable = useMemo(
    () => images.flatMap((image, index) => (image.invalid ? [] : [index])),
    [images],
  );
  const missingAlt = images.filter((image) => !image.alt.trim()).length;
  const allSelected = selectable.length > 0 && selectable.every((index) => selected.has(index));
  const remaining = credits.data?.imageCredits;

  const toggle = (index: number) => {
    setProblem(null);
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(index)) next.delete(index);
      else next.add(index);
      return next;
    });
  };

  const toggleAll = () => {
    setProblem(null);
    setSelected(allSelected ? new Set() : new Set(selectable));
  };

  const onGenerate = () => {
    setProblem(null);
    if (selected.size === 0) return;
    if (remaining === undefined || credits.isError) {
      setProblem(m.unknownCredits);
      return;
    }
    if (selected.size > remaining) {
      setProblem(m.tooFewCredits(remaining));
      return;
    }
    const selectedImages = [...selected]
      .sort((a, b) => a - b)
      .flatMap((index) => {
        const image = images[index];
        return image ? [{ src: image.src, alt: image.alt, context: image.context }] : [];
      });
    const userId = readUserId();
    const chatGptPrompt = prompt.trim();
    generate.mutate(
      {
        selectedImages,
        ...(userId ? { userId } : {}),
        ...(chatGptPrompt ? { chatGptPrompt } : {}),
        pageUrl: url,
      },
      {
        onSuccess: (batch) =>
          navigate(routes.images, { state: { batchId: batch.batchId, message: batch.message } }),
        onError: (error) => setProblem(serverMessage(error) ?? m.generateFailed),
      },
    );
  };

  return (
    <>
      <Card title="Summary" className="mt-8">
        <dl className="grid gap-x-6 gap-y-2 text-slate-800 sm:grid-cols-[auto_1fr]">
          <dt className="font-medium">URL</dt>
          <dd className="break-all">{url}</dd>
          <dt className="font-medium">Total scraped images</dt>
          <dd>{images.length}</dd>
          <dt className="font-medium">Images missing alt text</dt>
          <dd>{missingAlt}</dd>
          <dt className="font-medium">Remaining credits</dt>
          <dd>{credits.isError ? 'Unavailable' : (remaining ?? 'Loading...')}</dd>
        </dl>
      </Card>

      <section aria-labelledby={headingId} className="mt-8">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id={headingId} className="text-xl font-semibold text-slate-900">
            Images on the page
          </h2>
          <p className="text-sm text-slate-700" aria-live="polite">
            Selected: {selected.size}
          </p>
        </div>
        <div className="mt-3 overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
          <table className="min-w-full divide-y divide-slate-200 text-left text-sm">
            <thead className="bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-700">
              <tr>
                <th scope="col" className="px-4 py-3">
                  #
                </th>
                <th scope="col" className="px-4 py-3">
                  IMAGE
                </th>
                <th scope="col" className="px-4 py-3">
                  EXISTING ALT TEXT
                </th>
                <th scope="col" className="px-4 py-3">
                  <label className="inline-flex items-center gap-2">
                    <input
                      type="checkbox"
                      className="size-4"
                      checked={allSelected}
                      disabled={selectable.length === 0}
                      onChange={toggleAll}
                    />
                    <span>SELECT</span>
                    <span className="sr-only"> all images</span>
                  </label>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {images.map((image, index) => (
                <ImageRow
                  // biome-ignore lint/suspicious/noArrayIndexKey: the list never changes order, and invalid rows may share a source
                  key={`${index}-${image.src}`}
                  image={image}
                  index={index}
                  checked={selected.has(index)}
                  onToggle={toggle}
                />
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <Card className="mt-8">
        <div className="flex flex-col gap-5">
          <PromptField value={prompt} onChange={setPrompt} />
          {problem ? (
            <MessageBanner type="error" onDismiss={() => setProblem(null)}>
              {problem}
            </MessageBanner>
          ) : null}
          <div className="flex flex-wrap gap-3">
            <Button onClick={onGenerate} disabled={selected.size === 0 || generate.isPending}>
              Generate Alt Text for selected
            </Button>
            <Button variant="secondary" onClick={() => navigate(routes.scrape)}>
              New Page Scrape
            </Button>
          </div>
          <p className="text-sm text-slate-700">
            Note: alt text is generated in the background and the results are added to your image library.
            Some images may be skipped if their format is unsupported or they cannot be downloaded. Page
            scrapes are limited to {MAX_SCRAPE_IMAGES} images.
          </p>
        </div>
      </Card>
      {generate.isPending ? (
        <SpinnerOverlay label="Generating alt text..." detail="Starting the generation of your images." />
      ) : null}
    </>
  );
}

type ImageRowProps = {
  image: ScrapedImage;
  index: number;
  checked: boolean;
  onToggle: (index: number) => void;
};

function ImageRow({ image, index, checked, onToggle }: ImageRowProps) {
  const checkboxId = useId();
  const name = image.invalid ? null : (imageFileName(image.src) ?? 'Unnamed Image');
  return (
    <tr className={checked ? 'bg-indigo-50' : undefined}>
      <td className="px-4 py-3 text-slate-700">{index + 1}</td>
      <td className="max-w-xs px-4 py-3">
        {name === null ? (
          <span className="text-red-700">{INVALID_IMAGE_SOURCE}</span>
        ) : (
          <a
            href={image.src}
            target="_blank"
            rel="noopener noreferrer"
            className="break-all font-medium text-indigo-700 underline hover:text-indigo-900"
          >
            {name}
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        )}
      </td>
      <td className="px-4 py-3 text-slate-800">
        {image.alt.trim() ? image.alt : <span className="italic text-slate-700">No alt text</span>}
      </td>
      <td className="px-4 py-3">
        <input
          id={checkboxId}
          type="checkbox"
          className="size-4"
          checked={checked}
          disabled={image.invalid}
          onChange={() => onToggle(index)}
        />
        <label htmlFor={checkboxId} className="sr-only">
          Select image {index + 1}
          {name ? ` (${name})` : ' (invalid image source, cannot be selected)'}
        </label>
      </td>
    </tr>
  );
}
