import { SupportTicket, SupportTicketCreate, SupportTicketUpdate } from '../../../shared/schemas/org';
import { supportTicket } from '../../db/schema/index';
import { ops } from '../../http/catalogue';
import type { App } from '../../http/env';
import { defineResource } from '../../resources/crud';
import { ticketRow, ticketScope, toTicket } from '../../services/org/support';
import { filterQuery } from './filters';

export function supportRoutes(app: App): void {
  defineResource(app, {
    path: 'driver-support',
    table: supportTicket,
    label: 'Support ticket',
    tags: ['Driver Support'],
    view: 'support.view',
    manage: 'support.manage',
    ops: {
      list: ops('web/Driver Support', 'Get'),
      create: ops('web/Driver Support', 'Create'),
      retrieve: ops('web/Driver Support', 'Retrieve'),
      update: ops('web/Driver Support', 'Update'),
      delete: ops('web/Driver Support', 'Delete'),
    },
    record: SupportTicket,
    create: SupportTicketCreate,
    update: SupportTicketUpdate,
    toApi: toTicket,
    scope: ticketScope,
    toRow: ticketRow,
    listQuery: filterQuery('status', 'driver'),
    list: {
      search: ['subject', 'message'],
      ordering: ['created_at', 'updated_at', 'status'],
      defaultOrdering: '-created_at',
      filters: { status: 'status', driver: 'driver_id' },
    },
  });
}
