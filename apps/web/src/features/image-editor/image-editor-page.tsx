import { routes } from '@altwise/contracts/routes';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

export function ImageEditorPage() {
  usePageTitle('AI Image Editor');
  return (
    <ComingSoon
      title="AI Image Editor"
      description="Upload an image of up to 10MB, describe the change you want and download the edited image here."
      backTo={routes.dashboard}
      backLabel="Back to dashboard"
    />
  );
}
