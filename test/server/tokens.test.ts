import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { hashToken, newToken, randomText } from '../../server/services/auth/tokens';
import { newTrackToken } from '../../server/services/recipients/recipient';

describe('tokens', () => {
  it('random text from the pool is never handed out twice, across refills, at the asked length', () => {
    const seen = new Set<string>();
    // 24 bytes a token: 2,000 of them cross the 4 KB pool a dozen times, at offsets that do not divide it.
    for (let i = 0; i < 2000; i++) seen.add(newTrackToken());
    expect(seen.size).toBe(2000);
    for (const t of seen) expect(t).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(randomText(32)).toHaveLength(43);
    expect(() => randomText(5000)).toThrow(RangeError);
  });

  it('a token is stored only as its SHA-256', () => {
    const { token, hash } = newToken();
    expect(hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(hashToken(token)).toBe(hash);
  });
});
