import type { Request } from 'express';
import type { DomainError } from '../../core/index.ts';
import { html, type Html } from './html.ts';

// A form's state between a refusal and its page answered again: what was typed, each field's
// error, and the markup that ties errors to fields for assistive technology.

/** The status of a page answering a domain failure the person can act on, by error code. */
export const FAILURE_STATUS: Record<string, number> = {
  not_found: 404,
  invalid_input: 400,
  invalid_cursor: 400,
  invalid_state: 409,
  plan_limit: 403,
  forbidden: 403,
  conflict: 409,
};

/** Shown on a form refilled after a sign-in. */
export const RESUMED =
  'Your session ended; you signed in again to continue. What you typed is kept below: check it and send the form again.';

/** A form answered again after a refusal: what was typed (never a secret) and the error of each field. */
export interface FormState {
  values: Record<string, string | string[]>;
  /** By form field name; `_form` for an error that names no field. */
  errors: Record<string, string>;
  /** The status of the page answering the refused form. */
  status?: number;
  /** Refilled after the session ended mid-form and the member signed in again. */
  resumed?: boolean;
}

export const freshForm = (values: Record<string, string | string[]> = {}): FormState => ({ values, errors: {} });

/** The form's fields as sent (strings and repeated checkboxes), for answering it refilled. */
export function sentValues(req: Request, names: readonly string[]): Record<string, string | string[]> {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const values: Record<string, string | string[]> = {};
  for (const name of names) {
    const value = body[name];
    if (typeof value === 'string') values[name] = value.slice(0, 4_000);
    else if (Array.isArray(value)) values[name] = value.filter((v): v is string => typeof v === 'string');
  }
  return values;
}

/**
 * The state of a form refused by `error`: beside its field (the service's name mapped to the
 * form's by `fieldNames`) when the form has it, otherwise at the top. An `invalid_input` error
 * on a field `plain` words for a person shows that sentence rather than the service's message,
 * which is written for API callers. Defects go to the error handler.
 */
export function refused(
  values: Record<string, string | string[]>,
  error: DomainError,
  fields: readonly string[],
  fieldNames: Record<string, string> = {},
  plain: Record<string, string> = {},
): FormState {
  if (FAILURE_STATUS[error.code] === undefined) throw error;
  const named = error.field ? (fieldNames[error.field] ?? error.field) : '_form';
  const at = fields.includes(named) ? named : '_form';
  const message = error.code === 'invalid_input' && plain[at] ? plain[at] : error.message;
  return { values, errors: { [at]: message }, status: FAILURE_STATUS[error.code] };
}

/** What a form's own check found, by field, each worded for a person; empty when the form may go on. */
export type FieldErrors = Record<string, string>;

/**
 * A form's fields checked together before its operation runs, so that every mistake is shown at
 * once (the service stops at its first). `checks` maps a field to the sentence shown when its
 * value is wrong, or to nothing.
 */
export function checkFields(
  values: Record<string, string | string[]>,
  checks: Record<string, (value: string | string[] | undefined) => string | undefined>,
): FieldErrors {
  const errors: FieldErrors = {};
  for (const [name, check] of Object.entries(checks)) {
    const problem = check(values[name]);
    if (problem) errors[name] = problem;
  }
  return errors;
}

/** The state of a form its own check refused: every error at once, 400. */
export const refusedAll = (values: Record<string, string | string[]>, errors: FieldErrors): FormState => ({ values, errors, status: 400 });

/** Control characters other than tab and line breaks: never part of what a person types in a field. */
export const hasControl = (value: string) => /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(value);

/** The one text of a field (a repeated field reads as its first value). */
export const textOf = (value: string | string[] | undefined): string => (typeof value === 'string' ? value : (value?.[0] ?? ''));

/** The status of a page answering a refused form. */
export const refusedStatus = (state: FormState) => state.status ?? (Object.keys(state.errors).length ? 400 : 200);

export const fieldId = (name: string) => `f-${name}`;
const errorId = (name: string) => `f-${name}-error`;

/** The attributes of a field: its id, and when refused `aria-invalid` and the error it is described by (beside `help`). */
export function fieldAttrs(state: FormState, name: string, help?: string): Html {
  const error = state.errors[name];
  const described = [error ? errorId(name) : '', help ?? ''].filter(Boolean).join(' ');
  return html` id="${fieldId(name)}"${error ? html` aria-invalid="true"` : ''}${described ? html` aria-describedby="${described}"` : ''}`;
}

/** The error of a field, beside it. */
export function fieldError(state: FormState, name: string): Html | '' {
  const error = state.errors[name];
  return error ? html`<p id="${errorId(name)}" class="field-error"><span class="visually-hidden">Error: </span>${error}</p>` : '';
}

/** The `aria-describedby` of a fieldset whose choices were refused. */
export function groupAttrs(state: FormState, name: string): Html | '' {
  return state.errors[name] ? html` aria-describedby="${errorId(name)}" class="invalid"` : '';
}

/** At the top of a refused form's page: each error, linking to its field. */
export function errorSummary(state: FormState, labels: Record<string, string>): Html | '' {
  const entries = Object.entries(state.errors);
  if (state.resumed) return html`<p class="notice" role="status">${RESUMED}</p>`;
  if (entries.length === 0) return '';
  return html`<div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1">\
<h2 id="error-summary-title">There is a problem</h2><ul>
${entries.map(([name, message]) => summaryItem(name, message, labels))}
</ul></div>`;
}

/** One error of the summary: a link to its field, or the form's own error as it is. */
function summaryItem(name: string, message: string, labels: Record<string, string>): Html {
  if (name === '_form') return html`<li>${message}</li>`;
  return html`<li><a href="#${fieldId(name)}">${labels[name] ?? name}: ${message}</a></li>`;
}

export const fieldValue = (state: FormState, name: string, fallback = ''): string => {
  const value = state.values[name];
  return typeof value === 'string' ? value : fallback;
};

export const choicesOf = (state: FormState, name: string, fallback: readonly string[]): readonly string[] => {
  const value = state.values[name];
  return Array.isArray(value) ? value : typeof value === 'string' ? [value] : fallback;
};
