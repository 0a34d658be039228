import { engine } from './engine';

/** A label on the phone's list that contains the code: the scanner read only part of it. */
export async function partOfLabel(code: string): Promise<string | null> {
  if (code.length < 3) return null;
  const labels = (await engine().db.packages.orderBy('hawb').keys()) as string[];
  return labels.find((h) => h !== code && h.includes(code)) ?? null;
}

/**
 * A pickup point's QR code as the server prints it (server/services/org/pickupQr.ts): its id, read
 * on the phone so the point is known offline; only the server can tell whether the code is genuine.
 */
export function pickupPointOfCode(code: string): number | null {
  const m = /^COURIER-PP:(\d{1,15}):[0-9a-f]{8}$/.exec(code.trim());
  return m?.[1] ? Number(m[1]) : null;
}
