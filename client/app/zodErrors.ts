import type { z } from 'zod';

/** First message per top-level field, the shape forms display. */
export function zodErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? String(issue.path[0]) : '_';
    out[key] ??= friendly(issue);
  }
  return out;
}

function friendly(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'too_small':
      if (issue.origin === 'string') return Number(issue.minimum) <= 1 ? 'Required' : `At least ${String(issue.minimum)} characters`;
      return `Must be at least ${String(issue.minimum)}`;
    case 'too_big':
      if (issue.origin === 'string') return `At most ${String(issue.maximum)} characters`;
      return `Must be at most ${String(issue.maximum)}`;
    case 'invalid_type':
      return issue.input === undefined || issue.input === null ? 'Required' : `Expected a ${issue.expected}`;
    case 'invalid_format':
      return issue.format === 'email' ? 'Enter a valid e-mail address' : issue.message;
    case 'invalid_value':
      return 'Choose one of the options';
    default:
      return issue.message;
  }
}
