import type { RestEventQuery, RestEventsQuery } from '../../generated/rest.ts';
import { event } from '../../representations/resources.ts';
import { listTag, resourceTag } from '../../../core/index.ts';
import { listParameters, pathId, type Route, listJson } from '../route.ts';
import { present } from '../../operation-runner.ts';

const renderList = (data: RestEventsQuery) => listJson(data.events, event.json);
const renderOne = (data: RestEventQuery) => event.json(present(data.event));
const LIST_TAGS = [listTag('events')];

export const eventsRoute: Route = {
  path: '/events',
  scope: 'events:read',
  call: ({ query }) => ({ operation: 'RestEvents', variables: listParameters(query), render: renderList, tags: () => LIST_TAGS }),
};

export const eventRoute: Route = {
  path: '/events/{id}',
  scope: 'events:read',
  call: ({ id }) => {
    const eventId = pathId(id);
    return {
      operation: 'RestEvent',
      variables: { id: eventId },
      render: renderOne,
      // The host's name is part of the answer: a change of the host retires it too.
      tags: (data?: RestEventQuery) => [
        resourceTag('event', eventId),
        ...(data?.event ? [resourceTag('organization', data.event.host.id)] : []),
      ],
    };
  },
};
