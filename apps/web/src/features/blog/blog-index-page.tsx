import { ComingSoon } from '../../components/ui/coming-soon.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

export function BlogIndexPage() {
  usePageTitle('Blogs');
  return (
    <ComingSoon
      title="Blogs"
      description="Articles on writing good alt text and making images accessible will be listed here."
    />
  );
}
