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

export interface OpenApiDocument {
  openapi: string;
  info: Record<string, any>;
  paths: Record<string, Record<string, any>>;
  components: Record<string, Record<string, any>>;
  [key: string]: unknown;
}

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

  /** Resolves a local `$ref` ('#/components/...') to [object, pointer]. */
  resolve(value: any, pointer: string): [any, string] {
    let current = value;
    let at = pointer;
    for (let hops = 0; current && typeof current.$ref === 'string'; hops++) {
      if (hops > 10 || !current.$ref.startsWith('#/')) throw new Error(`Cannot resolve ${current.$ref}`);
      at = current.$ref;
      current = at
        .slice(1)
        .split('/')
        .slice(1)
        .map((s: string) => s.replaceAll('~1', '/').replaceAll('~0', '~'))
        .reduce((node: any, key: string) => node?.[key], this.doc);
    }
    return [current, at];
  }

  operation(path: string, method = 'get') {
    return this.doc.paths[path]?.[method];
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
    const op = (this.doc.webhooks as Record<string, { post?: any }> | undefined)?.[kind]?.post;
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

    (op.parameters ?? []).forEach((declared: unknown, i: number) => {
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
