import { defineEntity, type InferEntity } from '@mikro-orm/core';

/** The status classes of an API answer, the rate and quota refusals (429) counted apart. */
export const ANSWER_CLASSES = ['2xx', '3xx', '4xx', '429', '5xx'] as const;
export type AnswerClass = (typeof ANSWER_CLASSES)[number];

/** Answers of the public API per organization, UTC day, key and status class: the usage page's splits. */
export const ApiKeyUsageEntity = defineEntity({
  name: 'ApiKeyUsage',
  tableName: 'api_key_usage',
  properties: (p) => ({
    organizationId: p.string().length(64).primary(),
    day: p.string().length(10).primary(),
    keyId: p.string().length(40).primary(),
    answer: p.string().length(4).primary(),
    calls: p.integer().default(0),
  }),
});

export type ApiKeyUsage = InferEntity<typeof ApiKeyUsageEntity>;
