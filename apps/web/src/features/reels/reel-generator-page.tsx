import { routes } from '@altwise/contracts/routes';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

export function ReelGeneratorPage() {
  usePageTitle('AI Reel Generator');
  return (
    <ComingSoon
      title="AI Reel Generator"
      description="Generate or upload up to 5 images, add captions and music, and download a short reel here."
      backTo={routes.dashboard}
      backLabel="Back to dashboard"
    />
  );
}
