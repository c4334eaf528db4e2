import { routes } from '@altwise/contracts/routes';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

export function ImagesPage() {
  usePageTitle('Images');
  return (
    <ComingSoon
      title="Images"
      description="Your library of images and their alt text will be here, with copy, delete and spreadsheet export."
      backTo={routes.dashboard}
      backLabel="Back to dashboard"
    />
  );
}
