import { describe, expect, it } from 'vitest';
import { Doorkeeper } from './doorkeeper.ts';

describe('Doorkeeper', () => {
  it('says a key was seen from its second time on', () => {
    const door = new Doorkeeper(100);
    expect(door.seen('/opportunities?cursor=a')).toBe(false);
    expect(door.seen('/opportunities?cursor=a')).toBe(true);
    expect(door.seen('/opportunities?cursor=a')).toBe(true);
    expect(door.seen('/opportunities?cursor=b')).toBe(false);
  });

  it('forgets every key once it has recorded its span of new ones', () => {
    const door = new Doorkeeper(100);
    door.seen('hot');
    for (let i = 0; i < 200; i++) door.seen(`once-${i}`);
    expect(door.seen('hot')).toBe(false);
  });

  it('rarely takes a new key for a seen one within its span', () => {
    const door = new Doorkeeper(2_000);
    for (let i = 0; i < 1_000; i++) door.seen(`key-${i}`);
    let early = 0;
    for (let i = 0; i < 500; i++) if (door.seen(`other-${i}`)) early += 1;
    // Eight bits or more per key remembered: under one in eight even at the end of a span.
    expect(early).toBeLessThan(60);
  });
});
