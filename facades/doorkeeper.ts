/**
 * Which keys were asked for recently: a cache admits a value on its key's second request, so a
 * scan of answers asked for once (a crawler walking every cursor, a sweep over every id) does not
 * push out the ones asked for again and again, and costs no cache upkeep. TinyLFU's doorkeeper:
 * one bit per hashed key, forgotten all together after `span` keys it had not seen. A key that
 * collides with another's bit is admitted early, which costs only a kept value.
 */
export class Doorkeeper {
  private readonly bits: Uint32Array;
  private readonly mask: number;
  private readonly span: number;
  private recorded = 0;

  /** @param span how many distinct keys it remembers (a few times fewer than its bits) */
  constructor(span: number) {
    this.span = span;
    // At least eight bits per key remembered: about one false "seen" in eight at the end of a span.
    const size = 2 ** Math.max(10, Math.ceil(Math.log2(span * 8)));
    this.bits = new Uint32Array(size / 32);
    this.mask = size - 1;
  }

  /** Whether `key` was asked for since the last reset; records it either way. */
  seen(key: string): boolean {
    const bit = fnv1a(key) & this.mask;
    const word = bit >>> 5;
    const flag = 1 << (bit & 31);
    if ((this.bits[word]! & flag) !== 0) return true;
    if (this.recorded >= this.span) {
      this.bits.fill(0);
      this.recorded = 0;
    }
    this.bits[word]! |= flag;
    this.recorded += 1;
    return false;
  }
}

/**
 * FNV-1a, 32 bits, over the key's UTF-16 code units, then MurmurHash3's finalizer: FNV alone
 * spreads keys that differ in their last characters (cursors, ids) poorly over the low bits.
 */
function fnv1a(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}
