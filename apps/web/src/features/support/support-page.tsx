import { ComingSoon } from '../../components/ui/coming-soon.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

export function SupportPage() {
  usePageTitle('Support');
  return (
    <ComingSoon
      title="Support"
      description="A contact form to reach our team about alt text, credits, plans or your account will be here."
    />
  );
}
