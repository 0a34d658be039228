import type { ComponentType } from 'preact';
import type { z } from 'zod';
import type { Permission } from '../../../shared/permissions';
import type { Column } from '../../ui/DataTable';

export type Row = Record<string, unknown> & { id: number };

/** A foreign key shown as a choice of the referenced records. */
export interface RefDecl {
  endpoint: string;
  /** How a referenced record is named in the choice list. */
  label: (row: Row) => string;
}

export interface FilterDecl {
  name: string;
  label: string;
  /** Fixed options, yes/no, or the records of another resource. */
  options: readonly { value: string; label: string }[] | 'boolean' | RefDecl;
}

export type StatusDecl =
  /** `verbs`: the buttons' words when not Deactivate/Activate (standing deliveries: Pause/Resume). */
  | { kind: 'active'; verbs?: readonly [off: string, on: string] }
  /** A named state set with `{ [field]: value }` (companies: pending/active/suspended). */
  | { kind: 'enum'; field: string; options: readonly string[] };

/**
 * Everything the generic screen needs to list, create, edit, archive, restore and change the status
 * of one kind of record. Paths follow DESIGN.md section 3, so a declaration works as soon as the
 * server defines the resource.
 */
export interface ResourceDecl {
  /** URL segment of the API and of the screen (`#/r/<name>`). */
  name: string;
  title: string;
  singular: string;
  view: Permission;
  manage: Permission;
  create?: z.ZodObject;
  /** Defaults to `create.partial()`. */
  update?: z.ZodObject;
  columns: Column<Row>[];
  labels?: Record<string, string>;
  hints?: Record<string, string>;
  /** Form fields never shown (set elsewhere, or write-only on create). */
  omit?: readonly string[];
  /** Fields shown only when creating (e.g. a password). */
  createOnly?: readonly string[];
  refs?: Record<string, RefDecl>;
  filters?: readonly FilterDecl[];
  searchable?: boolean;
  /** Default `?ordering=`. */
  ordering?: string;
  archive?: boolean;
  status?: StatusDecl;
  /** The update answers `{}` rather than the record (failed-delivery status, spec 4.2). */
  updateAnswersEmpty?: boolean;
  /** Asked before deactivating a record (an employee may hold open work); it deactivates itself. */
  deactivateDialog?: ComponentType<{ row: Row; onDone: (message?: string) => void; onClose: () => void }>;
}
