import { routes } from '@altwise/contracts/routes';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

function BlogPostPage({ n }: { n: 1 | 2 | 3 }) {
  usePageTitle(`Blog article ${n}`);
  return (
    <ComingSoon
      title={`Blog Article ${n}`}
      description="This article on image accessibility is being written and will be published here."
      backTo={routes.blogs}
      backLabel="Back to blogs"
    />
  );
}

export const BlogPost1Page = () => <BlogPostPage n={1} />;
export const BlogPost2Page = () => <BlogPostPage n={2} />;
export const BlogPost3Page = () => <BlogPostPage n={3} />;
