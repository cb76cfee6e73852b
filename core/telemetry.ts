/**
 * OpenTelemetry traces, off unless OTEL_EXPORTER_OTLP_ENDPOINT (or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set. Off, nothing here is loaded: the SDK is imported
 * when tracing starts, and the hooks test `tracingOn` (a plain boolean) or were never installed.
 *
 * Spans: one per HTTP request (REST, GraphQL, MCP, admin and the rest: route, status,
 * organization id), one per GraphQL operation, one per SQL statement, one per webhook attempt.
 * Attributes never carry a key, token, secret or free text: SQL is recorded with its placeholders,
 * never its parameters. A W3C `traceparent` header on a request makes its span a child.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type * as Api from '@opentelemetry/api';
import type { SpanProcessor } from '@opentelemetry/sdk-trace';

/** True while tracing runs. Hooks read it per call; read nothing else when it is false. */
export let tracingOn = false;

interface Active {
  api: typeof Api;
  tracer: Api.Tracer;
  requestKey: symbol;
  shutdown(): Promise<void>;
}
let active: Active | undefined;

export type SpanAttributes = Record<string, string | number | boolean | undefined>;

export interface TelemetryOptions {
  /** The environment (OTEL_* variables). @default process.env */
  env?: Record<string, string | undefined>;
  /** Processors to use instead of the OTLP/HTTP exporter (tests: an in-memory exporter). */
  spanProcessors?: SpanProcessor[];
  /** @default OTEL_SERVICE_NAME or 'packline' */
  serviceName?: string;
}

/** Whether the environment asks for traces. */
export function tracingRequested(env: Record<string, string | undefined> = process.env): boolean {
  return (
    Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim()) && env.OTEL_SDK_DISABLED !== 'true'
  );
}

/**
 * Starts tracing when asked (or when processors are given); resolves to whether it runs. The
 * OTLP/HTTP exporter reads the standard OTEL_EXPORTER_OTLP_* variables (endpoint, headers,
 * timeout) and sends JSON; spans are batched (OTEL_BSP_* variables).
 */
export async function startTelemetry(options: TelemetryOptions = {}): Promise<boolean> {
  if (active) return true;
  const env = options.env ?? process.env;
  if (!options.spanProcessors && !tracingRequested(env)) return false;
  const [api, sdk, core, resources, contexts] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/core'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/context-async-hooks'),
  ]);
  let processors = options.spanProcessors;
  if (!processors) {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    processors = [new sdk.BatchSpanProcessor({ exporter: new OTLPTraceExporter() })];
  }
  const provider = new sdk.TracerProvider({
    resource: resources.resourceFromAttributes({ 'service.name': options.serviceName ?? env.OTEL_SERVICE_NAME ?? 'packline' }),
    spanProcessors: processors,
  });
  // The global tracer provider, the AsyncLocalStorage context manager and the W3C propagators
  // (what the Node SDK's provider registered by itself before OpenTelemetry JS 3).
  api.trace.setGlobalTracerProvider(provider);
  api.context.setGlobalContextManager(new contexts.AsyncLocalStorageContextManager().enable());
  api.propagation.setGlobalPropagator(
    new core.CompositePropagator({ propagators: [new core.W3CTraceContextPropagator(), new core.W3CBaggagePropagator()] }),
  );
  active = {
    api,
    tracer: api.trace.getTracer('packline'),
    requestKey: api.createContextKey('packline.request') as symbol,
    shutdown: async () => {
      await provider.shutdown();
      api.trace.disable();
      api.context.disable();
      api.propagation.disable();
    },
  };
  tracingOn = true;
  return true;
}

/** Sends the spans still buffered and stops tracing. */
export async function stopTelemetry(): Promise<void> {
  const current = active;
  if (!current) return;
  active = undefined;
  tracingOn = false;
  await current.shutdown();
}

interface RequestLike extends IncomingMessage {}
interface TrackedLike extends ServerResponse {
  route: string;
}

/** The facade: the route family; on the member side, `mcp` for the connector and its OAuth endpoints, `web` for the account pages. */
function facadeOf(route: string, url: string): string {
  if (route.startsWith('rest/')) return 'rest';
  if (route === 'mcp-member') return /^\/(mcp|authorize|token|register|revoke|\.well-known)(\/|\?|$)/.test(url) ? 'mcp' : 'web';
  return route;
}

/**
 * Runs `handle` inside a server span for the request (a child of its `traceparent`, if any). The
 * span ends when the response finishes or the connection closes, named and labelled by the route
 * the facade matched (`res.route`): never the path with its ids, nor the query string.
 */
export function traceRequest<T>(req: RequestLike, res: TrackedLike, handle: () => T): T {
  const a = active;
  if (!a) return handle();
  const { api } = a;
  const parent = api.propagation.extract(api.ROOT_CONTEXT, req.headers);
  const span = a.tracer.startSpan(
    `${req.method ?? 'GET'}`,
    { kind: api.SpanKind.SERVER, attributes: { 'http.request.method': req.method ?? '' } },
    parent,
  );
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    const facade = facadeOf(res.route, req.url ?? '/');
    span.updateName(`${req.method ?? 'GET'} ${res.route}`);
    span.setAttributes({ 'http.route': res.route, 'packline.facade': facade, 'http.response.status_code': res.statusCode });
    if (res.statusCode >= 500 || !res.writableFinished) span.setStatus({ code: api.SpanStatusCode.ERROR });
    span.end();
  };
  res.once('finish', end);
  res.once('close', end);
  const context = api.trace.setSpan(parent, span).setValue(a.requestKey, span);
  return api.context.with(context, handle);
}

/** Adds attributes to the span of the request being served (e.g. the caller's organization id). */
export function setRequestAttributes(attributes: SpanAttributes): void {
  const a = active;
  if (!a) return;
  const span = a.api.context.active().getValue(a.requestKey) as Api.Span | undefined;
  span?.setAttributes(defined(attributes));
}

/** Runs `work` inside a child span of the current one; the span records a thrown error. */
export function withSpan<T>(name: string, attributes: SpanAttributes, work: () => Promise<T>): Promise<T> {
  const a = active;
  if (!a) return work();
  return a.tracer.startActiveSpan(name, { attributes: defined(attributes) }, async (span) => {
    try {
      return await work();
    } catch (error) {
      span.setStatus({ code: a.api.SpanStatusCode.ERROR, message: (error as Error)?.name });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Records a span for something already done (a webhook attempt): from `start`, `durationMs` long. */
export function recordSpan(name: string, attributes: SpanAttributes, start: Date, durationMs: number, failed = false): void {
  const a = active;
  if (!a) return;
  const span = a.tracer.startSpan(
    name,
    { kind: a.api.SpanKind.CLIENT, startTime: start, attributes: defined(attributes) },
    a.api.ROOT_CONTEXT,
  );
  if (failed) span.setStatus({ code: a.api.SpanStatusCode.ERROR });
  span.end(new Date(start.getTime() + Math.max(0, durationMs)));
}

/** A SQL statement's span attributes: its text with placeholders (never parameters). */
export function sqlAttributes(system: 'sqlite' | 'postgresql', statement: string, name?: string): SpanAttributes {
  const text = statement.length > 2_000 ? `${statement.slice(0, 2_000)}…` : statement;
  const operation = /^\s*(\w+)/.exec(statement)?.[1]?.toUpperCase();
  return { 'db.system': system, 'db.query.text': text, 'db.operation.name': operation, 'db.query.name': name };
}

function defined(attributes: SpanAttributes): Api.Attributes {
  const out: Api.Attributes = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) out[key] = value;
  return out;
}
