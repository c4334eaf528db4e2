import { routes } from '@altwise/contracts/routes';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

export function GenerateContentPage() {
  usePageTitle('Blog post generator');
  return (
    <ComingSoon
      title="Blog Post Generator"
      description="Pick a topic, a tone and a category here and get a draft blog post."
      backTo={routes.dashboard}
      backLabel="Back to dashboard"
    />
  );
}
