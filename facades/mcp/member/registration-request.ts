import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { OAuthClientMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';

// `/register` (RFC 7591) answers programs in JSON, but its error_description is read by the
// people writing them: a sentence naming the field, never a validation library's dump.

/** Why a registration is refused, as RFC 7591 §3.2.2 words it. */
export interface RegistrationProblem {
  error: 'invalid_redirect_uri' | 'invalid_client_metadata';
  description: string;
}

const REDIRECT_RULE = 'redirect_uris must list at least one https address (http only on localhost, or an app scheme)';

const KINDS: Record<string, string> = {
  string: 'text',
  array: 'a list',
  object: 'an object',
  number: 'a number',
  boolean: 'true or false',
};

/** The first thing wrong with a registration's client metadata, in a sentence; undefined when the SDK will accept it. */
export function registrationProblem(body: unknown): RegistrationProblem | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { error: 'invalid_client_metadata', description: 'The body must be a JSON object of client metadata (RFC 7591)' };
  const uris = (body as Record<string, unknown>).redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0) return { error: 'invalid_redirect_uri', description: REDIRECT_RULE };
  const parsed = OAuthClientMetadataSchema.safeParse(body);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0]!;
  const [field, index] = issue.path;
  const name = typeof index === 'number' ? `${String(field)}[${index}]` : String(field);
  if (field === 'redirect_uris')
    return { error: 'invalid_redirect_uri', description: `${name} is not an absolute address; ${REDIRECT_RULE}` };
  const expected = issue.code === 'invalid_type' ? KINDS[String(issue.expected)] : undefined;
  const description = expected
    ? `${name} must be ${expected}`
    : field?.toString().endsWith('_uri')
      ? `${name} must be an absolute https address`
      : `${name} has a value Packline cannot use`;
  return { error: 'invalid_client_metadata', description };
}

/** Checks `/register`'s body before the SDK's handler, which would answer a refusal with the dump. */
export function registrationChecks(): Router {
  const router = express.Router();
  router.post('/', express.json(), (req: Request, res: Response, next: NextFunction) => {
    const problem = registrationProblem(req.body);
    if (!problem) return next();
    res.set('access-control-allow-origin', '*').set('cache-control', 'no-store');
    res.status(400).json({ error: problem.error, error_description: problem.description });
  });
  return router;
}

/** A request body the parser refused, in a sentence (body-parser's `type`). */
export function unreadableBody(error: unknown): string {
  const type = (error as { type?: unknown } | null)?.type;
  if (type === 'entity.parse.failed') return 'The request body is not valid JSON';
  if (type === 'entity.too.large') return 'The request body is too large';
  if (type === 'charset.unsupported' || type === 'encoding.unsupported') return 'The request body’s encoding is not supported';
  return 'The request body could not be read';
}
