import { describe, expect, it } from 'vitest';
import { hashSecret, isWellFormedSecret, newSecret, pkceMatches } from './access-secrets.ts';

describe('access secrets', () => {
  it('are 256-bit random values with a kind prefix, stored by SHA-256', () => {
    const token = newSecret('accessToken');
    expect(token).toMatch(/^pla_[0-9A-Za-z]{43}$/);
    expect(isWellFormedSecret('accessToken', token)).toBe(true);
    expect(isWellFormedSecret('refreshToken', token)).toBe(false);
    expect(hashSecret(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(newSecret('accessToken')).not.toBe(token);
  });

  it('checks PKCE S256 as RFC 7636 appendix B computes it', () => {
    const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
    expect(pkceMatches(verifier, 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(true);
    expect(pkceMatches(verifier, 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cN')).toBe(false);
    expect(pkceMatches('too-short', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(false);
  });
});
