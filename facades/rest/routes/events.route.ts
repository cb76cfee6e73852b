import { eventJson, listJson, type Connection, type EventNode } from '../representations.ts';
import { listParameters, pathId, type Route } from '../route.ts';

const renderList = (data: { events: Connection<EventNode> }) => listJson(data.events, eventJson);
const renderOne = (data: { event: EventNode }) => eventJson(data.event);

export const eventsRoute: Route = {
  path: '/events',
  scope: 'events:read',
  call: ({ query }) => ({ operation: 'RestEvents', variables: listParameters(query), render: renderList }),
};

export const eventRoute: Route = {
  path: '/events/{id}',
  scope: 'events:read',
  call: ({ id }) => ({ operation: 'RestEvent', variables: { id: pathId(id) }, render: renderOne }),
};
