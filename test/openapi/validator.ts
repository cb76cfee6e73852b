import type { IncomingHttpHeaders } from 'node:http';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// A CommonJS module: the default import is its `module.exports`, which carries `.default`.
const addFormats = addFormatsModule.default;

// Checks live HTTP answers against the OpenAPI 3.1 document the service serves. The whole
// document is registered as one schema, so the document's own `#/components/...` references
// resolve as written; each response schema is compiled by its JSON pointer inside it.

/** Keywords of the OpenAPI document around its schemas (ignored by the JSON Schema validator). */
const OPENAPI_KEYWORDS = [
  'openapi',
  'info',
  'servers',
  'security',
  'tags',
  'paths',
  'components',
  'webhooks',
  'jsonSchemaDialect',
  'externalDocs',
];

const DOC_ID = 'https://contract.test/openapi.json';

/** Headers every answer to an accepted key carries (docs/design.md#rate-limits-and-quotas). */
export const LIMIT_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-Monthly-Quota-Limit',
  'X-Monthly-Quota-Remaining',
  'X-Monthly-Quota-Reset',
] as const;

/** A local reference (`#/components/...`), which `resolve` follows. */
export interface Reference {
  $ref: string;
}

/** A JSON Schema of the document: the keywords these checks read, any other kept as JSON. */
export interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  $ref?: string;
  [keyword: string]: unknown;
}

export interface MediaType {
  schema?: Schema;
  example?: unknown;
}

export interface Header {
  description?: string;
  required?: boolean;
  schema?: Schema;
}

export interface Parameter extends Header {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
}

export interface ResponseObject {
  description: string;
  content?: Record<string, MediaType>;
  headers?: Record<string, Header | Reference>;
}

export interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  security?: Record<string, string[]>[];
  parameters?: (Parameter | Reference)[];
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, ResponseObject | Reference>;
}

/** The served document: read-only paths (GET only), components, and the webhooks it sends (POST). */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: { url: string; description?: string }[];
  paths: Record<string, { get: Operation }>;
  components: {
    schemas?: Record<string, Schema>;
    securitySchemes?: Record<string, { type: string; scheme?: string; [key: string]: unknown }>;
    [kind: string]: Record<string, unknown> | undefined;
  };
  webhooks?: Record<string, { post: Operation }>;
  [key: string]: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const isReference = (value: unknown): value is Reference => isRecord(value) && typeof value.$ref === 'string';

export interface Exchange {
  /** Path template in the document, such as `/opportunities/{id}`. */
  path: string;
  method?: string;
  response: Response;
  /** The body text, already read. */
  text: string;
  /** True when the service accepted the key before answering: documented limit headers are then due. */
  authenticated: boolean;
}

const escapePointer = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

export class ContractValidator {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();

  readonly doc: OpenApiDocument;

  constructor(doc: OpenApiDocument) {
    this.doc = doc;
    this.ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats(this.ajv);
    this.ajv.addVocabulary(OPENAPI_KEYWORDS);
    this.ajv.addSchema({ ...structuredClone(doc), $id: DOC_ID });
  }

  /**
   * Resolves a local `$ref` ('#/components/...') to [object, pointer]. What a reference points to is
   * the kind of object found in its place (a response, a parameter, a header, a schema).
   */
  resolve<T extends object>(value: T | Reference, pointer: string): [T, string] {
    let current: unknown = value;
    let at = pointer;
    for (let hops = 0; isReference(current); hops++) {
      if (hops > 10 || !current.$ref.startsWith('#/')) throw new Error(`Cannot resolve ${current.$ref}`);
      at = current.$ref;
      current = at
        .slice(1)
        .split('/')
        .slice(1)
        .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'))
        .reduce<unknown>((node, key) => (isRecord(node) ? node[key] : undefined), this.doc);
    }
    if (!isRecord(current)) throw new Error(`Nothing at ${at}`);
    return [current as T, at];
  }

  operation(path: string, method = 'get'): Operation | undefined {
    const item: Record<string, Operation> | undefined = this.doc.paths[path];
    return item?.[method];
  }

