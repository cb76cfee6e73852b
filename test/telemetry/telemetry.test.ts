// OpenTelemetry: spans for REST, GraphQL, MCP and admin requests, GraphQL operations, SQL
// statements and webhook attempts, first through the SDK's in-memory path (in process), then as
// OTLP/HTTP JSON sent by a real `packline start` to a receiver this test runs.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteHandle } from '../../core/db/orm.ts';
import { ScriptExecutor } from '../../core/db/scripts.ts';
import { startTelemetry, stopTelemetry, tracingOn, tracingRequested } from '../../core/telemetry.ts';
import { scriptNamed } from '../../core/webhooks/delivery-scripts.ts';
import { spawnCli, type CliProcess } from '../cli/run-cli.ts';
import { call, connectPublic } from '../mcp/public-client.ts';
import { freshDatabaseUrl } from '../support/database.ts';
import { Receiver } from '../support/receiver.ts';
import { graphqlAt, INTERNAL_TOKEN, startStack, type Stack } from '../support/stack.ts';
import { createDestination, createOrganization, publishNeed, WEBHOOK_TEST_ENV } from '../support/webhooks.ts';

const TRACE_ID = randomBytes(16).toString('hex');
const PARENT_SPAN_ID = randomBytes(8).toString('hex');
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_SPAN_ID}-01`;
const NEED_TEXT = 'Confidential-need-text energy audit of a community centre';

/** Every ended span, with a way to await one that matches. */
class Collector {
  readonly exporter = new InMemorySpanExporter();
  private readonly waiters = new Set<() => void>();
  readonly processor: SpanProcessor;

  constructor() {
    const simple = new SimpleSpanProcessor({ exporter: this.exporter });
    this.processor = {
      onStart: (span, context) => simple.onStart(span, context),
      onEnd: (span) => {
        simple.onEnd(span);
        for (const waiter of this.waiters) waiter();
      },
      forceFlush: () => simple.forceFlush(),
      shutdown: () => simple.shutdown(),
    };
  }

  get spans(): ReadableSpan[] {
    return this.exporter.getFinishedSpans();
  }

  waitFor(predicate: (span: ReadableSpan) => boolean, what: string, timeoutMs = 15_000): Promise<ReadableSpan> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.spans.find(predicate);
        if (!found) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(found);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`no span ${what} within ${timeoutMs} ms; spans: ${this.spans.map((s) => s.name).join(', ')}`));
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }
}

/** Every attribute value of every span, as text: what must never hold a secret. */
const allAttributeText = (spans: ReadableSpan[]) => spans.flatMap((s) => Object.values(s.attributes).map(String)).join('\n');

describe('tracing is off by default', () => {
  it('needs OTEL_EXPORTER_OTLP_ENDPOINT (or the traces endpoint), and does not start without it', async () => {
    expect(tracingRequested({})).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ' })).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' })).toBe(false);
    expect(await startTelemetry({ env: {} })).toBe(false);
    expect(tracingOn).toBe(false);
  });
});

describe('spans in process (SDK in-memory exporter)', () => {
  const collector = new Collector();
  let stack: Stack;
  const receiver = new Receiver();

  beforeAll(async () => {
    expect(await startTelemetry({ spanProcessors: [collector.processor] })).toBe(true);
    await receiver.start();
    stack = await startStack({ env: WEBHOOK_TEST_ENV });
  });
  afterAll(async () => {
    await stack?.close();
    await receiver.close();
    await stopTelemetry();
  });

  it('a REST request: a server span in the caller’s trace (traceparent), with route, status and organization; its operation and SQL inside', async () => {
    const res = await stack.get('/organization', { headers: { traceparent: TRACEPARENT } });
    expect(res.status).toBe(200);
    const request = await collector.waitFor(
      (s) => s.spanContext().traceId === TRACE_ID && s.attributes['packline.facade'] === 'rest',
      'for the REST request',
    );
    expect(request.parentSpanContext?.spanId).toBe(PARENT_SPAN_ID);
    expect(request.name).toMatch(/^GET rest\//);
    expect(request.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.response.status_code': 200,
      'packline.organization_id': 'atelier-nord',
      'packline.actor': 'apiKey',
    });
    expect(String(request.attributes['http.route'])).toMatch(/^rest\//);
    const inTrace = collector.spans.filter((s) => s.spanContext().traceId === TRACE_ID);
    const operation = inTrace.find((s) => s.name.startsWith('graphql '));
    expect(operation?.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(operation?.attributes['packline.organization_id']).toBe('atelier-nord');
    const sql = inTrace.filter((s) => s.name.startsWith('SQL'));
    expect(sql.length).toBeGreaterThan(0);
    for (const statement of sql) {
      expect(statement.attributes['db.system']).toBe(stack.config.databaseUrl ? 'postgresql' : 'sqlite');
      expect(String(statement.attributes['db.query.text'] ?? '')).not.toContain('atelier-nord');
    }
  });

  it('a REST request by id answered from a prepared statement has its SQL span, with placeholders only', async () => {
    const list = (await (await stack.get('/opportunities?limit=1')).json()) as { data: { id: string }[] };
    const id = list.data[0]!.id;
    const traceId = randomBytes(16).toString('hex');
    const res = await stack.get(`/opportunities/${id}`, { headers: { traceparent: `00-${traceId}-${PARENT_SPAN_ID}-01` } });
    expect(res.status).toBe(200);
    const request = await collector.waitFor(
      (s) => s.spanContext().traceId === traceId && s.attributes['packline.facade'] === 'rest',
      'for the by-id request',
    );
    expect(request.attributes['http.route']).not.toContain(id);
    const sql = collector.spans.filter((s) => s.spanContext().traceId === traceId && s.name.startsWith('SQL'));
    expect(sql.length).toBeGreaterThan(0);
    expect(sql.map((s) => String(s.attributes['db.query.text']))).not.toEqual(expect.arrayContaining([expect.stringContaining(id)]));
  });

  it('a GraphQL request: the request span and the operation span, by name and type', async () => {
    await stack.graphql('query TelemetryProbe { organization(id: "atelier-nord") { id } }');
    const operation = await collector.waitFor((s) => s.name === 'graphql query TelemetryProbe', 'for the GraphQL operation');
    expect(operation.attributes).toMatchObject({ 'graphql.operation.name': 'TelemetryProbe', 'graphql.operation.type': 'query' });
    const request = collector.spans.find((s) => s.spanContext().spanId === operation.parentSpanContext?.spanId);
    expect(request?.attributes).toMatchObject({ 'packline.facade': 'graphql', 'http.route': 'graphql', 'http.response.status_code': 200 });
  });

  it('an MCP request: a span per call, and the need text it carried is in no attribute', async () => {
    const client = await connectPublic(stack);
    try {
      const result = await call(client, 'compose_team', { need_text: NEED_TEXT, remote: true });
      expect(result.isError ?? false).toBe(false);
    } finally {
      await client.close();
    }
    const requests = () =>
      collector.spans.filter((s) => s.attributes['packline.facade'] === 'mcp' && s.attributes['http.request.method'] === 'POST');
    // The tools/call request: the one whose span holds a GraphQL operation.
    const operation = await collector.waitFor(
      (s) => s.name.startsWith('graphql ') && requests().some((r) => r.spanContext().spanId === s.parentSpanContext?.spanId),
      'for the operation of an MCP call',
    );
    const mcp = requests().find((r) => r.spanContext().spanId === operation.parentSpanContext?.spanId)!;
    expect(mcp.attributes).toMatchObject({ 'http.route': 'mcp', 'http.response.status_code': 200, 'packline.actor': 'public' });
  });

  it('an admin request: a span with its status', async () => {
    const res = await fetch(`${stack.origin}/admin`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    const admin = await collector.waitFor((s) => s.attributes['packline.facade'] === 'admin', 'for the admin request');
    expect(admin.attributes).toMatchObject({ 'http.route': 'admin', 'http.response.status_code': 303 });
  });

  it('a webhook attempt: destination, delivery, attempt number and the receiver’s status', async () => {
    const organizationId = await createOrganization(stack, 'traced-co');
    const destination = await createDestination(stack, {
      organizationId,
      url: receiver.url('/traced'),
      kinds: ['need.created'],
      scope: 'own',
    });
    await publishNeed(stack, organizationId);
    await receiver.waitFor((received) => received.some((r) => r.path === '/traced'));
    const attempt = await collector.waitFor(
      (s) => s.name === 'webhook attempt' && s.attributes['packline.destination_id'] === destination.id,
      'for the webhook attempt',
    );
    expect(attempt.attributes).toMatchObject({
      'packline.attempt': 1,
      'http.response.status_code': 200,
      'packline.attempt.outcome': 'succeeded',
    });
    expect(String(attempt.attributes['packline.delivery_id'])).not.toBe('');
  });

  it('the idle dispatcher’s looks at the outbox and the lanes’ queues (probes, many a second) make no span', async () => {
    const { db } = stack.app.core;
    const scripts = new ScriptExecutor(db, sqliteHandle(db) ? 'sqlite' : 'postgresql');
    const before = collector.spans.length;
    await scripts.run('outboxWaiting', scriptNamed('outboxWaiting'), {});
    await scripts.run('destinationsWithWork', scriptNamed('destinationsWithWork'), {});
    const probes = collector.spans.slice(before);
    // The same executor traces a script that is not a probe: the looks above were not untraced by accident.
    await scripts.run('destinationStamps', scriptNamed('destinationStamps'), { ids: ['no-such-destination'] });
    const after = collector.spans.slice(before + probes.length).map((span) => span.name);
    expect(probes).toEqual([]);
    expect(after).toContain('SQL destinationStamps');
  });

  it('no span carries a key, the internal token or need text', () => {
    const text = allAttributeText(collector.spans);
    expect(collector.spans.length).toBeGreaterThan(10);
    expect(text).not.toContain(stack.demoKey);
    expect(text).not.toContain(INTERNAL_TOKEN);
    expect(text).not.toContain('Confidential-need-text');
    expect(text).not.toContain('Data engineer for a river survey');
  });
});

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: string | number; boolValue?: boolean };
}
interface OtlpSpan {
  traceId: string;
  parentSpanId?: string;
  name: string;
  attributes: OtlpAttribute[];
}

/** A real OTLP/HTTP receiver: accepts POST /v1/traces (JSON) and keeps every span. */
class OtlpReceiver {
  readonly spans: OtlpSpan[] = [];
  readonly contentTypes: string[] = [];
  private readonly waiters = new Set<() => void>();
  private server: Server | undefined;
  origin = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (req.method !== 'POST' || req.url !== '/v1/traces') {
          res.writeHead(404).end();
          return;
        }
        this.contentTypes.push(String(req.headers['content-type']));
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
        for (const resource of body.resourceSpans) for (const scope of resource.scopeSpans) this.spans.push(...scope.spans);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        for (const waiter of this.waiters) waiter();
      });
    });
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  waitFor(predicate: (span: OtlpSpan) => boolean, what: string, timeoutMs = 30_000): Promise<OtlpSpan> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.spans.find(predicate);
        if (!found) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(found);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`the OTLP receiver got no span ${what} within ${timeoutMs} ms; got: ${this.spans.map((s) => s.name).join(', ')}`));
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? value?.boolValue : Number(value.intValue));
};

describe('packline start with OTEL_EXPORTER_OTLP_ENDPOINT: OTLP/HTTP to a real receiver', () => {
  const otlp = new OtlpReceiver();
  let server: CliProcess | undefined;
  let dataDir: string;

  beforeAll(async () => {
    await otlp.start();
    dataDir = mkdtempSync(join(tmpdir(), 'packline-otlp-'));
  });
  afterAll(async () => {
    server?.kill();
    await otlp.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('sends the spans of a REST request, in the caller’s trace, and the last ones at shutdown', async () => {
    // SQLite in its own directory whatever the run: this is about the exporter, not the database.
    server = spawnCli(['start'], {
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      INTERNAL_API_TOKEN: INTERNAL_TOKEN,
      REDIS_URL: undefined,
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.origin,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_SERVICE_NAME: 'packline-otlp-test',
    });
    const [, origin] = await server.waitForOutput(/Try: curl -H "Authorization: Bearer [^"]+" (http:\/\/[^/]+)\/api\/v1/);
    const key = (await server.waitForOutput(/Demo API key\s+(\S+)/))[1]!;
    const res = await fetch(`${origin}/api/v1/organization`, { headers: { authorization: `Bearer ${key}`, traceparent: TRACEPARENT } });
    expect(res.status).toBe(200);
    const request = await otlp.waitFor((s) => s.traceId === TRACE_ID && attribute(s, 'packline.facade') === 'rest', 'for the REST request');
    expect(request.parentSpanId).toBe(PARENT_SPAN_ID);
    expect(attribute(request, 'http.response.status_code')).toBe(200);
    expect(attribute(request, 'packline.organization_id')).toBe('atelier-nord');
    expect(otlp.contentTypes[0]).toMatch(/^application\/json/);
    await otlp.waitFor((s) => s.traceId === TRACE_ID && s.name.startsWith('SQL'), 'for a SQL statement of that request');

    // A span still buffered when SIGTERM arrives is sent before the process exits.
    await fetch(`${origin}/healthz`, { headers: { traceparent: `00-${TRACE_ID}-${PARENT_SPAN_ID}-01` } });
    expect(await server.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    await otlp.waitFor((s) => s.traceId === TRACE_ID && attribute(s, 'http.route') === 'ops', 'for the request just before shutdown');
    expect(JSON.stringify(otlp.spans)).not.toContain(key);
  });

  it('sends the spans of the dispatcher thread and of the scripts it runs (on SQLite, from its SQLite thread), each thread through its own tracer', async () => {
    const deliveries = new Receiver();
    await deliveries.start();
    const threadDir = mkdtempSync(join(tmpdir(), 'packline-otlp-thread-'));
    // On PostgreSQL when the suite runs there: the thread then runs the scripts itself, on a pool of its own.
    const database = await freshDatabaseUrl();
    try {
      // Role `all`, the default: with traces on, the deliveries still run on the dispatcher's own thread.
      server = spawnCli(['start', '--no-demo'], {
        ...WEBHOOK_TEST_ENV,
        ...(database.url ? { DATABASE_URL: database.url } : {}),
        DATA_DIR: threadDir,
        PORT: '0',
        HOST: '127.0.0.1',
        INTERNAL_API_TOKEN: INTERNAL_TOKEN,
        REDIS_URL: undefined,
        LOG_LEVEL: 'debug',
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp.origin,
        OTEL_BSP_SCHEDULE_DELAY: '100',
        OTEL_SERVICE_NAME: 'packline-otlp-test',
      });
      const [, host, port] = await server.waitForOutput(/Packline is listening on (\S+):(\d+)/);
      const graphql = { graphql: graphqlAt(`http://${host}:${port}`) };
      const organizationId = await createOrganization(graphql, 'thread-traced');
      const destination = await createDestination(graphql, { organizationId, url: deliveries.url('/thread-traced'), scope: 'own' });
      await publishNeed(graphql, organizationId);
      await deliveries.waitFor((received) => received.some((r) => r.path === '/thread-traced'));
      await server.waitForOutput(/webhook dispatcher thread started/);

      const attempt = await otlp.waitFor(
        (s) => s.name === 'webhook attempt' && attribute(s, 'packline.destination_id') === destination.id,
        'for the attempt made on the dispatcher thread',
      );
      expect(attribute(attempt, 'http.response.status_code')).toBe(200);
      expect(attribute(attempt, 'packline.attempt.outcome')).toBe('succeeded');
      // The fan-out runs on the SQLite thread the dispatcher thread starts (on PostgreSQL, on the thread itself).
      const fanOut = await otlp.waitFor((s) => s.name === 'SQL fanOut', 'for the fan-out script');
      expect(attribute(fanOut, 'db.system')).toBe(database.url ? 'postgresql' : 'sqlite');
      expect(await server.stop('SIGTERM')).toEqual({ code: 0, signal: null });
      expect(JSON.stringify(otlp.spans)).not.toContain(INTERNAL_TOKEN);
    } finally {
      server?.kill();
      await deliveries.close();
      await database.drop();
      rmSync(threadDir, { recursive: true, force: true });
    }
  });
});
