export type ErrorCode = 'not_found' | 'invalid_input' | 'invalid_cursor' | 'invalid_state' | 'conflict' | 'plan_limit' | 'forbidden';

/** A failure the caller can act on. Facades map `code` to their own vocabulary. */
export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly field?: string;

  constructor(
    code: ErrorCode,
    message: string,
    /** The input field at fault, when there is one. */
    field?: string,
  ) {
    super(message);
    this.code = code;
    this.field = field;
    this.name = new.target.name;
  }
}

export const notFound = (what: string, id: string) => new DomainError('not_found', `No ${what} with id '${id}'`);
export const invalidInput = (field: string, message: string) => new DomainError('invalid_input', message, field);
