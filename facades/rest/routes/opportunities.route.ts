import { listJson, opportunityJson } from '../representations.ts';
import { listParameters, pathId, type Route } from '../route.ts';

export const opportunitiesRoute: Route = {
  path: '/opportunities',
  scope: 'opportunities:read',
  call: ({ query }) => ({
    operation: 'RestOpportunities',
    variables: listParameters(query),
    render: (data) => listJson(data.opportunities, opportunityJson),
  }),
};

export const opportunityRoute: Route = {
  path: '/opportunities/{id}',
  scope: 'opportunities:read',
  call: ({ id }) => ({
    operation: 'RestOpportunity',
    variables: { id: pathId(id) },
    render: (data) => opportunityJson(data.opportunity),
  }),
};
