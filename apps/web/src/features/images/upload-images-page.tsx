import { routes } from '@altwise/contracts/routes';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

export function UploadImagesPage() {
  usePageTitle('Upload images');
  return (
    <ComingSoon
      title="Upload Images"
      description="Upload images of up to 5MB each here and get alt text written for every one of them."
      backTo={routes.images}
      backLabel="Back to images"
    />
  );
}
