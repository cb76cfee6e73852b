import type { Place } from '../../core/visibility.ts';
import { builder } from '../builder.ts';

export const PlaceRef = builder.objectRef<Place>('Place').implement({
  description: 'Where something is. Any part may be unknown.',
  fields: (t) => ({
    city: t.exposeString('city', { nullable: true }),
    region: t.exposeString('region', { nullable: true }),
    country: t.exposeString('country', { nullable: true, description: 'ISO 3166-1 alpha-2 code' }),
  }),
});