  /** Every problem with one exchange; empty when the answer matches the document. */
  check({ path, method = 'get', response, text, authenticated }: Exchange): string[] {
    const where = `${method.toUpperCase()} ${path} → ${response.status}`;
    // A refused method (405) is documented on the path's only operation, GET.
    const opMethod = this.operation(path, method) || response.status !== 405 ? method : 'get';
    const op = this.operation(path, opMethod);
    if (!op) return [`${where}: no such operation in the document`];
    const responsePointer = `#/paths/${escapePointer(path)}/${opMethod}/responses/${response.status}`;
    const declared = op.responses?.[String(response.status)];
    if (!declared) return [`${where}: status not documented (documented: ${Object.keys(op.responses ?? {}).join(', ')})`];
    const [resolved, pointer] = this.resolve(declared, responsePointer);
    const problems: string[] = [];

    // Content type and body.
    const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const content = resolved.content ?? {};
    if (resolved.content === undefined && text === '') {
      // A documented answer without a body (304 Not Modified).
    } else if (!Object.hasOwn(content, mediaType)) {
      problems.push(`${where}: content type '${mediaType}' not documented (documented: ${Object.keys(content).join(', ')})`);
    } else {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        problems.push(`${where}: body is not JSON: ${text.slice(0, 200)}`);
      }
      if (body !== undefined) {
        const validate = this.validator(`${pointer}/content/${escapePointer(mediaType)}/schema`);
        if (!validate(body)) {
          problems.push(`${where}: body does not match the schema: ${this.ajv.errorsText(validate.errors, { separator: '; ' })}`);
        }
      }
    }

    // Headers: documented ones are present (limit headers only when the key was accepted),
    // and their values match their schemas.
    for (const [name, value] of Object.entries(resolved.headers ?? {})) {
      const [header, headerPointer] = this.resolve(value, `${pointer}/headers/${escapePointer(name)}`);
      const actual = response.headers.get(name);
      const due = authenticated || !(LIMIT_HEADERS as readonly string[]).includes(name);
      if (actual === null) {
        if (due) problems.push(`${where}: documented header ${name} is missing`);
        continue;
      }
      const schema = header.schema ?? {};
      const parsed = schema.type === 'integer' && /^-?\d+$/.test(actual) ? Number(actual) : actual;
      const validate = this.validator(`${headerPointer}/schema`);
      if (!validate(parsed)) problems.push(`${where}: header ${name}: '${actual}' does not match its schema`);
    }
    return [...new Set(problems)];
  }

  /** Every problem with one webhook request (headers and raw body) against `webhooks.<kind>.post`. */
  checkWebhook(kind: string, headers: IncomingHttpHeaders, body: string): string[] {
    const where = `webhook ${kind}`;
    const op = this.doc.webhooks?.[kind]?.post;
    if (!op) return [`${where}: not in the document`];
    const pointer = `#/webhooks/${escapePointer(kind)}/post`;
    const problems: string[] = [];

    const mediaType = String(headers['content-type'] ?? '')
      .split(';')[0]!
      .trim()
      .toLowerCase();
    if (!Object.hasOwn(op.requestBody?.content ?? {}, mediaType)) {
      problems.push(`${where}: content type '${mediaType}' not documented`);
    } else {
      let envelope: unknown;
      try {
        envelope = JSON.parse(body);
      } catch {
        problems.push(`${where}: body is not JSON: ${body.slice(0, 200)}`);
      }
      const validate = this.validator(`${pointer}/requestBody/content/${escapePointer(mediaType)}/schema`);
      if (envelope !== undefined && !validate(envelope)) {
        problems.push(`${where}: body does not match the schema: ${this.ajv.errorsText(validate.errors, { separator: '; ' })}`);
      }
    }

    (op.parameters ?? []).forEach((declared, i) => {
      const [parameter, parameterPointer] = this.resolve(declared, `${pointer}/parameters/${i}`);
      if (parameter.in !== 'header') return;
      const actual = headers[String(parameter.name).toLowerCase()];
      if (typeof actual !== 'string') {
        if (parameter.required) problems.push(`${where}: documented header ${parameter.name} is missing`);
        return;
      }
      const parsed = parameter.schema?.type === 'integer' && /^-?\d+$/.test(actual) ? Number(actual) : actual;
      const validate = this.validator(`${parameterPointer}/schema`);
      if (!validate(parsed)) problems.push(`${where}: header ${parameter.name}: '${actual}' does not match its schema`);
    });
    return problems;
  }

  private validator(pointer: string): ValidateFunction {
    const cached = this.compiled.get(pointer);
    if (cached) return cached;
    const validate = this.ajv.compile({ $ref: `${DOC_ID}${pointer}` });
    this.compiled.set(pointer, validate);
    return validate;
  }
}
