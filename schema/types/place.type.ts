import type { Place } from '../../core/public-views.ts';
import { builder } from '../builder.ts';

export const PlaceRef = builder.objectRef<Place>('Place').implement({
  description: 'Where something is. Any part may be unknown.',
  fields: (t) => ({
    city: t.exposeString('city', { description: 'City or town, as the organization wrote it.', nullable: true }),
    region: t.exposeString('region', { description: 'Region, county or state, as the organization wrote it.', nullable: true }),
    country: t.exposeString('country', { nullable: true, description: 'ISO 3166-1 alpha-2 code' }),
  }),
});
