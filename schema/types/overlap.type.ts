import { KEY_ROLL_OVERLAPS, OVERLAPS, SECRET_OVERLAPS, type Overlap } from '../../core/overlaps.ts';
import { builder } from '../builder.ts';

const described = <T extends Overlap>(values: readonly T[]) =>
  Object.fromEntries(
    values.map((o) => [
      o,
      { description: OVERLAPS[o].seconds === 0 ? 'The old one stops at once.' : `The old one works ${OVERLAPS[o].label} more.` },
    ]),
  ) as Record<T, { description: string }>;

export const KeyRollOverlapEnum = builder.enumType('KeyRollOverlap', {
  description: 'How long a rolled API key keeps working beside its replacement.',
  values: described(KEY_ROLL_OVERLAPS),
});

export const SecretOverlapEnum = builder.enumType('SecretOverlap', {
  description: 'How long a replaced signing secret keeps signing beside the new one.',
  values: described(SECRET_OVERLAPS),
});
