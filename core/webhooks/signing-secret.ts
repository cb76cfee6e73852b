import { randomBytes } from 'node:crypto';

/** A standard JSON signing secret: `whsec_` and the base64 of 32 random bytes (docs/design.md#webhook-signing). */
export const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
