import { createCipheriv, createDecipheriv, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';

const VERSION = 'v1';
const ALGORITHM = 'aes-256-gcm';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

const BASE64 = /^(?:[A-Za-z0-9+/]+={0,2}|[A-Za-z0-9_-]+)$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** Decodes canonical unpadded base64url only, so one sealed value has exactly one spelling. */
function decodePart(part: string, name: string): Buffer {
  const bytes = BASE64URL.test(part) ? Buffer.from(part, 'base64url') : undefined;
  if (!bytes || bytes.toString('base64url') !== part) throw malformed(`its ${name} is not base64url`);
  return bytes;
}

const malformed = (why: string) => new Error(`Cannot open sealed secret: malformed value (${why})`);

/**
 * Authenticated encryption of small secrets (webhook URLs, signing secrets) at rest:
 * AES-256-GCM with a 32-byte key and a random 12-byte IV per seal. The sealed form is
 * `v1.<iv b64url>.<ciphertext b64url>.<tag b64url>` (unpadded base64url, 16-byte tag).
 * Optional associated data (for example the owning row's id) is authenticated but not stored:
 * the same value must be given to `open`. An absent and an empty associated data are the same.
 */
export class SecretBox {
  readonly #key: KeyObject;

  private constructor(key: Buffer) {
    this.#key = createSecretKey(key);
  }

  /** Builds a box from a base64 (or base64url) key; throws unless it decodes to exactly 32 bytes. */
  static fromBase64Key(key: string): SecretBox {
    const text = typeof key === 'string' ? key.trim() : '';
    if (!BASE64.test(text)) {
      throw new Error(`Secret box key must be ${KEY_BYTES} bytes encoded as base64; the value given is not base64`);
    }
    const bytes = Buffer.from(text, text.includes('-') || text.includes('_') ? 'base64url' : 'base64');
    if (bytes.length !== KEY_BYTES) {
      throw new Error(`Secret box key must be ${KEY_BYTES} bytes encoded as base64; it decodes to ${bytes.length} bytes`);
    }
    return new SecretBox(bytes);
  }

  /** Encrypts `plaintext` (UTF-8) under a fresh random IV; equal plaintexts seal differently. */
  seal(plaintext: string, associatedData?: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.#key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(associatedData ?? '', 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, iv.toString('base64url'), ciphertext.toString('base64url'), tag.toString('base64url')].join('.');
  }

  /**
   * Decrypts a value from `seal`. Throws an Error with a readable message when the value is
   * malformed, or was sealed under another key or associated data, or has been altered.
   */
  open(sealed: string, associatedData?: string): string {
    if (typeof sealed !== 'string') throw malformed('not a string');
    const parts = sealed.split('.');
    if (parts.length !== 4) throw malformed(`expected 4 dot-separated parts, got ${parts.length}`);
    const [version = '', ivPart = '', ciphertextPart = '', tagPart = ''] = parts;
    if (version !== VERSION) throw malformed(`unknown version '${version.slice(0, 8)}'`);
    const iv = decodePart(ivPart, 'IV');
    const ciphertext = decodePart(ciphertextPart, 'ciphertext');
    const tag = decodePart(tagPart, 'tag');
    if (iv.length !== IV_BYTES) throw malformed(`IV must be ${IV_BYTES} bytes`);
    if (tag.length !== TAG_BYTES) throw malformed(`tag must be ${TAG_BYTES} bytes`);

    const decipher = createDecipheriv(ALGORITHM, this.#key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(associatedData ?? '', 'utf8'));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
    } catch {
      throw new Error('Cannot open sealed secret: authentication failed (wrong key, wrong associated data, or the value was altered)');
    }
  }
}

const MASK = '••••';

/**
 * Masks a URL for display: keeps scheme, host and port, and of the path + query shows at most
 * the first 3 and the last 3 characters, only when at least 10 characters stay hidden, e.g.
 * `https://hooks.example.com/ser…••••3f9`. A path of 6 to 15 characters shows its last 3 only
 * (`…/••••ers`), a shorter one nothing, so endpoints on one host stay distinct; credentials and the
 * fragment are never shown; an unparseable value is masked entirely.
 */
export function maskUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return MASK;
  }
  const origin = `${parsed.protocol}//${parsed.host}`;
  const rest = `${parsed.pathname}${parsed.search}`.replace(/^\//, '');
  if (rest === '') return `${origin}/`;
  if (rest.length < 6) return `${origin}/${MASK}`;
  // Short paths keep their last 3 characters only: enough to tell two endpoints on one host apart.
  if (rest.length < 16) return `${origin}/${MASK}${rest.slice(-3)}`;
  return `${origin}/${rest.slice(0, 3)}…${MASK}${rest.slice(-3)}`;
}

/**
 * Masks a secret for display: keeps a type prefix such as `whsec_`, then `••••••••` and the last
 * 4 characters (`whsec_••••••••a1B2`). Secrets shorter than 12 characters after the prefix are
 * fully masked.
 */
export function maskSecret(secret: string): string {
  const prefix = /^[A-Za-z]{2,10}_/.exec(secret)?.[0] ?? '';
  const rest = secret.slice(prefix.length);
  return `${prefix}${MASK}${MASK}${rest.length >= 12 ? rest.slice(-4) : ''}`;
}
