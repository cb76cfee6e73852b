import { DELIVERY_FORMATS, DESTINATION_SCOPES, LANGUAGES, SIGNAL_TYPES } from '../../../../core/index.ts';
import { checkFields, hasControl, textOf, type FieldErrors } from '../../../kit/forms.ts';

// The destination forms checked as a whole before the service sees them, each mistake worded for
// the admin at the keyboard; what only the service can tell (the address policy, the plan) it
// still refuses, one at a time.

type Values = Record<string, string | string[]>;

/** The service's refusals by field, as the page words them (the URL policy's own sentences stay). */
export const PLAIN_WORDS: Record<string, string> = {
  name: 'Keep the name to 100 characters or fewer, without control characters.',
  description: 'Keep the description to 500 characters or fewer, without control characters.',
  format: 'Choose one of the formats.',
  language: 'Choose the language of the messages.',
  kinds: 'Choose at least one event kind.',
  scope: 'Choose whether the destination gets every public signal or your organization’s only.',
};

const label = (what: string, max: number) => (value: string | string[] | undefined) => {
  const text = textOf(value).trim();
  if (hasControl(text)) return `Remove the control characters from the ${what}.`;
  if (text.length > max) return `Keep the ${what} to ${max} characters or fewer (it has ${text.length}).`;
  return undefined;
};

const oneOf =
  (known: readonly string[], sentence: string, required = false) =>
  (value: string | string[] | undefined) =>
    (value === undefined && !required) || known.includes(textOf(value)) ? undefined : sentence;

function url(required: boolean) {
  return (value: string | string[] | undefined) => {
    const text = textOf(value).trim();
    if (text === '') return required ? 'Enter the address of the receiver, such as https://hooks.example.com/packline.' : undefined;
    let parsed: URL;
    try {
      parsed = new URL(text);
    } catch {
      return 'Enter the full address of the receiver, starting with https://, such as https://hooks.example.com/packline.';
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'Enter an address starting with https://.';
    return undefined;
  };
}

const kinds = (value: string | string[] | undefined) => {
  const chosen = ([] as string[]).concat(value ?? []).filter((k) => (SIGNAL_TYPES as readonly string[]).includes(k));
  return chosen.length === 0 ? PLAIN_WORDS.kinds : undefined;
};

/** Every mistake of the add form (`create`) or the edit form, by field. */
export function checkDestinationForm(values: Values, form: 'create' | 'edit'): FieldErrors {
  return checkFields(values, {
    name: label('name', 100),
    description: label('description', 500),
    ...(form === 'create' ? { format: oneOf(DELIVERY_FORMATS, PLAIN_WORDS.format!, true) } : {}),
    url: url(form === 'create'),
    language: oneOf(LANGUAGES, PLAIN_WORDS.language!),
    kinds,
    scope: oneOf(DESTINATION_SCOPES, PLAIN_WORDS.scope!),
  });
}
