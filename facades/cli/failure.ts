import { ConfigError, DomainError, type ErrorCode } from '../../core/index.ts';
import { CliError } from './args.ts';
import { EXIT_CODES } from './usage.js';

/** How the CLI reports a failure: its exit code, the code --json names, the message, the flag at fault. */
export interface Failure {
  exitCode: number;
  code: string;
  message: string;
  /** `--expires-at`, when the input field at fault is known. */
  flag?: string;
}

/** Each domain error code's exit code, once (the compiler checks every code has one). */
const EXIT_BY_DOMAIN_CODE: Record<ErrorCode, number> = {
  invalid_input: EXIT_CODES.usage.code,
  invalid_cursor: EXIT_CODES.usage.code,
  not_found: EXIT_CODES.notFound.code,
  forbidden: EXIT_CODES.refused.code,
  invalid_state: EXIT_CODES.refused.code,
  conflict: EXIT_CODES.conflict.code,
  plan_limit: EXIT_CODES.conflict.code,
};

/** Any error a command throws, as the person at the keyboard (or a script) is told of it. */
export function failureOf(error: unknown): Failure {
  if (error instanceof DomainError) {
    return {
      exitCode: EXIT_BY_DOMAIN_CODE[error.code],
      code: error.code,
      message: error.message,
      ...(error.field ? { flag: `--${error.field.replace(/_/g, '-')}` } : {}),
    };
  }
  if (error instanceof CliError) return { exitCode: EXIT_CODES.usage.code, code: 'usage', message: error.message };
  if (error instanceof ConfigError) return { exitCode: EXIT_CODES.usage.code, code: 'invalid_configuration', message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  return { exitCode: EXIT_CODES.unexpected.code, code: 'unexpected', message };
}
