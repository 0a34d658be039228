import Dexie, { type EntityTable } from 'dexie';
import type { BlobRow, GoneRow, JournalRow, LeaseRow, MetaRow, OutboxRow, StoredPackage, StoredStatus } from './types';

export interface DbOptions {
  indexedDB?: IDBFactory;
  IDBKeyRange?: typeof IDBKeyRange;
}

/**
 * The device's database. Server copies (packages, failedStatuses, gone) are written only by pulls
 * and acknowledgements; the outbox and blobs only by the engine. New versions add stores or
 * indexes and never drop the outbox or blobs: queued work survives every upgrade.
 */
export class SyncDb extends Dexie {
  packages!: EntityTable<StoredPackage, 'id'>;
  failedStatuses!: EntityTable<StoredStatus, 'id'>;
  gone!: EntityTable<GoneRow, 'hawb'>;
  outbox!: EntityTable<OutboxRow, 'id'>;
  blobs!: EntityTable<BlobRow, 'clientId'>;
  meta!: EntityTable<MetaRow, 'key'>;
  leases!: EntityTable<LeaseRow, 'name'>;
  journal!: EntityTable<JournalRow, 'seq'>;

  constructor(name: string, options: DbOptions = {}) {
    super(name, options.indexedDB ? { indexedDB: options.indexedDB, IDBKeyRange: options.IDBKeyRange } : undefined);
    this.version(1).stores({
      packages: 'id, hawb, status',
      failedStatuses: 'id',
      gone: 'hawb',
      outbox: '++id, &seq, &key, status',
      blobs: 'clientId',
      meta: 'key',
      leases: 'name',
    });
    // Version 2 only adds the journal of acknowledged actions; every store of version 1 is repeated unchanged.
    this.version(2).stores({
      packages: 'id, hawb, status',
      failedStatuses: 'id',
      gone: 'hawb',
      outbox: '++id, &seq, &key, status',
      blobs: 'clientId',
      meta: 'key',
      leases: 'name',
      journal: 'seq, &key, acknowledgedAt',
    });
  }
}

export { META } from './metaKeys';

export async function getMeta<T>(db: SyncDb, key: string): Promise<T | undefined> {
  return (await db.meta.get(key))?.value as T | undefined;
}

export async function setMeta(db: SyncDb, key: string, value: unknown): Promise<void> {
  await db.meta.put({ key, value });
}
