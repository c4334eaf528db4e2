import { routes } from '@altwise/contracts/routes';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

export function ScrapePage() {
  usePageTitle('Scrape a page');
  return (
    <ComingSoon
      title="Scrape a Web Page"
      description="Enter a web page address here to collect its images (up to 200) and see which ones lack alt text."
      backTo={routes.images}
      backLabel="Back to images"
    />
  );
}
