import { routes } from '@altwise/contracts/routes';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

export function ScrapedImagesPage() {
  usePageTitle('Scraped images');
  return (
    <ComingSoon
      title="Scraped Images"
      description="The images found on a scraped page will be listed here so you can pick which ones get new alt text."
      backTo={routes.images}
      backLabel="Back to images"
    />
  );
}
