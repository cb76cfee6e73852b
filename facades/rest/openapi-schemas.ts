import { MAX_PAGE_SIZE } from '../../core/index.ts';
import { PROBLEMS } from './problem.ts';
import { components, nullable, ref } from '../representations/declaring.ts';
import { event, opportunity, organization, organizationRef, place } from '../representations/resources.ts';

// The JSON schemas of the public API's bodies (docs/service-contract.md#resources), for the OpenAPI document. Every object
// is closed (`additionalProperties: false`); the resources' schemas come from their declarations
// in representations/resources.ts, like the answers themselves.

export { nullable, ref };

export function openApiSchemas() {
  return {
    ...components(place, organizationRef, organization, opportunity, event),
    ListMeta: {
      type: 'object',
      required: ['next_cursor'],
      additionalProperties: false,
      properties: {
        next_cursor: nullable('string', { description: 'Pass back as `cursor` for the next page; null on the last page.' }),
      },
    },
    OpportunityList: {
      type: 'object',
      required: ['data', 'meta'],
      additionalProperties: false,
      properties: { data: { type: 'array', items: ref('Opportunity'), maxItems: MAX_PAGE_SIZE }, meta: ref('ListMeta') },
    },
    EventList: {
      type: 'object',
      required: ['data', 'meta'],
      additionalProperties: false,
      properties: { data: { type: 'array', items: ref('Event'), maxItems: MAX_PAGE_SIZE }, meta: ref('ListMeta') },
    },
    Problem: {
      type: 'object',
      description: 'RFC 9457 problem details.',
      required: ['type', 'title', 'status', 'detail', 'code', 'request_id'],
      additionalProperties: false,
      properties: {
        type: { type: 'string', format: 'uri-reference', description: 'Reference to an explanation of the problem type.' },
        title: { type: 'string' },
        status: { type: 'integer' },
        detail: { type: 'string' },
        code: { type: 'string', enum: Object.keys(PROBLEMS) },
        request_id: { type: 'string' },
        parameter: { type: 'string', description: 'The parameter at fault (400 only).' },
      },
    },
  };
}
