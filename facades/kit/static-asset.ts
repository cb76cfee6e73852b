import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

// Files a facade serves from memory (the API reference's and the GraphQL explorer's bundles):
// a strong ETag per encoding, brotli or gzip compressed once per process.

/** Smaller bodies are not worth compressing. */
const COMPRESS_FROM_BYTES = 1024;
type Encoding = 'br' | 'gzip';

export interface StaticAsset {
  body: Buffer;
  type: string;
  cacheControl: string;
  /** Extra response headers, as name, value pairs. */
  headers: string[];
  /** Strong validator of the bytes; one ETag per encoding derives from it. */
  hash: string;
  compressed: Map<Encoding, Promise<Buffer>>;
}

export function staticAsset(body: Buffer, type: string, cacheControl: string, headers: string[] = []): StaticAsset {
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 22);
  return { body, type, cacheControl, headers, hash, compressed: new Map() };
}

export type AssetAnswer =
  | { fresh: true; etag: string; headers: string[] }
  | { fresh: false; etag: string; headers: string[]; body: Buffer };

/**
 * What to answer for `asset` given the request's Accept-Encoding and If-None-Match: a 304
 * (`fresh`) or the bytes, compressed when accepted. `headers` adds ETag, Vary and the encoding
 * to the asset's own.
 */
export async function answerAsset(
  asset: StaticAsset,
  acceptEncoding: string | undefined,
  ifNoneMatch: string | undefined,
): Promise<AssetAnswer> {
  const encoding = asset.body.length < COMPRESS_FROM_BYTES ? undefined : chooseEncoding(acceptEncoding);
  const etag = `"${asset.hash}${encoding ? `-${encoding}` : ''}"`;
  if (matches(ifNoneMatch, asset.hash)) return { fresh: true, etag, headers: [...asset.headers, 'vary', 'accept-encoding'] };
  const headers = [...asset.headers, 'etag', etag, 'vary', 'accept-encoding'];
  if (!encoding) return { fresh: false, etag, headers, body: asset.body };
  if (!asset.compressed.has(encoding)) {
    const pending = compress(asset.body, encoding);
    // A failure answers this request with a 500 and is not kept: the next request tries again.
    pending.catch(() => asset.compressed.delete(encoding));
    asset.compressed.set(encoding, pending);
  }
  const body = await asset.compressed.get(encoding)!;
  return { fresh: false, etag, headers: [...headers, 'content-encoding', encoding], body };
}

/** Brotli when accepted, else gzip, else none; `q=0` refuses a coding. */
function chooseEncoding(header: string | undefined): Encoding | undefined {
  const accepted = new Set<string>();
  for (const part of (header ?? '').toLowerCase().split(',')) {
    const [coding = '', ...params] = part.split(';').map((s) => s.trim());
    const q = params.find((p) => p.startsWith('q='));
    if (coding !== '' && (q === undefined || Number(q.slice(2)) > 0)) accepted.add(coding);
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('x-gzip')) return 'gzip';
  return undefined;
}

/** Weak comparison (RFC 9110 §13.1.2): any representation of these bytes is still fresh. */
function matches(header: string | undefined, hash: string): boolean {
  if (!header) return false;
  return header.split(',').some((raw) => {
    const tag = raw.trim().replace(/^W\//, '');
    return tag === '*' || tag === `"${hash}"` || tag === `"${hash}-br"` || tag === `"${hash}-gzip"`;
  });
}

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Off the event loop (zlib's thread pool); once per process and encoding. */
function compress(bundle: Buffer, encoding: Encoding): Promise<Buffer> {
  if (encoding === 'gzip') return gzipped(bundle, { level: 9 });
  // Quality 11 takes seconds on 3.5 MB for a few percent; 9 takes well under one.
  return brotli(bundle, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: bundle.length } });
}
