import { z } from 'zod';
import { COLLECTION_FAIL_REASONS } from '../collection';
import { text } from './common';
import { ActionFields } from './delivery';

/** A failed collection as the phone sends it (shared/collection.ts): why, and what the driver adds. */
export const CollectionFailBody = z.object({
  reason: z.enum(COLLECTION_FAIL_REASONS),
  note: text(1000).optional(),
  ...ActionFields,
});
