import { describe, expect, it } from 'vitest';
import { RawJson, jsonText, rawArray, rawObject } from '../../server/http/rawJson';

const bytes = (s: string) => new Uint8Array(Buffer.from(s));

describe('RawJson: answers spliced from pieces, text or UTF-8 bytes', () => {
  it('an object of text and byte pieces is the JSON JSON.stringify would write', () => {
    const parcels = [new RawJson(bytes('{"id":1,"customer_name":"Zoë Ñúñez"}')), new RawJson('{"id":2,"customer_name":"李"}')];
    const answer = rawObject({ success: true, skipped: undefined, message: '2 "parcels"', pending_packages: rawArray(parcels) });
    const expected = { success: true, message: '2 "parcels"', pending_packages: [{ id: 1, customer_name: 'Zoë Ñúñez' }, { id: 2, customer_name: '李' }] };
    expect(JSON.parse(answer.text)).toEqual(expected);
    const body = answer.body();
    expect(Buffer.isBuffer(body)).toBe(true);
    expect(JSON.parse(Buffer.from(body).toString('utf8'))).toEqual(expected);
    expect(JSON.parse(jsonText(answer))).toEqual(expected);
    // Neighbouring text pieces are merged: the body is a handful of pieces, not one per comma.
    expect(answer.chunks.length).toBe(3);
  });

  it('all-text answers stay strings; an empty list is []', () => {
    const answer = rawObject({ n: 0, list: rawArray([]) });
    expect(answer.body()).toBe('{"n":0,"list":[]}');
    expect(rawArray([new RawJson('1'), new RawJson('2')]).body()).toBe('[1,2]');
  });

  it('reads the head of a byte answer and adds members to it without decoding the rest', () => {
    const parcel = new RawJson(bytes('{"id":42,"hawb":"Ü-1"}'));
    expect(parcel.head(8)).toBe('{"id":42');
    const more = parcel.withMembers('"recipient_instructions":"Leave at the back"');
    expect(JSON.parse(more.text)).toEqual({ id: 42, hawb: 'Ü-1', recipient_instructions: 'Leave at the back' });
    expect(JSON.parse(new RawJson('{"id":7}').withMembers('"a":1').text)).toEqual({ id: 7, a: 1 });
  });
});
