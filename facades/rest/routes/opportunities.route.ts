import { listJson, opportunityJson, type Connection, type OpportunityNode } from '../representations.ts';
import { listParameters, pathId, type Route } from '../route.ts';

const renderList = (data: { opportunities: Connection<OpportunityNode> }) => listJson(data.opportunities, opportunityJson);
const renderOne = (data: { opportunity: OpportunityNode }) => opportunityJson(data.opportunity);

export const opportunitiesRoute: Route = {
  path: '/opportunities',
  scope: 'opportunities:read',
  call: ({ query }) => ({ operation: 'RestOpportunities', variables: listParameters(query), render: renderList }),
};

export const opportunityRoute: Route = {
  path: '/opportunities/{id}',
  scope: 'opportunities:read',
  call: ({ id }) => ({ operation: 'RestOpportunity', variables: { id: pathId(id) }, render: renderOne }),
};
