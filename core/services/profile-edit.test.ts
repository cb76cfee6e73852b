import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.ts';
import * as v from '../validate.ts';
import { checkEachField, checkProfile } from './profile-edit.ts';

describe('profile checks', () => {
  it('word every refusal for the person who typed the value, each beside its field', () => {
    const { problems } = checkEachField({
      name: ' ',
      website: 'not a site',
      logoUrl: 'ftp://logo.example/x.png',
      sectors: ['Textile', 'r'.repeat(81)],
      city: 'Lille\u0007',
      country: 'France',
    });
    expect(problems).toEqual([
      { field: 'name', message: 'Enter the name of the organization.' },
      { field: 'website', message: 'Enter a website address that starts with https://, such as https://example.org.' },
      { field: 'logo_url', message: 'Enter a logo address that starts with https:// or http://.' },
      { field: 'city', message: 'Remove the control characters from the city.' },
      { field: 'country', message: 'Enter the country as its two-letter code, such as FR or GB.' },
      { field: 'sectors', message: 'Keep each sector to 80 characters or fewer.' },
    ]);
  });

  it('throw the same words to an operator, with the invalid_input code', () => {
    const refusal = (() => {
      try {
        checkProfile({ networks: Array.from({ length: 31 }, (_, i) => `Network ${i}`) });
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal).toMatchObject({ code: 'invalid_input', field: 'networks', message: 'List at most 30 networks.' });
  });

  it('leave the field-named refusals of the shared checks to the services that pass no words', () => {
    expect(() => v.httpUrl('url', 'nope')).toThrow('url must be an absolute URL');
  });
});
