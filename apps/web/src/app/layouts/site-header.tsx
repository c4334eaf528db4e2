import { routes } from '@altwise/contracts/routes';
import { type ReactNode, useState } from 'react';
import { Link, NavLink } from 'react-router';
import { buttonClasses } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { MenuIcon } from '../../components/ui/icons.tsx';
import { useAuth } from '../../lib/auth.tsx';
import { Logo } from './logo.tsx';
import { type NavItem, publicNavItems, signedInNavItems } from './nav-items.ts';

const mobileMenuId = 'mobile-menu';

function BetaBanner() {
  return (
    <div className="focus-light bg-indigo-900 px-4 py-1.5 text-center text-sm text-white">
      <p>
        <strong className="font-semibold">Altwise is in beta.</strong> Features may change while we improve
        them.{' '}
        <Link to={routes.support} className="font-semibold underline underline-offset-2 hover:no-underline">
          Send us feedback
        </Link>
      </p>
    </div>
  );
}

const desktopLinkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium ${
    isActive ? 'bg-indigo-50 text-indigo-800' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900'
  }`;

const mobileLinkClass = ({ isActive }: { isActive: boolean }) =>
  `flex min-h-12 items-center rounded-md px-3 text-base font-medium ${
    isActive ? 'bg-indigo-50 text-indigo-800' : 'text-slate-800 hover:bg-slate-100'
  }`;

type SiteHeaderProps = {
  items: readonly NavItem[];
  /** The desktop action at the end of the bar ('Log in' or the logout button). */
  action: ReactNode;
  /** The action at the end of the mobile menu; gets the function that closes the menu. */
  mobileAction: (closeMenu: () => void) => ReactNode;
};

/**
 * The bar shared by both states. NavLink marks the current page with aria-current="page". Below the md
 * breakpoint the links move into a menu dialog (focus trapped, Escape closes, focus returns to the button).
 */
function SiteHeader({ items, action, mobileAction }: SiteHeaderProps) {
  const [menuOpen, setMenuOpen] = useState(false);
  const closeMenu = () => setMenuOpen(false);

  return (
    <header>
      <BetaBanner />
      <div className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
          <Logo />
          <nav aria-label="Main" className="hidden md:block">
            <ul className="flex items-center gap-1">
              {items.map((item) => (
                <li key={item.to}>
                  <NavLink to={item.to} end className={desktopLinkClass}>
                    {item.label}
                  </NavLink>
                </li>
              ))}
              <li className="ml-3">{action}</li>
            </ul>
          </nav>
          <button
            type="button"
            className={buttonClasses({ variant: 'ghost', size: 'sm', className: 'md:hidden' })}
            aria-expanded={menuOpen}
            aria-controls={mobileMenuId}
            aria-haspopup="dialog"
            onClick={() => setMenuOpen(true)}
          >
            <MenuIcon />
            Menu
          </button>
        </div>
      </div>
      <Dialog
        id={mobileMenuId}
        open={menuOpen}
        onClose={closeMenu}
        title="Menu"
        className="fixed inset-y-0 right-0 left-auto m-0 h-dvh max-h-none w-80 max-w-full p-0 shadow-xl"
      >
        <nav aria-label="Main (mobile)">
          <ul className="flex flex-col gap-1">
            {items.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end className={mobileLinkClass} onClick={closeMenu}>
                  {item.label}
                </NavLink>
              </li>
            ))}
            <li className="mt-4 border-t border-slate-200 pt-4">{mobileAction(closeMenu)}</li>
          </ul>
        </nav>
      </Dialog>
    </header>
  );
}

/** The public bar of the product spec §2: Home, Support, Pricing, Blogs and 'Log in'. */
export function PublicHeader() {
  return (
    <SiteHeader
      items={publicNavItems}
      action={
        <Link to={routes.login} className={buttonClasses({ size: 'sm' })}>
          Log in
        </Link>
      }
      mobileAction={(closeMenu) => (
        <Link to={routes.login} onClick={closeMenu} className={buttonClasses({ className: 'w-full' })}>
          Log in
        </Link>
      )}
    />
  );
}

/** The signed-in bar of the product spec §2: Dashboard, Images, Account, Help and a logout button (sign-out on mobile). */
export function SignedInHeader() {
  const { logout } = useAuth();
  return (
    <SiteHeader
      items={signedInNavItems}
      action={
        <button
          type="button"
          onClick={logout}
          className={buttonClasses({ variant: 'secondary', size: 'sm' })}
        >
          Log out
        </button>
      }
      mobileAction={() => (
        <button
          type="button"
          onClick={logout}
          className={buttonClasses({ variant: 'secondary', className: 'w-full' })}
        >
          Sign out
        </button>
      )}
    />
  );
}
