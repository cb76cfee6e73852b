/** Where the internal GraphQL API (and, for a browser, its explorer) answers. */
export const GRAPHQL_PATH = '/graphql';
