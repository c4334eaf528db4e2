import { Link, type LinkProps } from 'react-router';
import { type ButtonSize, type ButtonVariant, buttonClasses } from './button.tsx';

export type ButtonLinkProps = LinkProps & { variant?: ButtonVariant; size?: ButtonSize };

/**
 * A link (it navigates) styled as a button. Apart from button.tsx so that a button does not bring React
 * Router along (the sign-in pages' light entry has no router, ADR 038).
 */
export function ButtonLink({ variant, size, className, ...props }: ButtonLinkProps) {
  return <Link className={buttonClasses({ variant, size, className })} {...props} />;
}
