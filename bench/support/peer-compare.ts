// The endpoints Packline's REST facade and the SOFA peer both serve, and a check that the two
// answer the same data before anything is measured.
import { isDeepStrictEqual } from 'node:util';

export type EndpointKind = 'organization' | 'list' | 'one';

export interface PeerEndpoint {
  /** Packline's route, as its OpenAPI document names it. */
  name: string;
  kind: EndpointKind;
  /** Path and query on Packline. */
  packline: string;
  /** Path and query on the peer. */
  peer: string;
}

export const LIST_LIMIT = 20;

/** The five read endpoints on both sides, lists at `limit=20` (`first=20` for SOFA). */
export function peerEndpoints({
  organizationId,
  opportunityId,
  eventId,
}: {
  organizationId: string;
  opportunityId: string;
  eventId: string;
}): PeerEndpoint[] {
  const id = encodeURIComponent;
  return [
    {
      name: 'GET /organization',
      kind: 'organization',
      packline: '/api/v1/organization',
      peer: `/api/v1/organization/${id(organizationId)}`,
    },
    {
      name: `GET /opportunities?limit=${LIST_LIMIT}`,
      kind: 'list',
      packline: `/api/v1/opportunities?limit=${LIST_LIMIT}`,
      peer: `/api/v1/opportunities?first=${LIST_LIMIT}`,
    },
    {
      name: 'GET /opportunities/{id}',
      kind: 'one',
      packline: `/api/v1/opportunities/${id(opportunityId)}`,
      peer: `/api/v1/opportunities/${id(opportunityId)}`,
    },
    {
      name: `GET /events?limit=${LIST_LIMIT}`,
      kind: 'list',
      packline: `/api/v1/events?limit=${LIST_LIMIT}`,
      peer: `/api/v1/events?first=${LIST_LIMIT}`,
    },
    { name: 'GET /events/{id}', kind: 'one', packline: `/api/v1/events/${id(eventId)}`, peer: `/api/v1/events/${id(eventId)}` },
  ];
}

/** The peer's path of `endpoint` for a key of `organizationId` (the organization route names it). */
export function peerPathFor(endpoint: PeerEndpoint, organizationId: string): string {
  return endpoint.kind === 'organization' ? `/api/v1/organization/${encodeURIComponent(organizationId)}` : endpoint.peer;
}

/** How the two answers differ in form, whatever their data. */
export const SHAPE_NOTE =
  'Shapes differ by design: Packline answers its REST contract (lists as { data, meta.next_cursor }, snake_case keys), ' +
  'SOFA the GraphQL result of the root field (lists as { nodes, pageInfo }, camelCase keys); ' +
  'the data are compared after renaming the keys and unwrapping the connection.';

/** camelCase keys to snake_case, recursively. */
export function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), snakeKeys(v)]));
}

interface PeerConnection {
  nodes: unknown[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

/** A SOFA answer in the REST facade's representation. */
export function restView(kind: EndpointKind, peerBody: unknown): unknown {
  if (kind !== 'list') return snakeKeys(peerBody);
  const connection = peerBody as PeerConnection;
  return {
    data: connection.nodes.map(snakeKeys),
    meta: { next_cursor: connection.pageInfo.hasNextPage ? connection.pageInfo.endCursor : null },
  };
}

/** Ids of a REST answer: every item of a list, or the one object. */
export function idsOf(body: unknown): string[] {
  const record = body as { id?: string; data?: { id: string }[] } | null;
  if (Array.isArray(record?.data)) return record.data.map((item) => item.id);
  return typeof record?.id === 'string' ? [record.id] : [];
}

/** Up to `max` paths where `a` and `b` differ. */
export function differences(a: unknown, b: unknown, path = '', max = 5): string[] {
  if (isDeepStrictEqual(a, b)) return [];
  const bothObjects = a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b);
  if (!bothObjects) return [`${path || '(root)'}: ${JSON.stringify(a)?.slice(0, 80)} ≠ ${JSON.stringify(b)?.slice(0, 80)}`];
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const out: string[] = [];
  for (const key of new Set([...Object.keys(left), ...Object.keys(right)])) {
    if (out.length >= max) break;
    const where = Array.isArray(a) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
    if (!(key in left)) out.push(`${where}: only in the peer's answer`);
    else if (!(key in right)) out.push(`${where}: only in Packline's answer`);
    else out.push(...differences(left[key], right[key], where, max - out.length));
  }
  return out.slice(0, max);
}

export interface Comparison {
  endpoint: string;
  packlineStatus: number;
  peerStatus: number;
  packlineBytes: number;
  peerBytes: number;
  packlineIds: string[];
  peerIds: string[];
  sameIds: boolean;
  /** Every value equal once the peer's answer is put in the REST representation. */
  sameData: boolean;
  /** Where the data differ (at most five paths). */
  differences: string[];
}

async function get(url: string, key: string): Promise<{ status: number; bytes: number; body: unknown }> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // kept as text: the comparison reports it
  }
  return { status: res.status, bytes: Buffer.byteLength(text), body };
}

/** GETs every endpoint on both sides with the same key and compares ids and data. */
export async function compareAnswers(
  packlineOrigin: string,
  peerOrigin: string,
  key: string,
  endpoints: PeerEndpoint[],
): Promise<Comparison[]> {
  const out: Comparison[] = [];
  for (const endpoint of endpoints) {
    const packline = await get(packlineOrigin + endpoint.packline, key);
    const peer = await get(peerOrigin + endpoint.peer, key);
    const ok = packline.status === 200 && peer.status === 200;
    const view = ok ? restView(endpoint.kind, peer.body) : peer.body;
    const packlineIds = idsOf(packline.body);
    const peerIds = ok ? idsOf(view) : [];
    const diff = ok
      ? differences(packline.body, view)
      : [`status ${packline.status} on Packline, ${peer.status} on the peer: ${JSON.stringify(peer.body).slice(0, 200)}`];
    out.push({
      endpoint: endpoint.name,
      packlineStatus: packline.status,
      peerStatus: peer.status,
      packlineBytes: packline.bytes,
      peerBytes: peer.bytes,
      packlineIds,
      peerIds,
      sameIds: ok && packlineIds.length > 0 && isDeepStrictEqual(packlineIds, peerIds),
      sameData: ok && diff.length === 0,
      differences: diff,
    });
  }
  return out;
}
