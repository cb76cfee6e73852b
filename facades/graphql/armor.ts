import { EnvelopArmor } from '@escape.tech/graphql-armor';

type GraphQLArmorConfig = NonNullable<ConstructorParameters<typeof EnvelopArmor>[0]>;

/**
 * Limits on the shape of a query sent to `/graphql`, checked while it is parsed and validated,
 * before anything runs (GraphQL Armor). Every named operation of the facades (REST, MCP, pages,
 * integrations, CLI) stays well inside them (at most depth 7, 109 tokens, cost about 17,700,
 * no alias; a test checks each), so they only stop hand-written or hostile queries: one
 * 444 KiB query of 6,000 aliases is refused after its first 2,000 tokens.
 */
export const GRAPHQL_LIMITS = {
  /** Aliased fields per operation, `__typename` included. */
  aliases: 15,
  /** Nesting of selections (introspection aside). */
  depth: 10,
  /** Lexical tokens of the whole document. */
  tokens: 2_000,
  /** GraphQL Armor's cost (objects 2, scalars 1, ×1.5 per level of depth). */
  cost: 50_000,
  /** Directives per operation. */
  directives: 50,
} as const;

export const ARMOR_CONFIG: GraphQLArmorConfig = {
  // Armor leaves aliases of __typename out of the count by default (300 were answered): every
  // alias counts here, so the limit above is the whole truth.
  maxAliases: { n: GRAPHQL_LIMITS.aliases, allowList: [] },
  maxDepth: { n: GRAPHQL_LIMITS.depth, ignoreIntrospection: true },
  maxTokens: { n: GRAPHQL_LIMITS.tokens },
  costLimit: { maxCost: GRAPHQL_LIMITS.cost },
  maxDirectives: { n: GRAPHQL_LIMITS.directives },
  // Internal callers are trusted with the schema: suggestions stay.
  blockFieldSuggestion: { enabled: false },
};

/** The envelop plugins that enforce GRAPHQL_LIMITS, for yoga. */
export function armorPlugins() {
  return new EnvelopArmor(ARMOR_CONFIG).protect().plugins;
}
