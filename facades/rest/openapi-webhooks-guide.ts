import { ROTATION_OVERLAP_MS, SIGNAL_DATA, SIGNAL_TYPES, type AnyField, type AnySignalData } from '../../core/index.ts';
import { DEFAULT_TOLERANCE_SECONDS } from '../../consumer-kit/index.ts';
import { SIGNAL_KINDS, TIMEOUT, retrySchedule } from './openapi-webhooks.ts';

// The webhook guide of the reference (markdown in `info.description`): how to verify, deduplicate
// and order deliveries. Numbers come from the code that enforces them.

/** A kind's `data` fields, in order; a variant's own fields joined by "or": `` `place` or `online: true` ``. */
function dataFields(declaration: AnySignalData): string {
  const names = (Object.entries(declaration.fields) as [string, AnyField][]).map(([name, field]) => ({
    text: field.type.schema.const === undefined ? `\`${name}\`` : `\`${name}: ${JSON.stringify(field.type.schema.const)}\``,
    only: field.only,
  }));
  return names
    .map(({ text, only }, i) => (only !== undefined && names[i - 1]?.only !== undefined ? ` or ${text}` : `${i === 0 ? '' : ', '}${text}`))
    .join('');
}

const NODE_EXAMPLE = [
  '```js',
  "import { createServer } from 'node:http';",
  "import { verifyWebhook, WebhookVerificationError } from 'packline/consumer-kit';",
  '',
  'const secret = process.env.WEBHOOK_SECRET; // whsec_…, as shown once',
  '',
  'createServer(async (req, res) => {',
  '  const chunks = [];',
  '  for await (const chunk of req) chunks.push(chunk);',
  '  let event;',
  '  try {',
  '    // The raw bytes, before any JSON parsing.',
  '    event = verifyWebhook(Buffer.concat(chunks), req.headers, secret);',
  '  } catch (error) {',
  '    if (!(error instanceof WebhookVerificationError)) throw error;',
  '    return res.writeHead(401).end(error.reason);',
  '  }',
  '  // Your code: in one transaction, insert event.id under a unique',
  '  // constraint (stop if it is there) and apply the effect.',
  '  await handleOnce(event);',
  '  res.writeHead(204).end();',
  '}).listen(8787);',
  '```',
];

const RAW_RECIPE = [
  '```js',
  "import { createHmac, timingSafeEqual } from 'node:crypto';",
  '',
  '// rawBody: the Buffer received; header: "t=1795341600,v1=5257a8…";',
  '// secret: "whsec_…", as shown.',
  'function verify(rawBody, header, secret, now = Date.now() / 1000) {',
  "  const entries = header.split(',').map((entry) => entry.split('='));",
  "  const t = entries.find(([key]) => key === 't')?.[1];",
  '  if (!t || !/^\\d+$/.test(t)) return false;',
  `  const expected = createHmac('sha256', secret).update(\`\${t}.\`).update(rawBody).digest();`,
  '  const matches = entries',
  "    .filter(([key, value]) => key === 'v1' && /^[0-9a-f]{64}$/.test(value))",
  "    .some(([, value]) => timingSafeEqual(expected, Buffer.from(value, 'hex')));",
  `  return matches && Math.abs(now - Number(t)) <= ${DEFAULT_TOLERANCE_SECONDS};`,
  '}',
  '```',
];

/** The `## Webhooks` part of `info.description`. */
export function webhooksGuide(): string {
  const kinds = SIGNAL_TYPES.map((kind) => `| \`${kind}\` | ${SIGNAL_KINDS[kind].sentWhen} | ${dataFields(SIGNAL_DATA[kind])} |`);
  const overlapHours = ROTATION_OVERLAP_MS / 3_600_000;
  return [
    '## Webhooks',
    '',
    'Each webhook destination receives a `POST` for every signal of the kinds it chose. This reference documents the standard',
    'JSON format (section *Webhooks*); team-chat and collaboration-suite destinations receive a rendered message instead,',
    'unsigned. Signals carry public data only, and never the internal life of a pack.',
    '',
    '### Webhook event kinds',
    '',
    '| Kind | Sent when | `data` |',
    '|---|---|---|',
    ...kinds,
    '',
    'Each body is an envelope `{ id, type, version: "1", occurred_at, organization_id, data }`. `data` is a summary: read',
    '`GET /opportunities/{id}` or `GET /events/{id}` for the whole resource (a 404 means it is no longer public). New kinds',
    'may be added: answer 2xx to kinds your code does not know, and ignore them. A test signal, sent on request from the',
    "destination's settings, carries `X-Service-Test: 1` and sample data whose resource id starts with `test_`.",
    '',
    '### Webhook signatures',
    '',
    'The signing secret (`whsec_…`) is shown once, when the destination is created or its secret rotated. Every delivery carries',
    '`X-Service-Signature: t=<unix seconds>,v1=<hex>`:',
    '',
    '1. Keep the raw body bytes; verify before parsing JSON (a re-serialized body no longer matches).',
    '2. Split the header on `,`: one `t=` entry, one or more `v1=` entries (two during a rotation).',
    '3. Compute HMAC-SHA256 over `<t>.<raw body>`, keyed with the UTF-8 bytes of the whole secret string, including',
    '   `whsec_` (do not decode it), as lowercase hex.',
    '4. Compare it in constant time with each `v1` entry; accept when any matches.',
    `5. Refuse a timestamp more than ${DEFAULT_TOLERANCE_SECONDS / 60} minutes away from your clock (replays).`,
    '6. If any check fails, answer 401 and do nothing.',
    '',
    'With the consumer kit of the `packline` package:',
    '',
    ...NODE_EXAMPLE,
    '',
    'The same check by hand:',
    '',
    ...RAW_RECIPE,
    '',
    'The scheme is byte-compatible with Stripe-style verifiers (pass `X-Service-Signature` as the signature header). The',
    'Standard Webhooks headers `webhook-id`, `webhook-timestamp` and `webhook-signature` are sent too, so `standardwebhooks`',
    'libraries verify the same delivery with the same secret. After a rotation, the replaced secret keeps signing',
    `alongside the new one for ${overlapHours} hours, so you can switch without refusing a delivery.`,
    '',
    '### Webhook delivery',
    '',
    `Delivery is at least once. Answer 2xx within ${TIMEOUT}. Anything else is a failed attempt, retried: ${retrySchedule()}.`,
    'A longer `Retry-After` is honoured. Redirects are not followed (a 3xx is a failure). A 410 disables the destination.',
    '',
    'An event may therefore arrive more than once. `X-Service-Event-Id`, `Idempotency-Key`, `webhook-id` and the envelope `id`',
    '(`evt-<type>-<resource id>-v<version>`) are equal and stable across attempts: store the id under a uniqueness constraint',
    'in the same transaction as the effect, then answer 2xx. If the work is slow, record it durably and answer first.',
    '',
    '### Webhook ordering',
    '',
    'Per destination, deliveries go out one at a time in the order the changes happened: a failing delivery holds the',
    'later ones until it succeeds or its attempts run out. There is no order across destinations. A resource version',
    'only grows, so the `-v<version>` suffix also tells which of two signals about one resource is newer.',
  ].join('\n');
}
