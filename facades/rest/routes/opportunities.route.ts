import type { RestOpportunitiesQuery, RestOpportunityQuery } from '../../generated/rest.ts';
import { opportunity } from '../../representations/resources.ts';
import { listTag, resourceTag } from '../../../core/index.ts';
import { listParameters, pathId, type Route, listJson } from '../route.ts';
import { present } from '../../operation-runner.ts';

const renderList = (data: RestOpportunitiesQuery) => listJson(data.opportunities, opportunity.json);
const renderOne = (data: RestOpportunityQuery) => opportunity.json(present(data.opportunity));
const LIST_TAGS = [listTag('opportunities')];

export const opportunitiesRoute: Route = {
  path: '/opportunities',
  scope: 'opportunities:read',
  call: ({ query }) => ({ operation: 'RestOpportunities', variables: listParameters(query), render: renderList, tags: () => LIST_TAGS }),
};

export const opportunityRoute: Route = {
  path: '/opportunities/{id}',
  scope: 'opportunities:read',
  call: ({ id }) => {
    const needId = pathId(id);
    return {
      operation: 'RestOpportunity',
      variables: { id: needId },
      render: renderOne,
      // The organization's name is part of the answer: a change of the organization retires it too.
      tags: (data?: RestOpportunityQuery) => [
        resourceTag('need', needId),
        ...(data?.opportunity ? [resourceTag('organization', data.opportunity.organization.id)] : []),
      ],
    };
  },
};
