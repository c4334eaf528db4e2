import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Spinner } from './spinner.tsx';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';
export type ButtonSize = 'sm' | 'md' | 'lg';

const variantClasses: Record<ButtonVariant, string> = {
  primary: 'bg-indigo-700 text-white shadow-sm hover:bg-indigo-800',
  secondary: 'bg-white text-indigo-800 shadow-sm ring-1 ring-inset ring-indigo-300 hover:bg-indigo-50',
  ghost: 'text-slate-800 hover:bg-slate-100',
  danger: 'bg-red-700 text-white shadow-sm hover:bg-red-800',
};

const sizeClasses: Record<ButtonSize, string> = {
  sm: 'min-h-9 px-3 text-sm',
  md: 'min-h-11 px-4 text-sm',
  lg: 'min-h-12 px-6 text-base',
};

/** The classes of a button, for links that look like buttons. */
export function buttonClasses({
  variant = 'primary',
  size = 'md',
  className = '',
}: {
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
} = {}): string {
  return `inline-flex items-center justify-center gap-2 rounded-md font-semibold transition-colors disabled:cursor-not-allowed disabled:opacity-60 ${variantClasses[variant]} ${sizeClasses[size]} ${className}`;
}

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Disables the button and shows a spinner with `loadingText` (e.g. 'Registering...'). */
  isLoading?: boolean;
  loadingText?: ReactNode;
};

export function Button({
  variant,
  size,
  isLoading = false,
  loadingText,
  className,
  children,
  type = 'button',
  disabled,
  ...props
}: ButtonProps) {
  return (
    <button
      type={type}
      disabled={disabled || isLoading}
      className={buttonClasses({ variant, size, className })}
      {...props}
    >
      {isLoading ? (
        <>
          <Spinner className="size-4" />
          {loadingText ?? children}
        </>
      ) : (
        children
      )}
    </button>
  );
}
