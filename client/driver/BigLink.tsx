import type { ComponentChildren } from 'preact';

/** A full-width link styled as the screen's big button (LinkButton keeps its own class list). */
export function BigLink({
  href,
  primary,
  children,
  testId,
}: {
  href: string;
  primary?: boolean;
  children: ComponentChildren;
  testId?: string;
}) {
  return (
    <a href={href} class={`btn big xl${primary ? ' primary' : ''}`} data-testid={testId}>
      {children}
    </a>
  );
}
