import type { ComponentChildren, JSX } from 'preact';

type Variant = 'primary' | 'danger' | 'ghost' | 'default';

export interface ButtonProps extends Omit<JSX.ButtonHTMLAttributes<HTMLButtonElement>, 'size' | 'loading' | 'type' | 'disabled'> {
  variant?: Variant;
  size?: 'small' | 'big';
  /** Shows a spinner and blocks a second click while the action runs. */
  busy?: boolean;
  disabled?: boolean;
  type?: 'button' | 'submit';
  children?: ComponentChildren;
}

export function Button({ variant = 'default', size, busy, disabled, type = 'button', class: cls, children, ...rest }: ButtonProps) {
  const classes = ['btn', variant !== 'default' && variant, size, cls].filter(Boolean).join(' ');
  return (
    <button {...rest} type={type} class={classes} disabled={disabled || busy} aria-busy={busy ? 'true' : undefined}>
      {busy && <span class="spin" aria-hidden="true" />}
      {children}
    </button>
  );
}

export function LinkButton({
  href,
  variant = 'default',
  size,
  children,
  ...rest
}: { href: string; variant?: Variant; size?: 'small' | 'big'; children: ComponentChildren } & Omit<
  JSX.AnchorHTMLAttributes<HTMLAnchorElement>,
  'size'
>) {
  const classes = ['btn', variant !== 'default' && variant, size].filter(Boolean).join(' ');
  return (
    <a {...rest} href={href} class={classes}>
      {children}
    </a>
  );
}
