import { routes } from '@altwise/contracts/routes';

export type NavItem = { to: string; label: string };

/** the product spec §2 "Navigation bars". 'Log in' and the logout button are rendered apart, as actions. */
export const publicNavItems: readonly NavItem[] = [
  { to: routes.home, label: 'Home' },
  { to: routes.support, label: 'Support' },
  { to: routes.plans, label: 'Pricing' },
  { to: routes.blogs, label: 'Blogs' },
];

export const signedInNavItems: readonly NavItem[] = [
  { to: routes.dashboard, label: 'Dashboard' },
  { to: routes.images, label: 'Images' },
  { to: routes.audit, label: 'Audit' },
  { to: routes.integrations, label: 'Integrations' },
  { to: routes.account, label: 'Account' },
  { to: routes.help, label: 'Help' },
];

export const footerNavItems: readonly NavItem[] = [
  { to: routes.support, label: 'Support' },
  { to: routes.plans, label: 'Pricing' },
  { to: routes.blogs, label: 'Blogs' },
  { to: routes.developers, label: 'Developers' },
  { to: routes.accuracy, label: 'Accuracy' },
];
