import { eventJson, listJson } from '../representations.ts';
import { listParameters, pathId, type Route } from '../route.ts';

export const eventsRoute: Route = {
  path: '/events',
  scope: 'events:read',
  call: ({ query }) => ({
    operation: 'RestEvents',
    variables: listParameters(query),
    render: (data) => listJson(data.events, eventJson),
  }),
};

export const eventRoute: Route = {
  path: '/events/{id}',
  scope: 'events:read',
  call: ({ id }) => ({
    operation: 'RestEvent',
    variables: { id: pathId(id) },
    render: (data) => eventJson(data.event),
  }),
};
