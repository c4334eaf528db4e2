import { messages } from '@altwise/contracts/messages';
import { routes } from '@altwise/contracts/routes';
import { SCRAPE_URL_MAX_CHARS } from '@altwise/contracts/scrape';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { MessageBanner } from '../../components/ui/message-banner.tsx';
import { SpinnerOverlay } from '../../components/ui/spinner-overlay.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { serverMessage } from '../../lib/api-error.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useScrapePage } from './api/scrape-page.ts';
import { type ScrapedResult, saveScrapedResult, toScrapedResult } from './scrape/scraped-result.ts';

const m = messages.scrape;

type Problem = { message: string; detail?: string | undefined };

/**
 * /scrape (the product spec §2): a page address, then the list of its images on /scraped-images. The URL is not
 * checked in the browser (the product spec §5): the server's answer says what is wrong with it.
 */
export function ScrapePage() {
  usePageTitle('Scrape a page');
  const navigate = useNavigate();
  const scrape = useScrapePage();
  const [url, setUrl] = useState('');
  const [problem, setProblem] = useState<Problem | null>(null);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setProblem(null);
    scrape.mutate(url, {
      onSuccess: (answer) => {
        const result = Array.isArray(answer) ? toScrapedResult({ url: url.trim(), images: answer }) : null;
        if (!result) {
          setProblem({ message: m.noImages });
          return;
        }
        saveScrapedResult(result);
        navigate(routes.scrapedImages, { state: result satisfies ScrapedResult });
      },
      // the product spec §8's text first; the server's own reason (unreachable host, not a web page, refused
      // address...) under it, so the person knows what to change.
      onError: (error) => setProblem({ message: m.failed, detail: serverMessage(error) }),
    });
  };

  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Scrape a Web Page</h1>
      <p className="mt-3 text-lg text-slate-700">
        Find the images of a page and see which of them have no alt text yet.
      </p>

      <Card title="How it works" className="mt-8">
        <ol className="list-decimal space-y-2 pl-5 text-slate-800">
          <li>Enter the full address of a public web page, starting with http:// or https://.</li>
          <li>Select Scrape Page. We read the page's images (up to 200) without running its scripts.</li>
          <li>Review the images, see which ones are missing alt text, and select the ones you want.</li>
          <li>Generate alt text: it is written in the background and added to your image library.</li>
        </ol>
      </Card>

      <Card className="mt-6">
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
          <TextField
            label="Web Page URL"
            name="url"
            type="text"
            inputMode="url"
            autoComplete="url"
            placeholder="https://example.com/blog/post"
            maxLength={SCRAPE_URL_MAX_CHARS}
            value={url}
            onChange={(event) => setUrl(event.target.value)}
          />
          {problem ? (
            <MessageBanner type="error" onDismiss={() => setProblem(null)}>
              <p>{problem.message}</p>
              {problem.detail ? <p className="mt-1">{problem.detail}</p> : null}
            </MessageBanner>
          ) : null}
          <div className="flex flex-wrap gap-3">
            <Button type="submit" isLoading={scrape.isPending} loadingText="Scraping...">
              Scrape Page
            </Button>
            <Button variant="secondary" onClick={() => navigate(routes.images)}>
              Cancel
            </Button>
          </div>
        </form>
      </Card>
      {scrape.isPending ? <SpinnerOverlay label={m.busy} /> : null}
    </div>
  );
}
