/**
 * Keys of the device's `meta` store. Apart from db.ts (Dexie) so the first read of a warm start
 * (firstRead.ts, which rides with the app's entry) can name them without loading Dexie.
 */
export const META = {
  deviceId: 'deviceId',
  nextSeq: 'nextSeq',
  cursor: 'cursor',
  token: 'token',
  user: 'user',
  lastSyncedAt: 'lastSyncedAt',
  /** `{ count, at, serverLastSeq }` of the last re-send after a server restore. */
  restoreResend: 'restoreResend',
  /** `Notice[]`: what the server said about accepted actions that the driver must read (flagged deliveries). */
  notices: 'notices',
} as const;
